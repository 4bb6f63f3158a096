/**
 * Bundles the Netlify Edge Function into one ES module for Deno: netlify/edge-functions/api.js, or
 * the path given (`tsx scripts/bundle-edge.ts OUT.js`; tests bundle into a temporary folder).
 * Fails when anything in it would need Node (`node:*`), which the edge runtime does not have.
 */
import { build } from "esbuild";

export async function bundleEdge(outfile = "netlify/edge-functions/api.js"): Promise<string> {
  const r = await build({
    entryPoints: ["src/netlify/edge.ts"],
    bundle: true,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    target: "es2022",
    outfile,
    write: true,
    metafile: true,
    logLevel: "silent",
  });
  const nodeImports = Object.values(r.metafile.outputs).flatMap((o) =>
    o.imports.filter((i) => i.path.startsWith("node:") || i.external).map((i) => i.path),
  );
  if (nodeImports.length) throw new Error(`the edge bundle imports ${nodeImports.join(", ")}`);
  return outfile;
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(`bundled ${await bundleEdge(process.argv[2])}`);
