/**
 * The sellers' records as pages (issue 43, item 2), read from the built HTML of the simulated market
 * against the JSON the same build published: `/sellers/<id>/` shows each asset's figures as the
 * seller's record has them (/api/v1/sellers/<id>.json), in both languages; `/sellers/` lists every
 * seller, linked; every seller name in every table links to a page that was built; an asset page's
 * "Who is usually best" names the sellers the records make most often best, with their counts.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { parse, type HTMLElement } from "node-html-parser";
import type { Feed } from "../../src/schema/outputs.js";
import type { Manifest, SourceHealth } from "../../src/schema/documents.js";
import type { SellerRecord, Sellers } from "../../src/schema/sellers.js";
import type { Days } from "../../src/schema/archive.js";
import { pageLanguage } from "../../src/edge/pages.js";
import { html } from "../../src/render/pages/html.js";
import { sellerLink } from "../../src/render/pages/seller-links.js";
import { usuallyBest } from "../../src/render/pages/usually-best.js";
import { sampleSite } from "../helpers/pages.js";

const LANGS = ["en", "ar"] as const;
type Lang = (typeof LANGS)[number];
const at = (lang: Lang, p: string) => (lang === "ar" ? `ar/${p}` : p);
/** The visible text of an element, spaces collapsed. */
const said = (el: HTMLElement | null | undefined) => (el?.text ?? "").replace(/\s+/g, " ").trim();
/** A percentage as the pages print it: two decimals (the record's values are under 1,000). */
const pct = (v: number) => `${v.toFixed(2)}%`;

let out: string;
/** Each seller's licensing or registering body in Arabic, as the registry gives it. */
let arabicBody: Map<string, string>;
let feed: Feed;
let list: Sellers;
let records: Map<string, SellerRecord>;
let manifest: Manifest;
const read = (p: string) => fs.readFile(path.join(out, p), "utf8");
const page = async (p: string) => parse(await read(p));

beforeAll(async () => {
  const site = await sampleSite();
  out = site.out;
  feed = site.feed;
  list = JSON.parse(await read("api/v1/sellers.json")) as Sellers;
  const registry = JSON.parse(await fs.readFile(path.join(site.data, "sellers.json"), "utf8")) as Array<{
    id: string;
    licensedByAr?: string;
  }>;
  arabicBody = new Map(registry.map((r) => [r.id, r.licensedByAr ?? ""]));
  manifest = JSON.parse(await read("_manifest.json")) as Manifest;
  records = new Map(
    await Promise.all(
      list.sellers.map(
        async (s) => [s.id, JSON.parse(await read(`api/v1/sellers/${s.id}.json`)) as SellerRecord] as const,
      ),
    ),
  );
}, 120_000);

/** Where a link of a page's file leads: its site path, without the fragment. */
const target = (file: string, href: string) => new URL(href, `https://site.test/${file}`).pathname;
/** The file a site path is served from, when the build wrote one. */
const built = (p: string) => {
  const file = p.endsWith("/") ? `${p.slice(1)}index.html` : p.slice(1);
  return Object.hasOwn(manifest.files, file) ? file : null;
};

