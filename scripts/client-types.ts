/**
 * The client package's types (client/src/openapi.ts), generated with openapi-typescript from the
 * OpenAPI description, as its CLI writes them. The description is the one a build of the test
 * dataset at its fixed instant publishes (test/helpers/site.ts), not data/'s, whose enums change
 * with the catalog; and its `example` members (OpenAPI 3.1 §4.8.14, §4.8.21: whole documents of
 * the build, the changelog among them) are left out, as they would only copy data into comments.
 * So the file changes when the API's shapes or descriptions do, and regenerating gives the
 * committed file byte for byte (test/client/types.test.ts).
 *
 *   npx tsx scripts/client-types.ts           writes client/src/openapi.ts (npm run generate in client/)
 *   npx tsx scripts/client-types.ts --check   exits 1 when the committed file is not what it would write
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import openapiTS, { COMMENT_HEADER, astToString } from "openapi-typescript";
import { builtSite } from "../test/helpers/site.js";

export const CLIENT_TYPES = fileURLToPath(new URL("../client/src/openapi.ts", import.meta.url));

/** The text of client/src/openapi.ts: openapi-typescript's output for the test build's description. */
export async function clientTypes(): Promise<string> {
  const { out } = await builtSite();
  const description = JSON.parse(await fs.readFile(path.join(out, "api/v1/openapi.json"), "utf8")) as unknown;
  return `${COMMENT_HEADER}${astToString(await openapiTS(withoutExamples(description) as never))}`;
}

/** The description without its `example` members (a schema's `properties` may name anything: kept). */
function withoutExamples(node: unknown, parent = ""): unknown {
  if (Array.isArray(node)) return node.map((x) => withoutExamples(x));
  if (node === null || typeof node !== "object") return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([k]) => parent === "properties" || k !== "example")
      .map(([k, v]) => [k, withoutExamples(v, k)]),
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const text = await clientTypes();
  if (process.argv.includes("--check")) {
    const committed = await fs.readFile(CLIENT_TYPES, "utf8").catch(() => "");
    if (committed !== text) {
      console.error(
        `${path.relative(process.cwd(), CLIENT_TYPES)} is not what the description generates: run npm run generate in client/`,
      );
      process.exitCode = 1;
    }
  } else {
    await fs.writeFile(CLIENT_TYPES, text);
    console.log(`wrote ${path.relative(process.cwd(), CLIENT_TYPES)}`);
  }
}
