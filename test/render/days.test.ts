/**
 * The pages' past, read from built HTML (issue 37, items 1–5): What changed over the last 30 days
 * from the archive's closes on any build, a build from `data/` alone included; a page for any past
 * day, and the hourly build keeping the closed days' pages; charts that mean what they show; moves
 * coloured by what they mean for the reader; Arabic counts, duals and signs; no developer words.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { parse, type HTMLElement } from "node-html-parser";
import { runBuild } from "../../src/jobs/build.js";
import { addDays } from "../../src/core/cairo.js";
import { changeAmount, shownDirection, changeMark, goodForYou } from "../../src/render/pages/change.js";
import {
  AR_DAYS,
  AR_REPORTING_SOURCES,
  AR_SELLERS,
  AR_SOURCES,
  AR_TIMES,
  arCount,
  fullDate,
  longDate,
  price,
  shortDate,
  weekdayDate,
} from "../../src/render/pages/format.js";
import { recentChanges, RECENT_DAYS } from "../../src/render/pages/recent.js";
import { PERIODS, weeklyCloses } from "../../src/render/pages/periods.js";
import { STYLE } from "../../src/render/pages/style.js";
import type { Feed } from "../../src/schema/outputs.js";
import type { ArchiveEntry, Day, Days, History } from "../../src/schema/archive.js";
import type { Manifest, BuildReport } from "../../src/schema/documents.js";
import type { Sellers } from "../../src/schema/sellers.js";
import { tempDir } from "../helpers/dataset.js";
import { SAMPLE_NOW, sampleSite } from "../helpers/pages.js";

/** The visible text of an element, spaces collapsed. */
const said = (el: HTMLElement | null | undefined) => (el?.text ?? "").replace(/\s+/g, " ").trim();
const LANGS = ["en", "ar"] as const;
const at = (lang: "en" | "ar", p: string) => (lang === "ar" ? `ar/${p}` : p);
/** Where a link of a page's file leads: its site path (and fragment). */
const target = (file: string, href: string) => {
  const u = new URL(href, `https://site.test/${file}`);
  return `${u.pathname}${u.hash}`;
};
/** The page's own words in English or Arabic for how often the best changed hands. */
const times = (n: number, lang: "en" | "ar") =>
  lang === "ar" ? arCount(n, AR_TIMES, "genitive") : n === 1 ? "once" : n === 2 ? "twice" : `${n} times`;

interface Site {
  out: string;
  feed: Feed;
  read(p: string): Promise<string>;
  html(p: string): Promise<HTMLElement>;
  json<T>(p: string): Promise<T>;
}
async function siteAt(out: string): Promise<Site> {
  const read = (p: string) => fs.readFile(path.join(out, p), "utf8");
  const json = async <T>(p: string) => JSON.parse(await read(p)) as T;
  return { out, feed: await json<Feed>("api/v1/feed.json"), read, html: async (p) => parse(await read(p)), json };
}

/** The best changed hands between consecutive entries of the window (and the close before it). */
function handsChanged(entries: readonly ArchiveEntry[], today: string, side: "sell" | "buy"): number {
  const from = addDays(today, -(RECENT_DAYS - 1));
  const first = entries.findIndex((e) => e.date >= from);
  if (first < 0) return 0;
  const span = entries.slice(Math.max(0, first - 1)).filter((e) => e.date <= today);
  const id = (e: ArchiveEntry) => (side === "sell" ? e.bestSell : e.bestBuy)?.id ?? null;
  let n = 0;
  for (let i = 1; i < span.length; i++) if (id(span[i]!) !== id(span[i - 1]!)) n++;
  return n;
}

let sample: Site & { data: string };
let committed: Site;
beforeAll(async () => {
  const s = await sampleSite();
  sample = { ...(await siteAt(s.out)), data: s.data };
  // The committed data/, built as `npm run build` does: no state of its own (no events), at its last evening.
  const out = path.join(await tempDir("pf-committed-"), "public");
  await runBuild({
    dataDir: path.resolve("data"),
    outDir: out,
    nowMs: Date.parse("2026-11-19T19:30:00Z"),
    saveState: false,
    force: true,
  });
  committed = await siteAt(out);
}, 120_000);

