/**
 * A site whose site.json names both homes (baseUrl, mirrorUrl): its index, its OpenAPI description
 * (linted by Redocly like the other) and its docs page name the primary and the mirror, and the
 * docs page shows the mirror's file for each of its filter examples.
 */
import { beforeAll, expect, test } from "vitest";
import { promises as fs } from "node:fs";
import path from "node:path";
import { runBuild } from "../../src/jobs/build.js";
import { IndexDoc } from "../../src/schema/documents.js";
import { catalog, site, tempDir, writeDataset } from "../helpers/dataset.js";
import { redoclyLint } from "../helpers/redocly.js";
import { smallRows } from "../helpers/rows.js";
import { BUILT_AT } from "../helpers/site.js";

const PRIMARY = "https://prices.example.org";
const MIRROR = "https://owner.github.io/price-feed";
let out: string;
const read = (file: string) => fs.readFile(path.join(out, file), "utf8");

beforeAll(async () => {
  const data = await writeDataset(await tempDir(), smallRows());
  await fs.writeFile(
    path.join(data, "site.json"),
    JSON.stringify({ ...site, baseUrl: `${PRIMARY}/`, mirrorUrl: MIRROR }),
  );
  out = path.join(data, "public");
  await runBuild({ dataDir: data, outDir: out, nowMs: BUILT_AT });
});

test("the index names both homes", async () => {
  expect(IndexDoc.parse(JSON.parse(await read("api/v1/index.json"))).homes).toMatchObject({
    primary: PRIMARY,
    mirror: MIRROR,
  });
});

test("the description's servers: the serving host, the primary, the mirror; Redocly lint stays clean", async () => {
  const doc = JSON.parse(await read("api/v1/openapi.json")) as { servers: Array<{ url: string }> };
  expect(doc.servers.map((s) => s.url)).toEqual(["/", PRIMARY, MIRROR]);
  const report = await redoclyLint(path.join(out, "api/v1/openapi.json"));
  expect(report.problems).toEqual([]);
  expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
}, 60_000);

test("the docs page names both homes and gives the mirror's file for each filter example", async () => {
  const html = await read("docs/index.html");
  const mirror = /<p id="mirror">(.*?)<\/p>/s.exec(html)?.[1] ?? "";
  expect(mirror).toContain(`the primary <code>${PRIMARY}</code> and the mirror <code>${MIRROR}</code>`);
  const examples = /<h2 id="filters">.*?<pre[^>]*class="cmd"><code>(.*?)<\/code><\/pre>/s.exec(html)?.[1] ?? "";
  expect(examples).toContain(`?asset=${catalog[0]!.slug},${catalog[1]!.id}`);
  for (const file of [
    `/api/v1/feed/asset/${catalog[0]!.slug}.json`,
    `/api/v1/feed/asset/${catalog[1]!.slug}.json`,
    `/api/v1/feed/category/${catalog.at(-1)!.category}.json`,
  ]) {
    expect(mirror).toContain(`<code>${file}</code>`);
    await expect(fs.stat(path.join(out, file))).resolves.toBeTruthy(); // the build wrote it
  }
});