describe("a seller's page shows its record as published", () => {
  test("every listed seller has a page in each language, with its names and who licenses or registers it", async () => {
    expect(list.sellers.length).toBeGreaterThan(5);
    const health = JSON.parse(await read("api/v1/sources.json")) as SourceHealth;
    const kinds = new Set(list.sellers.map((s) => s.kind));
    expect(kinds.has("gold-dealer") && kinds.has("bank")).toBe(true);
    for (const s of list.sellers)
      for (const lang of LANGS) {
        const p = await page(at(lang, `sellers/${s.id}/index.html`));
        expect(p.querySelector("html")!.getAttribute("lang")).toBe(lang);
        const h1 = said(p.querySelector("h1"));
        expect(h1).toContain(s.name);
        if (s.nameAr) expect(h1).toContain(s.nameAr);
        const status = said(p.querySelector("p.status"));
        // The body's Arabic name on the Arabic page, as the registry gives it (licensedByAr: issue 53).
        expect(status).toContain(lang === "ar" ? arabicBody.get(s.id)! : s.licensedBy);
        const verified = health.sellers.find((e) => e.id === s.id)!.verified;
        const words = {
          en: { "gold-dealer": "registration not verified", other: "licence not verified", by: "Registered with" },
          ar: { "gold-dealer": "التسجيل لم يُتحقَّق منه", other: "الترخيص لم يُتحقَّق منه", by: "مقيّدة لدى" },
        }[lang];
        if (verified === null) expect(status).toContain(words[s.kind === "gold-dealer" ? "gold-dealer" : "other"]);
        else expect(status).toContain(verified.where);
        if (s.kind === "gold-dealer") expect(status).toContain(words.by);
      }
  });

  // Each window's column of the record table, as the English page says it and the Arabic page's figures.
  const EXPECTED: Record<Lang, (w: SellerRecord["assets"][number]["short"]) => string[]> = {
    en: (w) => [
      `${w.daysQuoted} of ${w.days}`,
      `on ${w.daysBest.sell} of the ${w.daysQuoted} day${w.daysQuoted === 1 ? "" : "s"} it quoted`,
      `on ${w.daysBest.buy} of the ${w.daysQuoted} day${w.daysQuoted === 1 ? "" : "s"} it quoted`,
      gapEn("dearer", w.medianGapPct.sell),
      gapEn("less", w.medianGapPct.buy),
      w.medianSpreadPct === null ? "—" : pct(w.medianSpreadPct),
    ],
    ar: (w) => [
      `${w.daysQuoted} من`,
      `في ${w.daysBest.sell} من`,
      `في ${w.daysBest.buy} من`,
      w.medianGapPct.sell === null
        ? "لا سعر"
        : w.medianGapPct.sell === 0
          ? "عادةً هو أفضل سعر"
          : pct(w.medianGapPct.sell),
      w.medianGapPct.buy === null ? "لا سعر" : w.medianGapPct.buy === 0 ? "عادةً هو أفضل سعر" : pct(w.medianGapPct.buy),
      w.medianSpreadPct === null ? "—" : pct(w.medianSpreadPct),
    ],
  };
  const gapEn = (word: string, v: number | null) =>
    v === null
      ? "no price on this side"
      : v === 0
        ? "usually the best price itself"
        : `usually ${pct(v)} ${word} than the best`;

  test.each(LANGS)("in %s, each asset's figures for both windows are the record's", async (lang) => {
    let checked = 0;
    for (const [id, doc] of records) {
      const p = await page(at(lang, `sellers/${id}/index.html`));
      expect(p.querySelectorAll("section.record").length, id).toBe(doc.assets.length);
      for (const r of doc.assets) {
        const section = p.querySelector(`#asset-${r.slug}`)?.closest("section");
        expect(section, `${id} ${r.slug}`).toBeTruthy();
        const rows = section!.querySelectorAll("table.record tbody tr");
        const windows = r.long.days > r.short.days ? [r.short, r.long] : [r.short];
        expect(section!.querySelectorAll("table.record thead th").length).toBe(1 + windows.length);
        windows.forEach((w, i) => {
          const cells = rows.map((row) => said(row.querySelectorAll("td")[i]));
          EXPECTED[lang](w).forEach((want, k) =>
            expect(cells[k], `${id} ${r.slug} ${w.windowDays} row ${k}`).toContain(want),
          );
          checked++;
        });
        // Its latest prices, as its row of today's table has them.
        const latest = said(section!.querySelector("p"));
        if (r.today) {
          const printed = (v: number | null) =>
            v === null
              ? "—"
              : v.toLocaleString("en-GB", { minimumFractionDigits: r.decimals, maximumFractionDigits: r.decimals });
          expect(latest).toContain(printed(r.today.sell));
          expect(latest).toContain(printed(r.today.buy));
        } else expect(latest).toMatch(/No price on|لا سعر لها يوم/);
        // Its name links to the asset's page in the same language.
        const link = section!.querySelector("h2 a")!.getAttribute("href")!;
        expect(target(at(lang, `sellers/${id}/index.html`), link)).toBe(
          `${lang === "ar" ? "/ar" : ""}/assets/${r.slug}/`,
        );
      }
    }
    expect(checked).toBeGreaterThan(list.sellers.length);
  });

  test("the glance says the last 30 days' best in the customer's words: “You buy at” is the record's sell", async () => {
    const doc = [...records.values()].find((d) => d.assets.some((r) => r.short.daysBest.sell > 0))!;
    const r = doc.assets.find((x) => x.short.daysBest.sell > 0)!;
    const p = await page(`sellers/${doc.seller.id}/index.html`);
    const items = p.querySelector(`#asset-${r.slug}`)!.closest("section")!.querySelectorAll("ul li").map(said);
    expect(items[0]).toBe(
      `You buy at: best price to buy from on ${r.short.daysBest.sell} of the ${r.short.daysQuoted} days it quoted, ${gapEn("dearer", r.short.medianGapPct.sell)}.`,
    );
    expect(items[1]).toMatch(/^You sell at: best price to sell to on \d+ of the \d+ days it quoted, /);
  });
});

