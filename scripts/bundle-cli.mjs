/**
 * The compile's bundle (scripts/compile.mjs runs it beside tsc): bundles the command line
 * (src/cli/main.ts and everything it loads, packages included) into one CommonJS file,
 * dist/cli/main.bundle.cjs, which the bin (dist/cli/bin.js) loads under Node's compile cache. One
 * file instead of ~150 modules saves the ESM loader's resolving and linking, and is one entry of the
 * cache. Commands still load their work lazily: esbuild turns each `await import()` into a module
 * initialised on first use.
 *
 * What the bundle computes at compile time goes in by one mechanism: two modules of src/ are
 * replaced in the bundle by generated ones (REPLACED). src/core/precomputed.ts becomes the values it
 * lists, and src/schema/compiled-outputs.ts the output documents' checks compiled from their zod
 * schemas (scripts/output-checks.ts). The unbundled program keeps both modules as they are
 * (nothing precomputed, nothing compiled). The values are computed from the sources themselves, not
 * from tsc's output: the code that computes them is bundled first (packages left outside) and
 * imported, so this script does not wait for tsc nor depend on where tsc puts a module.
 */
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
process.chdir(ROOT);

// The compile-time code: a few functions of src/ and the output checks' generator, as one ES module
// in dist/ (so that its packages resolve from node_modules), imported, then removed.
const TOOLS = "dist/.compile-time.mjs";
await build({
  stdin: {
    contents: [
      'export { schemasFromZod } from "./src/render/openapi/schemas.ts";',
      'export { renderMethodology } from "./src/render/pages/methodology.ts";',
      'export { sourceFingerprint } from "./src/incremental/fingerprint.ts";',
      'export { outputChecksCode } from "./scripts/output-checks.ts";',
    ].join("\n"),
    resolveDir: ROOT,
    sourcefile: "compile-time.ts",
    loader: "ts",
  },
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node22",
  packages: "external",
  outfile: TOOLS,
  logLevel: "warning",
});
let tools;
try {
  tools = await import(pathToFileURL(path.join(ROOT, TOOLS)).href);
} finally {
  rmSync(TOOLS, { force: true });
}

// Computed once here rather than at every build's start (src/core/precomputed.ts says what and why).
const markdown = readFileSync("docs/methodology.md", "utf8");
const precomputed = {
  methodology: { markdown, html: tools.renderMethodology(markdown) },
  componentSchemas: tools.schemasFromZod(),
  codeSha256: tools.sourceFingerprint(path.join(ROOT, "src")),
};

/** The modules of src/ whose bundled text is generated here, by their path from the root. */
const REPLACED = {
  "src/core/precomputed.ts": `export const precomputed = ${JSON.stringify(precomputed)};\n`,
  "src/schema/compiled-outputs.ts": tools.outputChecksCode(),
};
const replaced = new Set();
const compileTime = {
  name: "compile-time",
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/](core[\\/]precomputed|schema[\\/]compiled-outputs)\.ts$/ }, (args) => {
      const key = path.relative(ROOT, args.path).split(path.sep).join("/");
      const contents = REPLACED[key];
      if (contents === undefined) return undefined;
      replaced.add(key);
      return { contents, loader: "js" };
    });
    // A tagged template's text stays as written (esbuild escapes every other string, but escaping a
    // template's text changes its `raw`): the pages' html`` templates hold Arabic, so their modules
    // are read with each non-ASCII character as its \u escape, which html, reading no `raw`, ignores.
    b.onLoad({ filter: /[\\/]src[\\/]render[\\/].*\.ts$/ }, (args) => ({
      contents: readFileSync(args.path, "utf8").replace(
        /[^\0-\x7f]/g,
        (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
      ),
      loader: "ts",
    }));
  },
};

const result = await build({
  entryPoints: ["src/cli/main.ts"],
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node22",
  // Packages' ES module builds first: some UMD builds (jsonc-parser's) require files by computed names.
  mainFields: ["module", "main"],
  outfile: "dist/cli/main.bundle.cjs",
  // The modules find docs/, examples/ and the changelog relative to their own URL; the bundle sits
  // at the same depth (dist/cli/) as the modules did (dist/io/), so the same relative paths hold.
  define: { "import.meta.url": "__bundleUrl" },
  // "use strict" first: esbuild's own comes after the banner, where it would no longer be a directive.
  banner: { js: '"use strict";\nconst __bundleUrl = require("node:url").pathToFileURL(__filename).href;' },
  plugins: [compileTime],
  legalComments: "none",
  // Without comments and indentation the bundle is 2.1 MB instead of 3.2: less to read, hash and
  // decode at every start. Names stay; a readable stack comes from PRICE_FEED_DEBUG (src/cli/bin.ts).
  minifyWhitespace: true,
  metafile: true,
  logLevel: "warning",
});
// A replaced module that moved or is no longer imported would leave the bundle computing at run time.
const unused = Object.keys(REPLACED).filter((k) => !replaced.has(k));
if (unused.length) {
  console.error(`bundle-cli: ${unused.join(", ")} not in the bundle: move its entry in REPLACED with it`);
  process.exit(1);
}
// ASCII only (esbuild escapes strings, not regular expression literals): V8 holds a script's source
// for as long as its functions may be compiled, and one character outside Latin-1 makes all of it a
// two-byte string — the 2.4 MB bundle was 4.8 MB of every command's heap.
const bytes = readFileSync("dist/cli/main.bundle.cjs");
const wide = bytes.findIndex((b) => b > 0x7f);
if (wide >= 0) {
  const around = bytes.subarray(Math.max(0, wide - 40), wide + 8).toString("utf8");
  console.error(
    `bundle-cli: a character outside ASCII in the bundle, near …${around}: escape it (\\uXXXX) in its source`,
  );
  process.exit(1);
}
// Only Node's own modules may stay outside: the bin must not depend on resolving packages at run time.
// One exception is not an import, so esbuild does not see it: the asset cards' rasterizer, resvg
// (native code, which no bundle can hold), and its fonts, resolved by src/jobs/card-images.ts with
// createRequire when a build draws a card.
const outside = Object.values(result.metafile.outputs).flatMap((o) =>
  o.imports.filter((i) => i.external && !i.path.startsWith("node:") && !/^[a-z_]+$/.test(i.path)).map((i) => i.path),
);
if (outside.length) {
  console.error(`bundle-cli: the bundle would load ${outside.join(", ")} at run time`);
  process.exit(1);
}
