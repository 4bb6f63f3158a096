/**
 * What changed (docs/methodology.md §12, docs/api.md "What changed"): every kind of event over a
 * scripted sequence of hourly builds of the small dataset, each build's events held to a diff of the
 * two published feeds made from scratch; the record in data/state/events.json; byte-for-byte
 * rebuilds; the Atom feeds read by a real feed parser; ETags and 304s at the handler.
 */
import { beforeAll, describe, expect, test } from "vitest";
import { promises as fs } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import FeedParser from "feedparser";
import { handle } from "../../src/edge/handler.js";
import { runBuild } from "../../src/jobs/build.js";
import { atomFeed, atomId } from "../../src/render/atom.js";
import { nextEvents, summarize, NO_EVENTS } from "../../src/feed/events.js";
import { EVENTS_ON_PAGES, EVENTS_RETENTION_DAYS } from "../../src/core/methodology.js";
import { eventSentence } from "../../src/render/pages/events.js";
import { parse } from "node-html-parser";
import type { Events, EventsState } from "../../src/schema/events.js";
import type { Manifest, SourceRuns } from "../../src/schema/documents.js";
import { depsFor } from "../helpers/site.js";
import { tempDir, writeDataset } from "../helpers/dataset.js";
import { smallRows, TODAY, usdQuote } from "../helpers/rows.js";
import { changeOf, changesBetween, type Published } from "../helpers/events-diff.js";

const read = async <T>(dir: string, f: string) => JSON.parse(await fs.readFile(path.join(dir, f), "utf8")) as T;
const append = (data: string, folder: string, date: string, rows: object[]) =>
  fs.appendFile(path.join(data, folder, `${date}.ndjson`), rows.map((r) => `${JSON.stringify(r)}\n`).join(""));
/** data/state/sources.json as ingest leaves it: s1 last ran at `ranAt`, last succeeded at `succeededAt`, failed once. */
const s1Ran = (data: string, ranAt: string, succeededAt: string) => {
  const runs: SourceRuns = {
    sources: {
      s1: {
        lastRunAt: ranAt,
        lastSuccessAt: succeededAt,
        lastFailure: { at: `${MONDAY}T10:55:00Z`, reason: "HTTP 503 from the rate page" },
      },
    },
  };
  return fs.writeFile(path.join(data, "state", "sources.json"), `${JSON.stringify(runs)}\n`);
};

/** One scripted hour: what changes in data/ before the build, and the kind of event it is meant to cause. */
interface Hour {
  at: string;
  change: (data: string) => Promise<void>;
  causes: { kind: string; asset?: string; source?: string; side?: string } | null;
}

const MONDAY = "2026-11-23";
const HOURS: Hour[] = [
  { at: `${TODAY}T11:30:00Z`, change: async () => {}, causes: null },
  {
    // beta undercuts alpha's 49.9: the best sell moves to beta.
    at: `${TODAY}T12:30:00Z`,
    change: (d) => append(d, "quotes", TODAY, [usdQuote("s1", "beta", 49.2, 49.5, `${TODAY}T12:20:00Z`)]),
    causes: { kind: "best-seller", asset: "us-dollar", side: "sell" },
  },
  {
    // Every seller now asks more than on any of the 15 days before: the sell side's verdict turns.
    at: `${TODAY}T13:30:00Z`,
    change: (d) =>
      append(d, "quotes", TODAY, [
        usdQuote("s1", "alpha", 49.7, 50.9, `${TODAY}T13:20:00Z`),
        usdQuote("s1", "beta", 49.8, 50.8, `${TODAY}T13:20:00Z`),
      ]),
    causes: { kind: "verdict", asset: "us-dollar", side: "sell" },
  },
  {
    at: `${TODAY}T14:30:00Z`,
    change: (d) =>
      append(d, "official", TODAY, [
        { source: "cbe", asset: "USD-EGP", buy: 50.4, sell: 50.5, observedAt: `${TODAY}T14:00:00Z` },
      ]),
    causes: { kind: "official-rate", asset: "us-dollar" },
  },
  {
    // A third source corroborates the dollar.
    at: `${TODAY}T14:50:00Z`,
    change: (d) => append(d, "quotes", TODAY, [usdQuote("s3", "beta", 49.8, 50.8, `${TODAY}T14:40:00Z`)]),
    causes: { kind: "confidence", asset: "us-dollar" },
  },
  // Monday noon in Cairo: nothing new since Thursday, past 8 trading hours.
  { at: `${MONDAY}T10:00:00Z`, change: async () => {}, causes: { kind: "freshness", asset: "us-dollar" } },
  {
    // The dollar is quoted again, and s1's latest run failed.
    at: `${MONDAY}T11:00:00Z`,
    change: async (d) => {
      await fs.writeFile(
        path.join(d, "quotes", `${MONDAY}.ndjson`),
        `${JSON.stringify(usdQuote("s1", "alpha", 49.7, 50.9, `${MONDAY}T10:50:00Z`))}\n`,
      );
      await s1Ran(d, `${MONDAY}T10:55:00Z`, `${MONDAY}T10:50:00Z`);
    },
    causes: { kind: "source", source: "s1" },
  },
  {
    at: `${MONDAY}T12:00:00Z`,
    change: (d) => s1Ran(d, `${MONDAY}T11:55:00Z`, `${MONDAY}T11:55:00Z`),
    causes: { kind: "source", source: "s1" },
  },
  // Nothing changes: the build adds no event.
  { at: `${MONDAY}T12:01:00Z`, change: async () => {}, causes: null },
];

