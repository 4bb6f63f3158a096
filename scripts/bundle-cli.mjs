/**
 * `npm run compile`'s second step: bundles the command line (src/cli/main.ts and everything it
 * loads, packages included) into one CommonJS file, dist/cli/main.bundle.cjs, which the bin
 * (dist/cli/launch.js) compiles with V8's code cache. One file instead of ~150 modules saves the ESM
 * loader's resolving and linking; one script is what V8's code cache can keep (Node 20 has no cache
 * for ES modules). Commands still load their work lazily: esbuild turns each `await import()` into
 * a module initialised on first use. It also writes in what src/api/precomputed.ts lists, and the
 * output documents' checks compiled from their zod schemas (src/schema/output-checks.ts).
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { schemasFromZod } from "../dist/api/openapi.js";
import { renderMethodology } from "../dist/api/pages/methodology.js";
import { sourceFingerprint } from "../dist/io/closed-days.js";
import { outputChecksCode } from "../dist/schema/output-checks.js";

// Computed once here rather than at every build's start (src/api/precomputed.ts says what and why);
// from tsc's output of the same sources, which `npm run compile` has just written.
const markdown = readFileSync("docs/methodology.md", "utf8");
const precomputed = {
  methodology: { markdown, html: renderMethodology(markdown) },
  componentSchemas: schemasFromZod(),
  codeSha256: sourceFingerprint(fileURLToPath(new URL("../src", import.meta.url))),
};

// The output documents' schemas compiled to plain checks (src/schema/output-checks.ts says why): the
// bundle's src/schema/compiled-outputs.ts is this code instead of the module's `undefined`.
const compiledOutputs = {
  name: "compiled-outputs",
  setup(b) {
    const code = outputChecksCode();
    b.onLoad({ filter: /[\\/]src[\\/]schema[\\/]compiled-outputs\.ts$/ }, () => ({ contents: code, loader: "js" }));
  },
};

const result = await build({
  entryPoints: ["src/cli/main.ts"],
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  // Packages' ES module builds first: some UMD builds (jsonc-parser's) require files by computed names.
  mainFields: ["module", "main"],
  outfile: "dist/cli/main.bundle.cjs",
  // The modules find docs/, examples/ and the changelog relative to their own URL; the bundle sits
  // at the same depth (dist/cli/) as the modules did (dist/io/), so the same relative paths hold.
  define: { "import.meta.url": "__bundleUrl", PRICE_FEED_PRECOMPUTED: JSON.stringify(precomputed) },
  // "use strict" first: esbuild's own comes after the banner, where it would no longer be a directive.
  banner: { js: '"use strict";\nconst __bundleUrl = require("node:url").pathToFileURL(__filename).href;' },
  plugins: [compiledOutputs],
  legalComments: "none",
  // Without comments and indentation the bundle is 2.1 MB instead of 3.2: less to read, hash and
  // decode at every start. Names stay; a readable stack comes from PRICE_FEED_DEBUG (launch.ts).
  minifyWhitespace: true,
  metafile: true,
  logLevel: "warning",
});
// Only Node's own modules may stay outside: the bin must not depend on resolving packages at run time.
const outside = Object.values(result.metafile.outputs).flatMap((o) =>
  o.imports.filter((i) => i.external && !i.path.startsWith("node:") && !/^[a-z_]+$/.test(i.path)).map((i) => i.path),
);
if (outside.length) {
  console.error(`bundle-cli: the bundle would load ${outside.join(", ")} at run time`);
  process.exit(1);
}