describe("What changed is always true (item 1)", () => {
  test("a build from data/ alone lists the dollar's changes from the closes, and never says nothing changed", async () => {
    const today = "2026-11-19";
    const history = await committed.json<History>("api/v1/history/us-dollar.json");
    const n = { sell: handsChanged(history.entries, today, "sell"), buy: handsChanged(history.entries, today, "buy") };
    // What the issue found in the archive: the dollar's best changed hands 8 times in these 30 days.
    expect(n.sell + n.buy).toBe(8);
    for (const lang of LANGS) {
      const page = await committed.html(at(lang, "assets/us-dollar/index.html"));
      const section = said(page.querySelector("section.events"));
      expect(section).not.toMatch(/Nothing changed|لم يتغير شيء/);
      for (const side of ["sell", "buy"] as const)
        if (n[side] > 0)
          expect(section, `${lang} ${side}`).toContain(
            lang === "ar" ? `من جهة إلى أخرى ${times(n[side], "ar")}` : `changed hands ${times(n[side], "en")}`,
          );
      // No hourly events in a build from data/ alone: no list, and no claim about them.
      expect(page.querySelector("section.events h3")).toBeNull();
      const home = await committed.html(at(lang, "index.html"));
      const row = home
        .querySelectorAll("section.events tr")
        .find((tr) => tr.querySelector("a")?.getAttribute("href")?.includes("assets/us-dollar/"));
      expect(said(row)).toContain(
        lang === "ar" ? `انتقل أفضل سعر ${times(n.sell, "ar")}` : `best changed hands ${times(n.sell, "en")}`,
      );
      expect(said(home.querySelector("section.events"))).not.toMatch(/Nothing changed|لم يتغير شيء/);
    }
  });

  test("each asset page's day-by-day table is the history's closes of the window, newest first, with each move and each change of hands", async () => {
    const today = new Date(SAMPLE_NOW).toISOString().slice(0, 10);
    const from = addDays(today, -(RECENT_DAYS - 1));
    for (const a of sample.feed.assets) {
      const entries = (await sample.json<History>(`api/v1/history/${a.slug}.json`)).entries;
      const within = entries.filter((e) => e.date >= from && e.date <= today);
      const before = entries.filter((e) => e.date < from).at(-1) ?? null;
      for (const lang of LANGS) {
        const page = await sample.html(at(lang, `assets/${a.slug}/index.html`));
        const rows = page.querySelectorAll("section.events table.changes tbody tr");
        expect(rows.length, `${lang} ${a.slug}`).toBe(within.length);
        [...within].reverse().forEach((e, i) => {
          const row = rows[i]!;
          const where = `${lang} ${a.slug} ${e.date}`;
          // A past day links to its page at the asset's row; today has no page yet.
          const link = row.querySelector("th a");
          if (e.date < today) {
            expect(link?.getAttribute("href"), where).toMatch(new RegExp(`days/${e.date}/#${a.slug}$`));
            expect(said(link), where).toBe(weekdayDate(`${e.date}T12:00:00Z`, lang));
          } else expect(link, where).toBeNull();
          const prev = entries[entries.indexOf(e) - 1] ?? null;
          const cells = row.querySelectorAll("td");
          const sides = a.market === "reference" ? (["sell"] as const) : (["sell", "buy"] as const);
          sides.forEach((side, k) => {
            const cell = cells[k]!;
            const value = (x: ArchiveEntry) =>
              a.market === "reference" ? (x.global ?? x.sellLo) : side === "sell" ? x.sellLo : x.buyHi;
            expect(said(cell.querySelector(".v")), where).toBe(price(value(e), a.decimals, lang));
            const was = prev ? value(prev) : null;
            const now = value(e);
            if (was !== null && now !== null && prev) {
              const move = Math.round((now - was) * 10 ** a.decimals) / 10 ** a.decimals;
              const mark = said(cell.querySelector(".chg"));
              // A move that rounds to nothing in its unit reads "unchanged", never "+0 piastres" (issue 53).
              if (shownDirection(move, a.decimals) === "flat")
                expect(mark.replace("\u00AD", ""), where).toContain(lang === "ar" ? "دون تغيير" : "unchanged");
              else expect(mark, where).toContain(`${move > 0 ? "+" : "−"}${changeAmount(move, a.decimals, lang)}`);
            }
            if (a.market !== "reference" && prev) {
              const id = (x: ArchiveEntry) => (side === "sell" ? x.bestSell : x.bestBuy)?.id ?? null;
              const isNew = said(cell.querySelector(".who b")) !== "";
              expect(isNew, `${where} ${side} new`).toBe(id(e) !== id(prev) && id(e) !== null);
            }
          });
        });
        // The sentences begin where the window's first comparison does: the close before it.
        if (before && a.market !== "reference" && within.length > 0 && before.sellLo !== null)
          expect(said(page.querySelector("section.events")), `${lang} ${a.slug}`).toContain(
            `${price(before.sellLo, a.decimals, lang)} ${lang === "ar" ? "يوم" : "on"} ${longDate(before.date, lang)}`,
          );
      }
    }
  });

  test("the window's changes, day by day: the close before it, each change of hands, one day is nothing to compare yet", () => {
    const seller = (id: string) => ({ id, seller: id, sellerAr: null });
    const entry = (date: string, sellLo: number, buyHi: number, s: string, b: string, bench: number | null = null) =>
      ({
        date,
        sellLo,
        sellHi: sellLo + 1,
        buyLo: buyHi - 1,
        buyHi,
        bench,
        bestSell: seller(s),
        bestBuy: seller(b),
        official: null,
        global: null,
        sellerCount: 2,
      }) as ArchiveEntry;
    const a = { market: "competitive" as const, decimals: 2 };
    const r = recentChanges(
      a,
      [
        entry("2026-10-01", 50, 49, "x", "y", 49.5), // long before: not read
        entry("2026-10-20", 50, 49, "x", "y", 49.5), // the close before the window
        entry("2026-10-21", 50.1, 49, "z", "y"),
        entry("2026-11-19", 49.9, 49.2, "x", "y", 49.6),
        entry("2026-11-20", 48, 47, "x", "y"), // after the build's day: not read
      ],
      "2026-11-19",
    );
    expect(r.from).toBe("2026-10-21");
    expect(r.days.map((d) => d.date)).toEqual(["2026-10-21", "2026-11-19"]);
    expect(r.days.map((d) => [d.sell.move, d.sell.changed, d.sell.was?.id ?? null])).toEqual([
      [0.1, true, "x"],
      [-0.2, true, "z"],
    ]);
    expect(r.sell).toMatchObject({
      from: { date: "2026-10-20", value: 50 },
      to: { date: "2026-11-19", value: 49.9 },
      move: -0.1,
      sellerChanges: 2,
    });
    expect(r.sell.sellers.map((s) => s.id)).toEqual(["x", "z"]);
    expect(r.buy).toMatchObject({ move: 0.2, sellerChanges: 0 });
    expect(r.official).toEqual({
      from: { date: "2026-10-20", value: 49.5 },
      to: { date: "2026-11-19", value: 49.6 },
      move: 0.1,
    });
    // One day and nothing before it: nothing to compare with, which is not "no change".
    const one = recentChanges(a, [entry("2026-11-19", 50, 49, "x", "y")], "2026-11-19");
    expect(one.sell).toMatchObject({ move: null, sellerChanges: 0 });
    expect(one.days[0]!.sell).toMatchObject({ move: null, changed: false });
  });
});