let data: string;
let out: string;
const published: Published[] = [];
const records: EventsState[] = [];
const docs: Events[] = [];

beforeAll(async () => {
  data = await writeDataset(await tempDir("pf-events-"), smallRows());
  out = path.join(data, "public");
  for (const h of HOURS) {
    await h.change(data);
    await runBuild({ dataDir: data, outDir: out, nowMs: Date.parse(h.at) });
    published.push({ feed: await read(out, "api/v1/feed.json"), sources: await read(out, "api/v1/sources.json") });
    records.push(await read(data, "state/events.json"));
    docs.push(await read(out, "api/v1/events.json"));
  }
});

describe("a scripted sequence of hourly builds", () => {
  test("the first build starts the record and derives nothing: it has nothing to compare with", () => {
    expect(records[0]!.events).toEqual([]);
    expect(records[0]!.summary).toEqual(summarize(published[0]!.feed, published[0]!.sources));
  });

  test.each(HOURS.map((h, i) => ({ ...h, i })).slice(1))(
    "$at: the build's events are the diff of the two published feeds, and include $causes.kind",
    ({ i, at, causes }) => {
      const added = docs[i]!.events.filter((e) => e.at === new Date(at).toISOString());
      expect(added.map(changeOf)).toEqual(changesBetween(published[i - 1]!, published[i]!));
      if (causes === null) expect(added).toEqual([]);
      else expect(added).toContainEqual(expect.objectContaining(causes));
      for (const e of added) {
        expect(e.date).toBe(at.slice(0, 10)); // Cairo's date: every scripted hour is between noon and 17:00 there
        expect(e.id).toBe(
          [at.replace(/[-:]/g, ""), e.asset ?? e.source, e.kind, ...(e.side ? [e.side] : [])].join("."),
        );
        expect(e.before).not.toEqual(e.after);
      }
      // Newest first, and every earlier build's events kept as they were.
      expect(docs[i]!.events.slice(added.length)).toEqual(docs[i - 1]!.events);
    },
  );

  test("every kind was seen, with its before and after values", () => {
    const all = docs.at(-1)!.events;
    expect(new Set(all.map((e) => e.kind))).toEqual(
      new Set(["best-seller", "verdict", "official-rate", "freshness", "confidence", "source"]),
    );
    const best = all.find((e) => e.kind === "best-seller" && e.at.startsWith(`${TODAY}T12:30`))!;
    expect([best.before, best.after]).toEqual([
      { seller: "Alpha Bank", sellerAr: "بنك ألفا", value: 49.9 },
      { seller: "Beta Bank", sellerAr: "بنك بيتا", value: 49.5 },
    ]);
    const official = all.find((e) => e.kind === "official-rate")!;
    expect([official.before, official.after]).toEqual([
      { buy: 49.9, sell: 50.01 },
      { buy: 50.4, sell: 50.5 },
    ]);
    const [recovered, failed] = all.filter((e) => e.kind === "source");
    expect(failed!.after).toEqual({ state: "failing", reason: "HTTP 503 from the rate page" });
    expect(recovered!.after).toEqual({ state: "ok", reason: null });
    // The dollar went out of date over the weekend, and was up to date again once quoted on Monday.
    const usd = all.filter((e) => e.kind === "freshness" && e.asset === "us-dollar").map((e) => [e.before, e.after]);
    expect(usd).toEqual([
      ["stale", "fresh"],
      ["fresh", "stale"],
    ]);
  });

  test("a build that changes nothing adds none, and leaves the record as it was but for its build instant", async () => {
    const { builtAt: a, ...last } = records.at(-1)!;
    const { builtAt: b, ...before } = records.at(-2)!;
    expect(last).toEqual(before);
    expect(Date.parse(a!)).toBeGreaterThan(Date.parse(b!)); // what tells a newer record from an older one
  });

  test("each asset's document holds that asset's events, and sources' events only the whole list", async () => {
    const usdDoc = await read<Events>(out, "api/v1/events/asset/us-dollar.json");
    expect(usdDoc.events).toEqual(docs.at(-1)!.events.filter((e) => e.asset === "us-dollar"));
    expect(usdDoc._self).toBe("/api/v1/events/asset/us-dollar.json");
    expect(usdDoc._atom).toBe("/api/v1/events/asset/us-dollar.atom");
  });
});

