/**
 * The two homes (docs/deployment.md "The second home"): the index names the primary and the mirror
 * from site.json, and every feed document names the pre-filtered files a static host answers
 * instead of a filter, each of which the build writes.
 */
import { beforeAll, describe, expect, test } from "vitest";
import { promises as fs } from "node:fs";
import path from "node:path";
import { buildIndex } from "../../src/feed/index-doc.js";
import { IndexDoc } from "../../src/schema/documents.js";
import { Feed } from "../../src/schema/outputs.js";
import { catalog, site } from "../helpers/dataset.js";
import { builtSite, depsFor } from "../helpers/site.js";
import { handle } from "../../src/edge/handler.js";

let out: string;
beforeAll(async () => {
  ({ out } = await builtSite());
});
const read = async (file: string) => JSON.parse(await fs.readFile(path.join(out, file), "utf8")) as unknown;

describe("the index names both homes", () => {
  test("from site.json's baseUrl and mirrorUrl, without trailing slashes, valid as the Index schema", () => {
    const index = buildIndex(catalog, {
      ...site,
      baseUrl: "https://prices.example.org/",
      mirrorUrl: "https://owner.github.io/price-feed/",
    });
    expect(IndexDoc.parse(index).homes).toMatchObject({
      primary: "https://prices.example.org",
      mirror: "https://owner.github.io/price-feed",
      onMirror: {
        index: "/api/v1/index.json",
        category: "/api/v1/feed/category/{slug}.json",
        asset: "/api/v1/feed/asset/{slug}.json",
      },
    });
  });

  test("none configured: both null, and the built index says so", async () => {
    const index = IndexDoc.parse(await read("api/v1/index.json"));
    expect(index.homes).toMatchObject({ primary: null, mirror: null });
    expect(index.homes.onMirror.rule).toMatch(/does not read the query string/);
  });
});

describe("every feed document names the variant files, and the build writes each of them", () => {
  test("the feed and each pre-filtered file carry the same _variants; every template filled with a slug is a file", async () => {
    const feed = Feed.parse(await read("api/v1/feed.json"));
    expect(feed._variants).toEqual({
      category: "/api/v1/feed/category/{slug}.json",
      asset: "/api/v1/feed/asset/{slug}.json",
    });
    const fill = (template: string, slug: string) => template.replace("{slug}", slug).slice(1);
    for (const a of feed.assets) {
      const variant = Feed.parse(await read(fill(feed._variants.asset, a.slug)));
      expect(variant._variants).toEqual(feed._variants);
      expect(variant.assets.map((x) => x.slug)).toEqual([a.slug]);
    }
    for (const c of new Set(feed.assets.map((a) => a.category))) {
      const variant = Feed.parse(await read(fill(feed._variants.category, c)));
      expect(variant.assets.map((x) => x.slug)).toEqual(feed.assets.filter((a) => a.category === c).map((a) => a.slug));
    }
  });
});

test("an answer the edge composes (two assets) names the variant files too: on the mirror, they are the way", async () => {
  const res = await handle(new Request("http://x/api/v1/feed.json?asset=us-dollar,GOLD-24K"), depsFor(out));
  expect(res.status).toBe(200);
  const feed = Feed.parse(await res.json());
  expect(feed._self).toBe("/api/v1/feed.json?asset=us-dollar,GOLD-24K");
  expect(feed._variants.asset).toBe("/api/v1/feed/asset/{slug}.json");
});

test("the docs page's quick start gives the mirror's file of its example", async () => {
  const html = await fs.readFile(path.join(out, "docs/index.html"), "utf8");
  const quick = /<h2 id="quick-start">.*?curl -s '[^']*\?asset=([\w-]+)'.*?<p>(On <a href="#mirror">.*?)<\/p>/s.exec(
    html,
  );
  expect(quick?.[2]).toContain(`<code>/api/v1/feed/asset/${quick?.[1]}.json</code>`);
  expect(html).toContain('<p id="mirror">');
});