describe("any past day (item 2)", () => {
  test("every past day of the archive has its page in both languages: each asset's best per side and who, the references, every seller's close, the days around it", async () => {
    const today = new Date(SAMPLE_NOW).toISOString().slice(0, 10);
    const all = (await sample.json<Days>("api/v1/days.json")).days.map((d) => d.date);
    const days = all.filter((d) => d < today);
    expect(all.at(-1)).toBe(today);
    // Today is the home page's: not a past day yet.
    for (const lang of LANGS)
      await expect(fs.access(path.join(sample.out, at(lang, `days/${today}/index.html`)))).rejects.toThrow();
    expect(days.length).toBeGreaterThan(60);
    // Every day has its two pages; a few are read whole (the first, one in the middle, the last two).
    for (const date of days)
      for (const lang of LANGS) await fs.access(path.join(sample.out, at(lang, `days/${date}/index.html`)));
    for (const i of [0, 40, days.length - 2, days.length - 1]) {
      const date = days[i]!;
      const day = await sample.json<Day>(`api/v1/days/${date}.json`);
      for (const lang of LANGS) {
        const file = at(lang, `days/${date}/index.html`);
        const raw = await sample.read(file);
        // No script but the web app's, which every page has (src/render/pages/app.ts).
        expect(
          [...raw.matchAll(/<script[^>]*>/g)].map((m) => m[0]),
          file,
        ).toEqual([`<script src="${"../".repeat(file.split("/").length - 1)}offline.js" defer>`]);
        const page = parse(raw);
        expect(said(page.querySelector("h1")), file).toContain(longDate(date, lang));
        const nav = page.querySelector("nav.days-nav")!;
        const rel = (r: string) => {
          const href = nav.querySelector(`a[rel="${r}"]`)?.getAttribute("href");
          return href ? target(file, href) : null;
        };
        const pageOf = (d: string | undefined) => (d ? `${lang === "ar" ? "/ar" : ""}/days/${d}/` : null);
        expect(rel("prev"), file).toBe(pageOf(days[i - 1]));
        // The latest past day's day after is today: the home page, its link naming the date.
        expect(rel("next"), file).toBe(pageOf(days[i + 1]) ?? (lang === "ar" ? "/ar/" : "/"));
        if (i === days.length - 1)
          expect(said(nav.querySelector('a[rel="next"]')), file).toBe(
            lang === "ar"
              ? `اليوم التالي: ${longDate(today, "ar")} (اليوم)`
              : `The day after: ${longDate(today, "en")} (today)`,
          );
        for (const a of day.assets) {
          const where = `${file} ${a.slug}`;
          const row = page.querySelector(`tr#${a.slug}`)!;
          expect(row, where).not.toBeNull();
          const cells = row.querySelectorAll("td");
          const p = (v: number | null) => price(v, a.decimals, lang);
          if (a.market === "reference")
            expect(said(cells[0]!.querySelector(".v")), where).toBe(p(a.entry.global ?? a.entry.sellLo));
          else {
            expect(said(cells[0]!.querySelector(".v")), where).toBe(p(a.entry.sellLo));
            expect(said(cells[1]!.querySelector(".v")), where).toBe(p(a.entry.buyHi));
            const name = (s: { seller: string; sellerAr: string | null } | null) =>
              s ? (lang === "ar" ? (s.sellerAr ?? s.seller) : s.seller) : "";
            expect(said(cells[0]!.querySelector(".who")), where).toBe(name(a.entry.bestSell));
            expect(said(cells[1]!.querySelector(".who")), where).toBe(name(a.entry.bestBuy));
          }
          const head = said(row.querySelector("th"));
          if (a.entry.official) expect(head, where).toContain(p(a.entry.official.sell));
          if (a.entry.global !== null) expect(head, where).toContain(p(a.entry.global));
          const table = page.querySelectorAll(`details#sellers-${a.slug} tbody tr`);
          expect(table.length, where).toBe(a.sellers.length);
          a.sellers.forEach((s, k) => {
            const tds = table[k]!.querySelectorAll("td");
            expect([said(tds[0]!).replace(/★.*/, "").trim(), said(tds[1]!).replace(/★.*/, "").trim()], where).toEqual([
              p(s.sell),
              p(s.buy),
            ]);
          });
          expect(page.querySelectorAll(`details#sellers-${a.slug} td.best`).length, where).toBe(
            a.sellers.length ? (a.entry.bestSell ? 1 : 0) + (a.entry.bestBuy ? 1 : 0) : 0,
          );
        }
      }
    }
    // The list of every day links each of them.
    for (const lang of LANGS) {
      const file = at(lang, "days/index.html");
      const list = await sample.html(file);
      const linked = list.querySelectorAll("ul.days a").map((x) => target(file, x.getAttribute("href")!));
      expect(linked).toEqual([...days].reverse().map((d) => `${lang === "ar" ? "/ar" : ""}/days/${d}/`));
    }
  });

  test("reached from every asset page (prices on another day) and from the home page", async () => {
    const days = (await sample.json<Days>("api/v1/days.json")).days.map((d) => d.date);
    for (const lang of LANGS) {
      const prefix = lang === "ar" ? "/ar" : "";
      const linksOf = async (file: string) =>
        (await sample.html(file)).querySelectorAll("a").map((x) => target(file, x.getAttribute("href") ?? ""));
      for (const a of sample.feed.assets) {
        const file = at(lang, `assets/${a.slug}/index.html`);
        const links = await linksOf(file);
        expect(links, file).toContain(`${prefix}/days/`);
        const earlier = days.filter((d) => d < a.asOf).at(-1)!;
        expect(links, file).toContain(`${prefix}/days/${earlier}/#${a.slug}`);
      }
      const links = await linksOf(at(lang, "index.html"));
      expect(links).toContain(`${prefix}/days/`);
      expect(links).toContain(`${prefix}/days/${days.at(-2)}/`); // the latest past day (the last is today)
    }
  });

  test("the JSON API of a build is not touched by the pages: the same bytes with and without them", async () => {
    const out = path.join(await tempDir("pf-no-pages-"), "public");
    await runBuild({
      dataDir: path.resolve("data"),
      outDir: out,
      nowMs: Date.parse("2026-11-19T19:30:00Z"),
      saveState: false,
      force: true,
      renderers: [],
    });
    const m = JSON.parse(await fs.readFile(path.join(out, "_manifest.json"), "utf8")) as Manifest;
    for (const f of Object.keys(m.files).filter(
      (x) => x.startsWith("api/v1/") && x.endsWith(".json") && !x.includes("openapi"),
    ))
      expect(await committed.read(f), f).toBe(await fs.readFile(path.join(out, f), "utf8"));
  });
});

