/**
 * The client package's types (client/src/openapi.ts), generated with openapi-typescript from the
 * OpenAPI description, as its CLI writes them. The description is the one a build of the test
 * dataset at its fixed instant publishes (test/helpers/site.ts), not data/'s: its examples and
 * enums carry the build's data, and data/ changes every hour, while the types may change only when
 * the API does. So regenerating gives the committed file byte for byte (test/client-types.test.ts).
 *
 *   npx tsx scripts/client-types.ts           writes client/src/openapi.ts (npm run generate in client/)
 *   npx tsx scripts/client-types.ts --check   exits 1 when the committed file is not what it would write
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import openapiTS, { COMMENT_HEADER, astToString } from "openapi-typescript";
import { builtSite } from "../test/helpers/site.js";

export const CLIENT_TYPES = fileURLToPath(new URL("../client/src/openapi.ts", import.meta.url));

/** The text of client/src/openapi.ts: openapi-typescript's output for the test build's description. */
export async function clientTypes(): Promise<string> {
  const { out } = await builtSite();
  const description = pathToFileURL(path.join(out, "api/v1/openapi.json"));
  return `${COMMENT_HEADER}${astToString(await openapiTS(description))}`;
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