describe("the record", () => {
  test(`an event is kept ${EVENTS_RETENTION_DAYS} days after its build, then dropped`, () => {
    const last = records.at(-1)!;
    const t = Date.parse(last.events.at(-1)!.at);
    const day = 86_400_000;
    const kept = nextEvents(last, last.summary!, t + EVENTS_RETENTION_DAYS * day);
    expect(kept.events).toEqual(last.events);
    const later = nextEvents(last, last.summary!, t + EVENTS_RETENTION_DAYS * day + 1);
    expect(later.events).toEqual(last.events.filter((e) => Date.parse(e.at) > t));
  });

  test("a rebuild at the recorded instant keeps that build's events; one at an earlier --now drops later ones", () => {
    const last = records.at(-1)!;
    const t = Date.parse(docs.at(-1)!.generatedAt);
    expect(nextEvents(last, last.summary!, t).events).toEqual(last.events);
    const monday = Date.parse(`${MONDAY}T10:00:00Z`);
    expect(nextEvents(last, last.summary!, monday).events.every((e) => Date.parse(e.at) <= monday)).toBe(true);
    expect(nextEvents(NO_EVENTS, last.summary!, t).events).toEqual([]);
  });

  test("--no-state builds read the record, write none, and give the same bytes for the same inputs and --now", async () => {
    const before = await fs.readFile(path.join(data, "state/events.json"), "utf8");
    const at = Date.parse(`${MONDAY}T13:00:00Z`);
    const bytes: string[][] = [];
    for (const n of [1, 2]) {
      const o = path.join(data, `public-${n}`);
      await runBuild({ dataDir: data, outDir: o, nowMs: at, saveState: false });
      bytes.push(
        await Promise.all(
          ["api/v1/events.json", "api/v1/events.atom", "api/v1/events/asset/us-dollar.atom"].map((f) =>
            fs.readFile(path.join(o, f), "utf8"),
          ),
        ),
      );
    }
    expect(bytes[1]).toEqual(bytes[0]);
    expect(await fs.readFile(path.join(data, "state/events.json"), "utf8")).toBe(before);
    expect((JSON.parse(bytes[0]![0]!) as Events).events).toEqual(docs.at(-1)!.events);
  });
});

interface Parsed {
  meta: FeedParser.Meta;
  items: FeedParser.Item[];
}
function parseFeed(xml: string, feedurl: string | undefined = "https://feed.test/api/v1/events.atom"): Promise<Parsed> {
  return new Promise((resolve, reject) => {
    const parser = new FeedParser(feedurl ? { feedurl } : {});
    const items: FeedParser.Item[] = [];
    parser.on("error", reject);
    parser.on("readable", () => {
      let item: FeedParser.Item | null;
      while ((item = parser.read() as FeedParser.Item | null)) items.push(item);
    });
    parser.on("end", () => resolve({ meta: parser.meta, items }));
    Readable.from([xml]).pipe(parser);
  });
}