describe("charts that mean what they show (item 3)", () => {
  test("the year is drawn from each week's close, so a seller's two sides never cross; each chart labels its first and last date", async () => {
    for (const a of sample.feed.assets) {
      const history = (await sample.json<History>(`api/v1/history/${a.slug}.json`)).entries;
      const page = await sample.html(`assets/${a.slug}/index.html`);
      const year = page.querySelector("details#chart-year");
      if (!year) continue;
      const rows = year.querySelectorAll("tbody tr").map((tr) => tr.querySelectorAll("td").map((td) => said(td)));
      const num = (s: string) => Number(s.replace(/,/g, ""));
      for (const [sell, buy] of rows)
        if (a.market !== "reference" && sell !== "—" && buy !== "—")
          expect(num(sell!), `${a.slug} year ${sell} ${buy}`).toBeGreaterThanOrEqual(num(buy!));
      // Each row is the last trading day of its week, as the history has it.
      const lastOfWeek = history.filter((e, i) => {
        const week = (d: string) => Math.ceil((Date.parse(d) - Date.parse("2026-01-01")) / 86_400_000 / 7);
        return i === history.length - 1 || week(history[i + 1]!.date) !== week(e.date);
      });
      const sides = (e: ArchiveEntry) => [
        price(e.sellLo, a.decimals, "en"),
        price(a.market === "reference" ? e.sellHi : e.buyHi, a.decimals, "en"),
      ];
      expect(
        rows.map((r) => r.slice(0, 2)),
        a.slug,
      ).toEqual(
        lastOfWeek
          .filter((e) => e.date <= a.asOf)
          .reverse()
          .map(sides)
          .slice(0, rows.length),
      );
      // Each drawing labels the first and the last day it plots: a year's first and last weekly
      // close, a shorter period's first and last day.
      for (const period of PERIODS) {
        const d = page.querySelector(`details#chart-${period.id}`);
        if (!d) continue;
        const from = addDays(a.asOf, -(period.days - 1));
        const days = history.filter((e) => e.date >= from && e.date <= a.asOf);
        const plotted = period.days > 100 ? weeklyCloses(days) : days;
        for (const svg of d.querySelectorAll("svg")) {
          const labels = svg.querySelectorAll("text").map((t) => said(t));
          expect(labels, `${a.slug} ${period.id}`).toContain(shortDate(plotted[0]!.date, "en"));
          expect(labels, `${a.slug} ${period.id}`).toContain(shortDate(plotted.at(-1)!.date, "en"));
        }
      }
    }
  });

  test("a period the data does not cover says the span it shows", async () => {
    const usd = sample.feed.assets.find((a) => a.slug === "us-dollar")!;
    const first = (await sample.json<History>("api/v1/history/us-dollar.json")).entries[0]!.date;
    const days = Math.round((Date.parse(usd.asOf) - Date.parse(first)) / 86_400_000) + 1;
    const en = await sample.html("assets/us-dollar/index.html");
    expect(said(en.querySelector("#chart-year-h"))).toBe(`Year: only since ${fullDate(first, "en")} (${days} days)`);
    expect(said(en.querySelector("#chart-month-h"))).toBe("Month");
    const ar = await sample.html("ar/assets/us-dollar/index.html");
    expect(said(ar.querySelector("#chart-year-h"))).toBe(
      `سنة: منذ ${fullDate(first, "ar")} فقط (${arCount(days, AR_DAYS, "genitive")})`,
    );
  });
});