describe("the list of sellers", () => {
  test.each(LANGS)("in %s: every seller of the JSON, in its order, linked to its page, with its kind", async (lang) => {
    const p = await page(at(lang, "sellers/index.html"));
    const rows = p.querySelectorAll("table.sellers-list tbody tr");
    expect(rows.map((r) => r.getAttribute("id"))).toEqual(list.sellers.map((s) => `seller-${s.id}`));
    const kind = {
      en: { bank: "Bank", "exchange-house": "Exchange house", "gold-dealer": "Gold dealer" },
      ar: { bank: "بنك", "exchange-house": "شركة صرافة", "gold-dealer": "تاجر ذهب" },
    }[lang];
    list.sellers.forEach((s, i) => {
      const href = rows[i]!.querySelector("th a")!.getAttribute("href")!;
      expect(target(at(lang, "sellers/index.html"), href)).toBe(`${lang === "ar" ? "/ar" : ""}/sellers/${s.id}/`);
      expect(said(rows[i]!.querySelector("th .kind"))).toBe(kind[s.kind]);
      expect(said(rows[i]!.querySelectorAll("td")[0])).toMatch(lang === "en" ? /^Quotes \d+ prices?; / : /^تسعّر /);
    });
  });
});

describe("every seller name in every table links to a page that was built", () => {
  test("asset pages (the seller table, the best of each side), the home page, and past days' pages, in both languages", async () => {
    const days = (await read("api/v1/days.json").then((t) => JSON.parse(t) as Days)).days.map((d) => d.date);
    const ids = new Set(list.sellers.map((s) => s.id));
    const files = [
      "index.html",
      ...feed.assets.map((a) => `assets/${a.slug}/index.html`),
      `days/${days.at(-2)}/index.html`,
      `days/${days[0]}/index.html`,
      "sellers/index.html",
      ...list.sellers.map((s) => `sellers/${s.id}/index.html`),
    ].flatMap((f) => LANGS.map((lang) => at(lang, f)));
    let links = 0;
    for (const f of files) {
      const p = await page(f);
      // Every link to a seller's page leads to a page that was built, in the page's language (but
      // the language switch's, to the twin).
      for (const a of p.querySelectorAll("a[href]:not([hreflang])")) {
        const to = target(f, a.getAttribute("href")!);
        if (!/^(\/ar)?\/sellers\//.test(to)) continue;
        expect(built(to), `${f}: ${to}`).not.toBeNull();
        expect(to.startsWith("/ar/"), `${f}: ${to}`).toBe(f.startsWith("ar/"));
        links++;
      }
      // Every seller of a seller table names it by a link.
      const names = [
        ...p.querySelectorAll("table.sellers:not(.probation) tbody th"),
        ...p.querySelectorAll("table.market td .who"),
      ].filter((el) => !/Reference price|سعر مرجعي/.test(said(el)));
      for (const el of names) expect(el.querySelector("a"), `${f}: ${said(el)}`).not.toBeNull();
    }
    expect(links).toBeGreaterThan(500);
    // The asset page's table names today's sellers, each by its own page.
    const usd = feed.assets.find((a) => a.slug === "us-dollar")!;
    const p = await page("assets/us-dollar/index.html");
    for (const r of usd.sellers) {
      expect(ids.has(r.id)).toBe(true);
      const href = p.querySelector(`#seller-${r.id} th a`)!.getAttribute("href")!;
      expect(target("assets/us-dollar/index.html", href)).toBe(`/sellers/${r.id}/`);
    }
  });

  test("an address under /sellers/ with no page is an English page's, under /ar/sellers/ an Arabic one (the 404 page's language)", () => {
    expect(pageLanguage("/sellers/nowhere/", "ar")).toEqual({ lang: "en", negotiated: false });
    expect(pageLanguage("/sellers", "ar")).toEqual({ lang: "en", negotiated: false });
    expect(pageLanguage("/ar/sellers/nowhere/", "en")).toEqual({ lang: "ar", negotiated: false });
  });
});

describe("an asset page's Who is usually best", () => {
  test.each(LANGS)(
    "in %s: each side's top three of the last 30 trading days, as the records count them, linked",
    async (lang) => {
      let lists = 0;
      for (const a of feed.assets) {
        const file = at(lang, `assets/${a.slug}/index.html`);
        const section = (await page(file)).querySelector("#usually-h")?.closest("section");
        if (a.market === "reference") {
          expect(section, a.slug).toBeFalsy();
          continue;
        }
        const of = [...records.values()].flatMap((d) => {
          const r = d.assets.find((x) => x.id === a.id);
          return r ? [{ s: d.seller, r }] : [];
        });
        const days = of[0]!.r.short.days;
        const headings = section!.querySelectorAll("h3");
        (["sell", "buy"] as const).forEach((side, k) => {
          // The ranking worked out here: most days best first, then the smaller usual gap, then the list's order.
          const want = of
            .filter((x) => x.r.short.daysBest[side] > 0)
            .map((x, i) => ({ ...x, i }))
            .sort(
              (x, y) =>
                y.r.short.daysBest[side] - x.r.short.daysBest[side] ||
                (x.r.short.medianGapPct[side] ?? Infinity) - (y.r.short.medianGapPct[side] ?? Infinity) ||
                x.i - y.i,
            )
            .slice(0, 3);
          const ol = headings[k]!.nextElementSibling!;
          const items = ol.tagName === "OL" ? ol.querySelectorAll("li") : [];
          expect(items.length, `${a.slug} ${side}`).toBe(want.length);
          want.forEach((x, i) => {
            const name = lang === "ar" && x.s.nameAr ? x.s.nameAr : x.s.name;
            const n = x.r.short.daysBest[side];
            expect(said(items[i]), `${a.slug} ${side} ${i}`).toBe(
              lang === "en"
                ? `${name}: best on ${n} of ${days} trading day${days === 1 ? "" : "s"}`
                : `${name}: الأفضل في ${n} من ${days} يوم تداول`,
            );
            expect(target(file, items[i]!.querySelector("a")!.getAttribute("href")!)).toBe(
              `${lang === "ar" ? "/ar" : ""}/sellers/${x.s.id}/`,
            );
            lists++;
          });
          // No seller left out had more days best than the last one shown.
          const shown = new Set(want.map((x) => x.s.id));
          const last = want.at(-1)?.r.short.daysBest[side] ?? 0;
          for (const x of of) if (!shown.has(x.s.id)) expect(x.r.short.daysBest[side]).toBeLessThanOrEqual(last);
        });
      }
      expect(lists).toBeGreaterThan(feed.assets.length);
    },
  );
});

describe("the pieces, by hand", () => {
  // A name links only to a seller with a page: a name a source on probation read that the list does
  // not know stays text. From a page whose links are already relative (a day's closes), relative.
  test.each([
    ["known, a site path", "cairo-union", "en", undefined, '<a href="/sellers/cairo-union/">Cairo Union Bank</a>'],
    ["known, Arabic", "cairo-union", "ar", undefined, '<a href="/ar/sellers/cairo-union/">Cairo Union Bank</a>'],
    [
      "known, from a day's page",
      "cairo-union",
      "ar",
      "/ar/days/2026-11-18/",
      '<a href="../../../ar/sellers/cairo-union/">Cairo Union Bank</a>',
    ],
    ["unknown", "nobody", "en", undefined, "Cairo Union Bank"],
    ["no id", null, "en", undefined, "Cairo Union Bank"],
  ] as const)("sellerLink: %s", (_, id, lang, from, want) => {
    const name = html`Cairo Union Bank`;
    expect(String(sellerLink(new Set(["cairo-union"]), id, name, lang, from))).toBe(want);
  });

  // Three sellers best as often as each other: the smaller usual gap first, then the list's order; a
  // seller never best is not listed, and no more than three are.
  const entry = (id: string, best: number, gap: number | null) =>
    ({
      seller: { id, name: id, nameAr: null, kind: "bank", licensedBy: "Central Bank of Egypt" },
      record: { short: { daysBest: { sell: best, buy: 0 }, medianGapPct: { sell: gap, buy: null } } },
    }) as unknown as Parameters<typeof usuallyBest>[0][number];
  test.each([
    ["most days first", [entry("a", 2, 0.1), entry("b", 9, 0.5), entry("c", 5, 0)], ["b", "c", "a"]],
    ["a tie: the nearer the best first", [entry("a", 4, 0.3), entry("b", 4, 0.1)], ["b", "a"]],
    ["a tie on both: the list's order", [entry("a", 4, 0.1), entry("b", 4, 0.1)], ["a", "b"]],
    ["a gap of none counts last", [entry("a", 4, null), entry("b", 4, 0.9)], ["b", "a"]],
    ["never best: left out", [entry("a", 0, 0.1), entry("b", 1, 0.2)], ["b"]],
    ["three at most", [entry("a", 1, 0), entry("b", 2, 0), entry("c", 3, 0), entry("d", 4, 0)], ["d", "c", "b"]],
  ] as const)("usuallyBest: %s", (_, entries, want) => {
    expect(usuallyBest(entries, "sell").map((e) => e.seller.id)).toEqual(want);
  });
});