describe("Atom (RFC 4287), read by a feed parser", () => {
  test("one entry per event, with its id, instant, both languages' titles and the asset page", async () => {
    const xml = await fs.readFile(path.join(out, "api/v1/events.atom"), "utf8");
    const { meta, items } = await parseFeed(xml);
    expect(meta["#type"]).toBe("atom");
    expect(meta.title).toBe("Price Feed: what changed");
    const events = docs.at(-1)!.events;
    expect(items).toHaveLength(events.length);
    expect(new Date(meta.date!).toISOString()).toBe(events[0]!.at);
    items.forEach((item, i) => {
      const e = events[i]!;
      expect(item.guid).toBe(atomId(e.id));
      expect(new Date(item.date!).toISOString()).toBe(e.at);
      expect(item.categories).toEqual([e.kind]);
      expect(item.title).toMatch(/[A-Za-z].* — .*[\u0600-\u06FF]/);
      const page = e.asset ? `/assets/${e.asset}/` : "/sources/";
      // Two alternates, one per language (RFC 4287 §4.2.7.2 allows one per type and hreflang).
      expect([`https://feed.test${page}`, `https://feed.test/ar${page}`]).toContain(item.link);
      expect(xml).toContain(`<link rel="alternate" type="text/html" hreflang="en" href="${page}"/>`);
      expect(item.description).toContain('lang="ar"');
    });
    const usd = await parseFeed(await fs.readFile(path.join(out, "api/v1/events/asset/us-dollar.atom"), "utf8"));
    expect(usd.items.map((x) => x.guid)).toEqual(
      events.filter((e) => e.asset === "us-dollar").map((e) => atomId(e.id)),
    );
  });

  test("with the site's address (site.json baseUrl), xml:base resolves the links for any reader", async () => {
    const doc = docs.at(-1)!;
    const feed = published.at(-1)!.feed;
    const names = { asset: (x: string) => feed.assets.find((a) => a.slug === x), source: (x: string) => x };
    const xml = atomFeed(doc, names, "CC BY 4.0", "https://prices.example.org");
    const { meta, items } = await parseFeed(xml, undefined);
    expect(meta.xmlurl).toBe("https://prices.example.org/api/v1/events.atom");
    expect(items[0]!.link).toMatch(/^https:\/\/prices\.example\.org\/(ar\/)?(assets\/[a-z-]+|sources)\/$/);
    expect(items.map((i) => i.guid)).toEqual(doc.events.map((e) => atomId(e.id)));
  });

  test("ids never repeat; the feed's own id, title, author and self link are there", async () => {
    const xml = await fs.readFile(path.join(out, "api/v1/events.atom"), "utf8");
    const ids = [...xml.matchAll(/<id>([^<]+)<\/id>/g)].map((m) => m[1]!);
    expect(new Set(ids).size).toBe(ids.length);
    expect(
      ids.every((id) => /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id)),
    ).toBe(true);
    const { meta } = await parseFeed(xml);
    expect(meta.author).toBe("Price Feed");
    expect(meta.xmlurl).toBe("https://feed.test/api/v1/events.atom");
  });
});

describe("served like the feed", () => {
  const at = (p: string, headers: Record<string, string> = {}) =>
    handle(new Request(`http://feed.test${p}`, { headers }), {
      ...depsFor(out),
      now: () => Date.parse(HOURS.at(-1)!.at),
    });
  test.each([
    "/api/v1/events.json",
    "/api/v1/events.atom",
    "/api/v1/events/asset/us-dollar.json",
    "/api/v1/events/asset/gold-24k.atom",
  ])("%s: the manifest's strong ETag, then 304 on If-None-Match", async (p) => {
    const m = await read<Manifest>(out, "_manifest.json");
    const entry = m.files[p.slice(1)]!;
    const res = await at(p);
    expect(res.status).toBe(200);
    expect(res.headers.get("etag")).toBe(entry.etag);
    expect(res.headers.get("content-type")).toBe(entry.contentType);
    expect(entry.contentType).toBe(
      p.endsWith(".atom") ? "application/atom+xml; charset=utf-8" : "application/json; charset=utf-8",
    );
    expect(await res.text()).toBe(await fs.readFile(path.join(out, p.slice(1)), "utf8"));
    const again = await at(p, { "If-None-Match": entry.etag });
    expect(again.status).toBe(304);
  });

  test("an unchanged rebuild keeps the events' ETags and Last-Modified", async () => {
    const m = await read<Manifest>(out, "_manifest.json");
    const prev = await read<{ files: Record<string, { etag: string; lastModified: string }> }>(
      data,
      "state/published.json",
    );
    for (const f of ["api/v1/events.json", "api/v1/events.atom"]) {
      expect(m.files[f]!.etag).toBe(prev.files[f]!.etag);
      expect(m.files[f]!.lastModified, f).toBe(new Date(HOURS.at(-2)!.at).toISOString());
    }
  });
});

