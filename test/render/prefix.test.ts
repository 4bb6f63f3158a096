/**
 * The human pages under any base path: the built site of the simulated market, served by a plain
 * static file server (sirv) under /some/prefix/ on loopback, as a mirror without the edge function
 * would serve it. Every human page is crawled from the home pages by following its links and
 * assets: each answers 200, none leaves the prefix, and no page writes a root-relative href or src.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import sirv from "sirv";
import { parse } from "node-html-parser";
import { humanPages, sampleSite } from "../helpers/pages.js";
import type { Feed } from "../../src/schema/outputs.js";

const PREFIX = "/some/prefix/";

let server: Server;
let origin: string;
let feed: Feed;
let sellers: string[];
beforeAll(async () => {
  const site = await sampleSite();
  feed = site.feed;
  sellers = site.sellers;
  // A plain static host, as the mirror is: a folder's index.html and nothing more, so a page must
  // link a file (/api/v1/index.json), not a path only the edge function answers (/api/v1).
  const files = sirv(site.out, { dev: true });
  server = createServer((req, res) => {
    const url = req.url ?? "/";
    if (!url.startsWith(PREFIX)) {
      res.writeHead(404).end("outside the prefix");
      return;
    }
    req.url = url.slice(PREFIX.length - 1);
    files(req, res, () => void res.writeHead(404).end("no such file"));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 120_000);
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe("the pages under a base path", () => {
  test("every page, crawled from the home pages, links only inside the prefix, and every link answers 200", async () => {
    const base = origin + PREFIX;
    const queue = [base, `${base}ar/`];
    const seen = new Set<string>(queue);
    const problems: string[] = [];
    const visitedPages: string[] = [];
    while (queue.length) {
      const url = queue.shift()!;
      const res = await fetch(url);
      if (res.status !== 200) {
        problems.push(`${url}: ${res.status}`);
        continue;
      }
      if (!(res.headers.get("content-type") ?? "").includes("text/html")) continue;
      visitedPages.push(new URL(url).pathname.slice(PREFIX.length - 1));
      const html = await res.text();
      for (const m of html.matchAll(/ (?:href|src)="(\/[^"]*)"/g)) problems.push(`${url}: root-relative ${m[1]}`);
      const root = parse(html);
      const refs = [
        ...root.querySelectorAll("a[href]").map((a) => a.getAttribute("href")!),
        ...root.querySelectorAll("link[href]").map((l) => l.getAttribute("href")!),
        ...root.querySelectorAll("[src]").map((e) => e.getAttribute("src")!),
      ]
        // The one link out of the site: an asset's WhatsApp share link, which a reader follows by choice.
        .filter((h) => !h.startsWith("data:") && !h.startsWith("#") && !h.startsWith("https://wa.me/?text="));
      for (const ref of refs) {
        const target = new URL(ref, url);
        if (target.origin !== origin || !target.pathname.startsWith(PREFIX)) {
          problems.push(`${url}: ${ref} leaves the prefix (${target.href})`);
          continue;
        }
        target.hash = "";
        target.search = "";
        if (!seen.has(target.href)) {
          seen.add(target.href);
          queue.push(target.href);
        }
      }
    }
    expect(problems).toEqual([]);
    // The crawl reached every human page of the feed, the Arabic docs included.
    expect(visitedPages.sort()).toEqual(expect.arrayContaining(humanPages(feed, sellers).map((p) => p.path)));
    expect(visitedPages).toContain("/ar/docs/");
  }, 120_000);
});