describe("colour by meaning (item 4)", () => {
  test("a move good for the reader is `good` on either side, a bad one `bad`; the arrow still shows the direction", () => {
    expect(goodForYou(-0.1, "sell")).toBe(true); // cheaper to buy
    expect(goodForYou(0.1, "sell")).toBe(false);
    expect(goodForYou(0.1, "buy")).toBe(true); // more when you sell
    expect(goodForYou(-0.1, "buy")).toBe(false);
    expect(goodForYou(0, "buy")).toBeNull();
    expect(goodForYou(0.1, undefined)).toBeNull();
    expect(changeMark(-0.1, 2, "en", { side: "sell" }).text).toMatch(
      /class="chg down good"><span aria-hidden="true">▼/,
    );
    expect(changeMark(0.1, 2, "en", { side: "sell" }).text).toMatch(/class="chg up bad"><span aria-hidden="true">▲/);
    expect(changeMark(0.1, 2, "en", { side: "buy" }).text).toMatch(/class="chg up good"><span aria-hidden="true">▲/);
    expect(changeMark(-0.1, 2, "en", { side: "buy" }).text).toMatch(/class="chg down bad"><span aria-hidden="true">▼/);
    // Both palettes give the two meanings their own colour.
    const [light, dark] = STYLE.text.split("@media (prefers-color-scheme:dark)");
    for (const palette of [light!, dark!]) {
      const good = /--good:(#[0-9a-f]{6})/.exec(palette)?.[1];
      const bad = /--bad:(#[0-9a-f]{6})/.exec(palette)?.[1];
      expect(good).toBeDefined();
      expect(bad).toBeDefined();
      expect(good).not.toBe(bad);
    }
    expect(STYLE.text).toContain(".chg.good{color:var(--good)}.chg.bad{color:var(--bad)}");
  });

  test("on the pages each mark's meaning follows its side, and a line says what the colours mean", async () => {
    for (const lang of LANGS) {
      for (const file of [
        at(lang, "index.html"),
        at(lang, "assets/us-dollar/index.html"),
        at(lang, "assets/gold-21k/index.html"),
      ]) {
        const page = await sample.html(file);
        expect(said(page), file).toMatch(lang === "ar" ? /بالأخضر إذا كان أفضل لك/ : /green when it is better for you/);
        // Every table of prices: the first price cell is the side you buy at, the second the side
        // you sell at; a reference price's one cell (colspan) has no side, so no meaning.
        let marks = 0;
        for (const tr of page.querySelectorAll(
          "table.market tbody tr, table.changes tbody tr, table.sellers tbody tr",
        )) {
          const cells = tr.querySelectorAll("td.n");
          for (const td of cells) {
            const chg = td.querySelector(".chg");
            if (!chg) continue;
            marks++;
            const side = cells.indexOf(td) === 0 ? "sell" : "buy";
            const cls = chg.getAttribute("class")!;
            const dir = cls.includes(" up") ? 1 : cls.includes(" down") ? -1 : 0;
            const meaning = td.getAttribute("colspan") || dir === 0 ? "" : goodForYou(dir, side) ? " good" : " bad";
            expect(cls, `${file} ${said(tr.querySelector("th"))}`).toBe(
              dir === 0 ? "chg flat" : `chg ${dir > 0 ? "up" : "down"}${meaning}`,
            );
          }
        }
        expect(marks, file).toBeGreaterThan(10);
      }
    }
  });
});

describe("Arabic, exactly (item 5)", () => {
  test("counts: the dual by its case, three to ten in words with the noun's gender, then digits", () => {
    expect(arCount(2, AR_REPORTING_SOURCES, "nominative")).toBe("مصدران");
    expect(arCount(2, AR_REPORTING_SOURCES, "genitive")).toBe("مصدرين");
    expect(arCount(2, AR_SOURCES, "genitive")).toBe("مصدرين مستقلين");
    expect(arCount(3, AR_REPORTING_SOURCES, "nominative")).toBe("ثلاثة مصادر");
    expect(arCount(3, AR_SELLERS, "genitive")).toBe("ثلاث جهات");
    expect(arCount(8, AR_TIMES, "genitive")).toBe("ثماني مرات");
    expect(arCount(10, AR_DAYS, "genitive")).toBe("عشرة أيام");
    expect(arCount(11, AR_DAYS, "genitive")).toBe("11 يومًا");
    expect(arCount(30, AR_DAYS, "genitive")).toBe("30 يومًا");
    expect(arCount(100, AR_DAYS, "genitive")).toBe("100 يوم");
    expect(arCount(103, AR_DAYS, "genitive")).toBe("103 أيام");
    expect(arCount(7, AR_DAYS, "genitive", false)).toBe("7 أيام");
  });

  test("a move's sign comes before its digits: the signed figure is one left-to-right isolate, its unit in words after it", () => {
    expect(changeMark(-0.33, 2, "ar", { side: "sell" }).text).toContain('<bdi dir="ltr">−33</bdi> قرشًا');
    expect(changeMark(15, 0, "ar", { side: "buy" }).text).toContain('<bdi dir="ltr">+15</bdi> جنيهًا');
    expect(changeMark(1.25, 2, "ar").text).toContain('<bdi dir="ltr">+1.25</bdi> جنيه');
  });

  test("«رصدها» takes the nominative: مصدران, never مصدرين", async () => {
    const ar = await sample.read("ar/assets/us-dollar/index.html");
    expect(ar).not.toContain("رصدها مصدرين");
    const usd = sample.feed.assets.find((a) => a.slug === "us-dollar")!;
    for (const s of usd.sellers)
      expect(ar, s.seller).toContain(`رصدها ${arCount(s.sources.length, AR_REPORTING_SOURCES, "nominative")}`);
  });

  test("no developer words on the public pages, in either language", async () => {
    const JARGON = [
      /\bbuild/i,
      /\bbuilt\b/i,
      /\bstate\b/i,
      /\brecorded\b/i,
      /\bingest/i,
      /\bnull\b/,
      /البناء/,
      /سُجّل|سجّل|مسجّل/,
    ];
    const days = (await sample.json<Days>("api/v1/days.json")).days.map((d) => d.date);
    const files = [
      "index.html",
      "sources/index.html",
      "days/index.html",
      `days/${days.at(-2)}/index.html`, // the latest past day (the last is today)
      `days/${days[0]}/index.html`,
      ...sample.feed.assets.map((a) => `assets/${a.slug}/index.html`),
      "sellers/index.html",
      ...(await sample.json<Sellers>("api/v1/sellers.json")).sellers.map((s) => `sellers/${s.id}/index.html`),
    ].flatMap((f) => LANGS.map((lang) => at(lang, f)));
    for (const f of files) {
      const page = await sample.html(f);
      page.querySelectorAll("style").forEach((s) => s.remove());
      const shown = [
        said(page),
        ...page.querySelectorAll("[content]").map((m) => m.getAttribute("content") ?? ""),
      ].join(" ");
      for (const j of JARGON) expect(shown, `${f} ${j}`).not.toMatch(j);
    }
  });
});

// Last: it adds an hour to the sample site the tests above read.
describe("the hourly build and the past days' pages (item 2)", () => {
  test("an hourly build keeps every past day's pages as published; the first after midnight makes the day just over and the day before's; kept or made, the same bytes and ETags", async () => {
    const hour = SAMPLE_NOW + 3_600_000;
    // The next hour's quotes (the latest batch again, each price moved), on the site and the state
    // the build at SAMPLE_NOW left: the hourly job's case (scripts/bench.ts withNextHour).
    const today = new Date(hour).toISOString().slice(0, 10);
    const log = path.join(sample.data, "quotes", `${today}.ndjson`);
    const quotes = (await fs.readFile(log, "utf8"))
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const latest = quotes
      .map((q) => String(q["observedAt"]))
      .sort()
      .at(-1)!;
    const later = new Date(Date.parse(latest) + 3_600_000).toISOString();
    const bump = (v: unknown) => (typeof v === "number" ? +(v * 1.0005).toPrecision(8) : v);
    const next = quotes
      .filter((q) => q["observedAt"] === latest)
      .map((q) => JSON.stringify({ ...q, buy: bump(q["buy"]), sell: bump(q["sell"]), observedAt: later }));
    await fs.appendFile(log, `${next.join("\n")}\n`);
    const yesterday = addDays(today, -1);
    const closedDay = path.join(sample.out, "days", yesterday, "index.html");
    const before = (await fs.stat(closedDay)).ino;
    const changedDays = async (nowMs: number) => {
      await runBuild({ dataDir: sample.data, outDir: sample.out, nowMs, saveState: false });
      const report = JSON.parse(await fs.readFile(`${sample.out}.build-report.json`, "utf8")) as BuildReport;
      return report.changedFiles.filter((f) => /^(ar\/)?days\//.test(f)).sort();
    };
    expect(await changedDays(hour)).toEqual([]);
    // A past day's page is the published file itself, linked into the new site: never made again.
    expect((await fs.stat(closedDay)).ino).toBe(before);
    // After midnight in Cairo the day is over: its pages are made, and the day before's (its day after).
    const midnight = Date.parse(`${today}T23:30:00Z`);
    expect(await changedDays(midnight)).toEqual(
      [today, yesterday, null]
        .flatMap((d) => {
          const p = d ? `days/${d}/index.html` : "days/index.html";
          return [p, `ar/${p}`];
        })
        .sort(),
    );
    // A build of the same instant from nothing makes every page: the same bytes, the same ETags.
    const fresh = path.join(await tempDir("pf-days-fresh-"), "public");
    await runBuild({ dataDir: sample.data, outDir: fresh, nowMs: midnight, saveState: false, force: true });
    const [kept, made] = await Promise.all(
      [sample.out, fresh].map(
        async (o) => JSON.parse(await fs.readFile(path.join(o, "_manifest.json"), "utf8")) as Manifest,
      ),
    );
    const dayPages = Object.keys(made!.files).filter((f) => f.includes("days/"));
    expect(dayPages.length).toBeGreaterThan(130);
    for (const f of dayPages) {
      expect(kept!.files[f]?.etag, f).toBe(made!.files[f]!.etag);
      expect(await fs.readFile(path.join(sample.out, f), "utf8"), f).toBe(
        await fs.readFile(path.join(fresh, f), "utf8"),
      );
    }
  }, 120_000);
});