describe("on the pages: What changed, in both languages", () => {
  const section = async (file: string) => {
    const html = parse(await fs.readFile(path.join(out, file), "utf8"));
    return html.querySelector("section.events")!;
  };
  test.each([
    { file: "index.html", lang: "en" as const, slug: null },
    { file: "ar/index.html", lang: "ar" as const, slug: null },
    { file: "assets/us-dollar/index.html", lang: "en" as const, slug: "us-dollar" },
    { file: "ar/assets/us-dollar/index.html", lang: "ar" as const, slug: "us-dollar" },
  ])("$file: the latest events, newest first, in plain words", async ({ file, lang, slug }) => {
    const s = await section(file);
    expect(s.querySelector("h2")!.text).toBe(
      lang === "ar" ? "ما الذي تغيّر في آخر 30 يومًا" : "What changed in the last 30 days",
    );
    const events = docs.at(-1)!.events.filter((e) => slug === null || e.asset === slug);
    // Hour by hour: the latest EVENTS_ON_PAGES, the others folded under them.
    expect(s.querySelector("h3")!.text).toBe(lang === "ar" ? "ساعة بساعة" : "Hour by hour");
    const items = s.querySelectorAll("h3 + ul > li").map((li) => li.text);
    expect(items).toHaveLength(Math.min(EVENTS_ON_PAGES, events.length));
    expect(s.querySelectorAll("details ul > li")).toHaveLength(Math.max(0, events.length - EVENTS_ON_PAGES));
    const feed = published.at(-1)!.feed;
    const names = {
      asset: (x: string) => feed.assets.find((a) => a.slug === x),
      source: (x: string) => (x === "s1" ? "s1" : undefined),
    };
    items.forEach((text, i) => expect(text).toContain(eventSentence(events[i]!, names, lang)));
    if (lang === "ar") expect(items.join("")).toMatch(/[\u0600-\u06FF]/);
    const atom = slug === null ? "/api/v1/events.atom" : `/api/v1/events/asset/${slug}.atom`;
    // Page links are relative to the page (docs/pages.md, any base path): resolved from the page's path.
    const href = s.querySelector(`a[type="application/atom+xml"]`)!.getAttribute("href")!;
    expect(new URL(href, `https://site.test/${file.replace(/index\.html$/, "")}`).pathname).toBe(atom);
  });

  test("the docs page: a section with the paths, and the rulebook's §12 on how events are made", async () => {
    const docsPage = parse(await fs.readFile(path.join(out, "docs/index.html"), "utf8"));
    const section = docsPage.querySelector("#what-changed")!.nextElementSibling!.text;
    expect(section).toContain("/api/v1/events.json");
    expect(section).toContain("/api/v1/events.atom");
    expect(docsPage.querySelector("#methodology-12-what-changed-events")!.text).toBe("12. What changed (events)");
  });

  test("the words of each kind say who, what and from what to what", () => {
    const all = docs.at(-1)!.events;
    const feed = published.at(-1)!.feed;
    const names = { asset: (x: string) => feed.assets.find((a) => a.slug === x), source: (x: string) => x };
    const say = (kind: string, lang: "en" | "ar") =>
      eventSentence(
        all.findLast((e) => e.kind === kind && e.side !== "buy")!,
        names,
        lang,
      );
    expect(say("best-seller", "en")).toBe(
      "US Dollar, you buy at: the best price is now at Beta Bank (49.50), was at Alpha Bank (49.90)",
    );
    expect(say("best-seller", "ar")).toContain("بنك بيتا");
    expect(say("official-rate", "en")).toBe(
      "US Dollar: the Central Bank of Egypt's official rate is now: you buy at 50.50 · you sell at 50.40; was: you buy at 50.01 · you sell at 49.90",
    );
    expect(say("source", "en")).toBe("s1 started failing: HTTP 503 from the rate page");
    expect(say("source", "ar")).toContain("HTTP 503 from the rate page");
  });
});
