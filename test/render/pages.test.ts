/**
 * The pages' words and numbers, read from built HTML (the browser checks are in
 * test/browser/pages.test.ts): plain-word verdicts counted honestly from favorability, "today" only on
 * the build's own Cairo date, market closed, digits and thousands separators, legends that match the
 * chart, no advice, the docs' copy-paste examples against the configured base URL, and the rulebook
 * rendered from docs/methodology.md.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { runBuild } from "../../src/jobs/build.js";
import { renderMethodology } from "../../src/render/pages/methodology.js";
import { cairoClock, count, fullDate, longDate, price, shortDate } from "../../src/render/pages/format.js";
import fc from "fast-check";
import type { Asset, Feed } from "../../src/schema/outputs.js";
import type { SourceConfig } from "../../src/schema/sources.js";
import { globalOunce } from "../../src/render/pages/gold.js";
import { site, tempDir, writeDataset } from "../helpers/dataset.js";
import { smallRows, TODAY } from "../helpers/rows.js";
import { sampleSite } from "../helpers/pages.js";
import { changeAmount, changeMark } from "../../src/render/pages/change.js";
import { weeklyCloses } from "../../src/render/pages/periods.js";
import { SIDE_WORDS, SOURCE_WORDS, VERDICT_WORDS } from "../../src/render/pages/words.js";

/** The small dataset, plus late Thursday quotes of the dollar so that it is "closed", not delayed, on Friday. */
function rows() {
  const r = smallRows();
  r.quotes.push(
    { source: "s1", seller: "alpha", asset: "USD-EGP", buy: 49.7, sell: 49.9, observedAt: `${TODAY}T14:30:00Z` },
    { source: "s1", seller: "beta", asset: "USD-EGP", buy: 49.8, sell: 50.1, observedAt: `${TODAY}T14:30:00Z` },
  );
  return r;
}

async function build(
  nowIso: string,
  siteJson: object = site,
): Promise<{ read: (p: string) => Promise<string>; feed: Feed }> {
  const data = await writeDataset(await tempDir(), rows());
  await fs.writeFile(path.join(data, "site.json"), JSON.stringify(siteJson));
  const out = path.join(data, "public");
  await runBuild({ dataDir: data, outDir: out, nowMs: Date.parse(nowIso) });
  const read = (p: string) => fs.readFile(path.join(out, p), "utf8");
  return { read, feed: JSON.parse(await read("api/v1/feed.json")) as Feed };
}

/** The visible text of a page: no tags, no style sheet, entities decoded, spaces collapsed. */
const text = (html: string) =>
  html
    .replace(/<style>[\s\S]*?<\/style>/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");

let thursday: Awaited<ReturnType<typeof build>>;
let friday: Awaited<ReturnType<typeof build>>;
beforeAll(async () => {
  [thursday, friday] = await Promise.all([build(`${TODAY}T14:45:00Z`), build("2026-11-20T10:00:00Z")]);
});

describe("numbers, dates and times (src/render/pages/format.ts)", () => {
  // Each text is remembered once made: whatever was asked before, the answer is Intl's own.
  const LOCALE = { en: "en-GB", ar: "ar-EG-u-nu-latn" } as const;
  test("the same text as Intl in both languages, the first time and every time after", () => {
    const lang = fc.constantFrom("en" as const, "ar" as const);
    const date = fc
      .date({ min: new Date("2020-01-01"), max: new Date("2030-12-31"), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10));
    const instant = fc
      .date({ min: new Date("2020-01-01"), max: new Date("2030-12-31"), noInvalidDate: true })
      .map((d) => `${d.toISOString().slice(0, 16)}:00Z`);
    fc.assert(
      fc.property(
        lang,
        fc.double({ min: 0.0001, max: 100_000, noNaN: true }),
        fc.integer({ min: 0, max: 4 }),
        fc.nat(5000),
        date,
        instant,
        (l, v, decimals, n, d, at) => {
          const num = (dec: number) =>
            new Intl.NumberFormat(LOCALE[l], {
              minimumFractionDigits: dec,
              maximumFractionDigits: dec,
              useGrouping: true,
            });
          const utc = (o: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(LOCALE[l], { timeZone: "UTC", ...o });
          const noon = new Date(`${d}T12:00:00Z`);
          for (let twice = 0; twice < 2; twice++) {
            expect(price(v, decimals, l)).toBe(num(decimals).format(v));
            expect(count(n, l)).toBe(num(0).format(n));
            expect(longDate(d, l)).toBe(utc({ weekday: "long", day: "numeric", month: "long" }).format(noon));
            expect(shortDate(d, l)).toBe(utc({ day: "numeric", month: "short" }).format(noon));
            expect(fullDate(d, l)).toBe(utc({ day: "numeric", month: "long", year: "numeric" }).format(noon));
            expect(cairoClock(at, l)).toBe(
              new Intl.DateTimeFormat(LOCALE[l], {
                timeZone: "Africa/Cairo",
                hour: "2-digit",
                minute: "2-digit",
                hourCycle: "h23",
              }).format(new Date(at)),
            );
          }
        },
      ),
      { numRuns: 300, seed: 20261122 },
    );
    expect(price(null, 2, "en")).toBe("—");
    expect(price(5882.5, 2, "en")).toBe("5,882.50");
    expect(price(5882.5, 2, "ar")).toBe("5,882.50");
  });
});

describe("the pages in plain words", () => {
  test("the verdict counts days as round(favorability × priorDays), in English and Arabic", async () => {
    const usd = thursday.feed.assets.find((a) => a.slug === "us-dollar")!;
    const d = usd.directions.sell;
    expect(d.favorability).not.toBeNull();
    const n = Math.round(d.favorability! * d.priorDays);
    const en = text(await thursday.read("assets/us-dollar/index.html"));
    const ar = text(await thursday.read("ar/assets/us-dollar/index.html"));
    const said =
      n === d.priorDays
        ? `cheaper than on all of the previous ${d.priorDays} trading days`
        : `cheaper than on ${n} of the previous ${d.priorDays} trading days`;
    expect(en).toContain(said);
    expect(ar).toContain(
      n === d.priorDays
        ? `أرخص مما كان عليه في كل آخر ${d.priorDays}`
        : `أرخص مما كان عليه في ${n} من آخر ${d.priorDays}`,
    );
    expect(en).toContain(`Based on ${usd.confidence.checks} independent sources`);
    expect(en).not.toMatch(/favorability/i);
  });

  test("'today' is said on the build's own Cairo date only; on Friday the pages name Thursday and say the market is closed", async () => {
    const thu = text(await thursday.read("assets/us-dollar/index.html"));
    expect(thu).toContain("Today's prices");
    expect(thu).toMatch(/Last updated today, Thursday 19 November at 16:30 Cairo time/);
    const usd = friday.feed.assets.find((a) => a.slug === "us-dollar")!;
    expect(usd.asOf).toBe(TODAY);
    expect(usd.freshness.state).toBe("closed");
    for (const file of ["assets/us-dollar/index.html", "index.html"]) {
      const en = text(await friday.read(file));
      expect(en, file).not.toMatch(/\btoday\b/i);
      expect(en, file).toContain("Market closed");
    }
    const en = text(await friday.read("assets/us-dollar/index.html"));
    expect(en).toContain("Prices of Thursday 19 November");
    expect(en).toContain("Last updated Thursday 19 November at 16:30 Cairo time");
    const ar = text(await friday.read("ar/assets/us-dollar/index.html"));
    expect(ar).not.toContain("اليوم");
    expect(text(await friday.read("ar/index.html"))).not.toContain("اليوم");
    expect(ar).toContain("أسعار الخميس، 19 نوفمبر");
    expect(ar).toContain("السوق مغلق");
  });

  test("Arabic pages are lang=ar dir=rtl with Western digits throughout, and link their English twin by hreflang", async () => {
    const ar = await thursday.read("ar/assets/gold-24k/index.html");
    expect(ar).toMatch(/^<!doctype html>\n<html lang="ar" dir="rtl">/);
    // Links are relative to the page, so the site works under any base path; without the site's
    // base URL the twin is linked by the language switch only (a <link hreflang> must be absolute:
    // test/render/seo.test.ts).
    expect(ar).toContain('<a href="../../../assets/gold-24k/" hreflang="en" lang="en" rel="alternate">English</a>');
    expect(ar).not.toContain('<link rel="alternate" hreflang=');
    expect(text(ar)).not.toMatch(/[\u0660-\u0669]/); // the catalog's "ذهب عيار ٢٤" is shown as "ذهب عيار 24"
    expect(text(ar)).toContain("ذهب عيار 24");
    const en = await thursday.read("assets/gold-24k/index.html");
    expect(en).toMatch(/^<!doctype html>\n<html lang="en" dir="ltr">/);
    expect(en).toContain('<a href="../../ar/assets/gold-24k/" hreflang="ar" lang="ar" rel="alternate">العربية</a>');
  });

  test("gold has thousands separators, and its legend has no official line because none is drawn", async () => {
    const gold = await thursday.read("assets/gold-24k/index.html");
    expect(text(gold)).toContain("6,040");
    expect(text(gold)).not.toMatch(/\b6040\b/);
    expect(gold).not.toContain('class="key bench"');
    expect(gold).not.toContain('class="bench"');
    const usd = await thursday.read("assets/us-dollar/index.html");
    expect(usd).toContain('class="key bench"');
    expect(usd).toMatch(/<polyline class="bench"/);
    // Each chart has a text alternative, and its numbers as a table.
    expect(usd).toMatch(/<svg class="chart chart-wide"[^>]*role="img"[^>]*>\n<desc id="[^"]+">\d+ trading days from/);
    expect(usd).toContain("The chart's numbers as a table");
  });

  test("no page gives advice: never buy now, sell now or wait, in either language", async () => {
    for (const file of [
      "index.html",
      "ar/index.html",
      ...thursday.feed.assets.flatMap((a) => [`assets/${a.slug}/index.html`, `ar/assets/${a.slug}/index.html`]),
    ]) {
      const t = text(await thursday.read(file));
      expect(t, file).not.toMatch(/\b(buy now|sell now|wait)\b/i);
      expect(t, file).not.toMatch(/اشتر الآن|اشترِ الآن|بع الآن|انتظر/);
    }
  });
});

describe("the docs start a developer in one minute", () => {
  test("a quoted curl against the local base URL by default, its real answer, a fetch example and the three things to know", async () => {
    const html = await thursday.read("docs/index.html");
    const t = text(html);
    expect(t).toContain("curl -s 'http://127.0.0.1:8888/api/v1/feed.json?asset=us-dollar'");
    expect(t).toContain('fetch("http://127.0.0.1:8888/api/v1/feed.json?asset=us-dollar")');
    const usd = thursday.feed.assets.find((a) => a.slug === "us-dollar")!;
    expect(t).toContain(`"_self": "/api/v1/feed.json?asset=us-dollar"`);
    expect(t).toContain(`"benchmark": ${JSON.stringify(usd.benchmark)}`);
    expect(t).toContain(`console.log(asset.directions.sell.best); // ${JSON.stringify(usd.directions.sell.best)}`);
    for (const thing of ["Filters", "Poll with the ETag", "Limits"]) expect(t).toContain(thing);
    // Every URL a shell example passes is in single quotes, so zsh does not glob its "?".
    const curls = [...t.matchAll(/curl [^\n]*?(?=curl |$|#)/g)].map((m) => m[0]);
    expect(curls.length).toBeGreaterThan(3);
    for (const c of curls) expect(c, c).not.toMatch(/\s(https?:\/\/)/);
  });

  test("the site's baseUrl goes into every example and the pages' hreflang links", async () => {
    const deployed = await build(`${TODAY}T14:45:00Z`, { ...site, baseUrl: "https://prices.example.org/" });
    const t = text(await deployed.read("docs/index.html"));
    expect(t).toContain("curl -s 'https://prices.example.org/api/v1/feed.json?asset=us-dollar'");
    expect(t).not.toContain("127.0.0.1");
    expect(await deployed.read("ar/index.html")).toContain(
      '<link rel="alternate" hreflang="en" href="https://prices.example.org/">',
    );
  });

  test("the rulebook is docs/methodology.md rendered, inside #methodology", async () => {
    const html = await thursday.read("docs/index.html");
    const md = await fs.readFile(new URL("../../docs/methodology.md", import.meta.url), "utf8");
    // Its wide tables scroll in their own box, focusable by keyboard on the page.
    const rendered = renderMethodology(md).replace(/<div class="wrap">/g, '<div class="wrap" tabindex="0">');
    expect(html).toContain(`<section id="methodology" aria-label="How the numbers are made">\n${rendered}`);
    // The Arabic docs are a page of their own, code set left to right.
    const ar = await thursday.read("ar/docs/index.html");
    expect(ar).toMatch(/^<!doctype html>\n<html lang="ar" dir="rtl">/);
    expect(ar).toContain(
      `<pre tabindex="0" class="cmd" dir="ltr"><code>curl -s 'http://127.0.0.1:8888/api/v1/feed.json?asset=us-dollar'</code></pre>`,
    );
    expect(html).toContain('<a href="../ar/docs/" hreflang="ar" lang="ar">التوثيق بالعربية</a>');
  });
});

describe("the sources page", () => {
  /** Words of developers, never on the public sources page, in either language. */
  const JARGON = [
    /\bbuild/i,
    /\bbuilt\b/i,
    /\bstate\b/i,
    /\bingest/i,
    /\bnull\b/,
    /recorded in this/i,
    /البناء/,
    /بناء/,
    /مسجّل في هذا/,
  ];
  /** What a reader sees: the visible text, the title, the description and the phone layout's cell labels. */
  const shown = (html: string) =>
    [text(html), ...[...html.matchAll(/ (?:data-label|content)="([^"]*)"/g)].map((m) => m[1]!)].join(" ");

  test("shows, in both languages, each source's kind, what it fed, its last success, its last failure with the reason, whether it was ever read, and how its format is known", async () => {
    const data = await writeDataset(await tempDir(), rows());
    const at = "2026-11-19T10:07:00.000Z";
    await fs.mkdir(path.join(data, "state"), { recursive: true });
    await fs.writeFile(
      path.join(data, "state", "sources.json"),
      JSON.stringify({
        sources: {
          s1: { lastRunAt: at, lastSuccessAt: at, lastFailure: null },
          s2: { lastRunAt: at, lastSuccessAt: null, lastFailure: { at, reason: "HTTP 503 <busy>" } },
        },
      }),
    );
    const evidence: Record<string, object> = {
      s1: { kind: "recorded", where: ["test/fixtures/sellers/s1.html"], recordedAt: "2026-11-18" },
      s2: { kind: "public-code", where: ["someone/rates/s2.py@0123abc", "https://example.org/s2 <code>"] },
      glob: { kind: "constructed", where: ["the provider's description of its daily file"] },
    };
    const file = path.join(data, "sources.json");
    const config = JSON.parse(await fs.readFile(file, "utf8")) as { sources: Array<{ id: string }> };
    config.sources = config.sources.map((s) => (evidence[s.id] ? { ...s, evidence: evidence[s.id] } : s));
    await fs.writeFile(file, JSON.stringify(config));
    const out = path.join(data, "public");
    await runBuild({ dataDir: data, outDir: out, nowMs: Date.parse(`${TODAY}T11:30:00Z`) });
    const en = await fs.readFile(path.join(out, "sources/index.html"), "utf8");
    const ar = await fs.readFile(path.join(out, "ar/sources/index.html"), "utf8");
    const row = (html: string, id: string) => text(html.match(new RegExp(`<tr id="source-${id}">[\\s\\S]*?</tr>`))![0]);
    // 10:07 UTC is 12:07 in Cairo; the reason and the citations are escaped, never markup.
    expect(row(en, "s1").trim()).toBe(
      "s1 an aggregator relaying sellers Omani Riyal, US Dollar, Gold 24 karat Thursday 19 November · 12:07 None so far From a saved copy of what it publishes (saved 18 November 2026) test/fixtures/sellers/s1.html Counts from the start",
    );
    expect(row(ar, "s1")).toContain("الخميس، 19 نوفمبر · 12:07");
    expect(row(ar, "s1")).toContain("لا إخفاق حتى الآن");
    expect(row(ar, "s1")).toContain("من نسخة محفوظة مما ينشره (حُفظت في 18 نوفمبر 2026)");
    expect(en).toContain("HTTP 503 &lt;busy&gt;");
    expect(en).toContain("https://example.org/s2 &lt;code&gt;");
    // s2 ran and was never read successfully: its failure, when and why.
    expect(row(en, "s2")).toContain("Never read successfully yet Thursday 19 November · 12:07 : HTTP 503 <busy>");
    expect(row(en, "s2")).toContain(
      "From public software that reads it someone/rates/s2.py@0123abc https://example.org/s2 <code>",
    );
    expect(row(ar, "s2")).toContain("لم يُقرأ بنجاح حتى الآن");
    expect(row(ar, "s2")).toContain("الخميس، 19 نوفمبر · 12:07 : HTTP 503 <busy>");
    expect(row(ar, "s2")).toContain("من برامج منشورة علنًا تقرؤه");
    // s3 has no run on record and no prices: not read yet; nothing known of failures; no evidence.
    expect(row(en, "s3")).toContain("Not read yet Not known Not stated");
    expect(row(ar, "s3")).toContain("لم يُقرأ بعد غير معروف غير مذكور");
    // The global reference has no run on record either, but its prices are here.
    expect(row(en, "glob")).toContain(
      "Its prices are here, but when it was last read is not known Not known Worked out by hand from other evidence the provider's description of its daily file",
    );
    expect(row(ar, "glob")).toContain("أسعاره هنا، لكن وقت آخر قراءة له غير معروف");
    expect(row(ar, "glob")).toContain("استُنتجت يدويًا من أدلة أخرى");
    for (const [html, i] of [
      [en, 0],
      [ar, 1],
    ] as const) {
      for (const pair of [SOURCE_WORDS.head.success, SOURCE_WORDS.head.failure, SOURCE_WORDS.head.evidence])
        expect(html).toContain(`<th scope="col">${pair[i]}</th>`);
      for (const j of JARGON) expect(shown(html)).not.toMatch(j);
    }
    expect(ar).toContain('dir="rtl"');
    // Citations read left to right, each on a line of its own, in Arabic too.
    expect(ar).toContain('<span class="sub"><bdi dir="ltr">test/fixtures/sellers/s1.html</bdi></span>');
  });

  test("the simulated market's sources page says what is known, in plain words in both languages", async () => {
    const [en, ar] = await Promise.all([thursday.read("sources/index.html"), thursday.read("ar/sources/index.html")]);
    for (const html of [en, ar]) for (const j of JARGON) expect(shown(html)).not.toMatch(j);
    expect(text(en)).toContain("Its prices are here, but when it was last read is not known");
    expect(text(en)).toContain("Not stated");
    expect(text(ar)).toContain("أسعاره هنا، لكن وقت آخر قراءة له غير معروف");
    expect(text(ar)).toContain("غير مذكور");
  });
});

describe("what moved, gold, the converter and the charts by period (the simulated market)", () => {
  let sample: Awaited<ReturnType<typeof sampleSite>>;
  const read = (p: string) => fs.readFile(path.join(sample.out, p), "utf8");
  beforeAll(async () => {
    sample = await sampleSite();
  }, 60_000);

  test("a move is said in piastres under a pound for a currency, in pounds otherwise, with an arrow and a sign", () => {
    expect(changeAmount(0.33, 2, "en")).toBe("33 piastres");
    expect(changeAmount(-0.01, 2, "en")).toBe("1 piastre");
    expect(changeAmount(1.25, 2, "en")).toBe("1.25 EGP");
    expect(changeAmount(-13, 0, "en")).toBe("13 EGP");
    expect(changeAmount(0.33, 2, "ar")).toBe("33 قرشًا");
    expect(changeAmount(0.05, 2, "ar")).toBe("5 قروش");
    expect(changeAmount(0.02, 2, "ar")).toBe("2 قرش");
    expect(changeAmount(13, 0, "ar")).toBe("13 جنيهًا");
    expect(changeAmount(1.25, 2, "ar")).toBe("1.25 جنيه");
    expect(text(changeMark(0.33, 2, "en", { pct: 0.69 }).text).trim()).toBe("▲ +33 piastres (0.69%)");
    expect(text(changeMark(-15, 0, "en").text).trim()).toBe("▼ −15 EGP");
    expect(text(changeMark(0, 2, "ar").text).trim()).toBe("= دون تغيير");
    expect(changeMark(-15, 0, "en").text).toContain('class="chg down"');
  });

  test("21 karat leads gold on the home page, with 24 and 18 karat and the gold pound, all on the first screen; the headline assets come first", async () => {
    for (const file of ["index.html", "ar/index.html"]) {
      const html = await read(file);
      const rows = [...html.matchAll(/<tr id="([a-z0-9-]+)">/g)].map((m) => m[1]);
      expect(rows.indexOf("gold-21k"), file).toBeLessThan(rows.indexOf("gold-24k"));
      const [shown, folded] = html.split('<details class="more">');
      const ids = (h: string) => [...h!.matchAll(/<tr id="([a-z0-9-]+)">/g)].map((m) => m[1]);
      expect(ids(shown!)).toEqual([
        "us-dollar",
        "euro",
        "pound-sterling",
        "saudi-riyal",
        "kuwaiti-dinar",
        "gold-21k",
        "gold-24k",
        "gold-18k",
        "gold-pound",
      ]);
      // Gold as Egyptians buy it is all on the first screen: nothing of it is folded away.
      const metals = new Set(sample.feed.assets.filter((a) => a.category === "metals").map((a) => a.slug));
      expect(ids(folded!).filter((id) => metals.has(id!))).toEqual([]);
    }
    const metals = sample.feed.assets.filter((a) => a.category === "metals").map((a) => a.slug);
    expect(metals[0]).toBe("gold-24k"); // the catalog's order; the pages reorder it
  });

  test("gold says workmanship and the stamp come on top, and what a gold pound is", async () => {
    expect(text(await read("index.html"))).toMatch(/workmanship \( ?مصنعية ?\) and the stamp come on top/);
    expect(text(await read("ar/index.html"))).toContain("المصنعية والدمغة تُضافان عليه");
    expect(text(await read("assets/gold-pound/index.html"))).toContain(
      "A gold pound is a coin of 8 grams of 21 karat gold.",
    );
    expect(text(await read("ar/assets/gold-pound/index.html"))).toContain(
      "الجنيه الذهب عملة وزنها 8 جرامات من عيار 21.",
    );
    expect(text(await read("assets/us-dollar/index.html"))).not.toContain("workmanship");
  });

  test("a gold page says the workmanship is not refunded when you sell, and gives the global ounce in dollars", async () => {
    const usd = sample.feed.assets.find((a) => a.id === "USD-EGP")!;
    const g24 = sample.feed.assets.find((a) => a.id === "XAU24K-EGP")!;
    // The simulated market's global source prices 24 karat at 0.999 fine, as the real one does.
    const ounce = price((g24.global!.value! * 31.1034768) / 0.999 / usd.global!.value!, 0, "en");
    for (const slug of ["gold-21k", "gold-pound"]) {
      const en = text(await read(`assets/${slug}/index.html`));
      expect(en).toMatch(/When you sell, the workmanship \( ?المصنعية ?\) is not refunded/);
      expect(en).toContain(`Global price of a gold ounce US$ ${ounce} a troy ounce (31.1 g of fine gold)`);
      const ar = text(await read(`ar/assets/${slug}/index.html`));
      expect(ar).toContain("وعند البيع لا تُسترد المصنعية");
      expect(ar).toContain(`سعر أوقية الذهب عالميًا ${ounce} دولار أمريكي للأوقية`);
    }
    // The home page keeps to what a shop adds; the refund is said where a gold price is looked at.
    expect(text(await read("index.html"))).not.toContain("not refunded");
    expect(text(await read("assets/us-dollar/index.html"))).not.toContain("ounce");
  });

  test("the ounce is in dollars only from a dollar rate of the same day, at the global source's own fineness", () => {
    const asset = (id: string, asOf: string, value: number) => ({ id, asOf, global: { value } }) as unknown as Asset;
    const gold = asset("XAU24K-EGP", "2026-11-20", 6000);
    const sources = [
      {
        adapter: "global-rates",
        assets: [{ asset: "XAU24K-EGP", metal: "xau", purity: 0.9999, grams: 1 }],
      } as unknown as SourceConfig,
    ];
    expect(globalOunce({ assets: [gold, asset("USD-EGP", "2026-11-20", 50)] }, sources)).toEqual({
      value: (6000 * 31.1034768) / 0.9999 / 50,
      currency: "USD",
      date: "2026-11-20",
    });
    // Friday: the dollar's business date is Thursday, so no dollar rate of gold's day is in the feed.
    expect(globalOunce({ assets: [gold, asset("USD-EGP", "2026-11-19", 50)] }, [])).toEqual({
      value: (6000 * 31.1034768) / 0.999,
      currency: "EGP",
      date: "2026-11-20",
    });
    expect(globalOunce({ assets: [asset("USD-EGP", "2026-11-20", 50)] }, [])).toBeNull();
  });

  test("the home page says in one line that parallel-market rates are not included", async () => {
    expect(text(await read("index.html"))).toContain("Parallel-market rates are not included.");
    expect(text(await read("ar/index.html"))).toContain("لا تشمل أسعار السوق الموازية.");
  });

  test("the converter: common amounts at each side's best and the official mid, worked out at build time", async () => {
    const usd = sample.feed.assets.find((a) => a.slug === "us-dollar")!;
    const t = text(await read("assets/us-dollar/index.html"));
    const best = usd.directions.sell.best!.value!;
    expect(t).toContain(`500 USD ${price(Math.round(500 * best * 100) / 100, 0, "en")}`);
    const gold = text(await read("ar/assets/gold-21k/index.html"));
    for (const g of ["1 جرام", "5 جرام", "10 جرام"]) expect(gold).toContain(g);
    // Script only adds a field for any amount (amount-script.ts): the table is there without it.
    const page = await read("assets/us-dollar/index.html");
    expect([...page.matchAll(/<script[^>]*>/g)].map((m) => m[0])).toEqual([
      '<script src="../../offline.js" defer>',
      '<script src="../../amount.js" defer>',
    ]);
    expect(page).toContain(`<th scope="col" class="n" data-price="${best}">You buy at</th>`);
    expect(page).toMatch(
      /<template id="amount-tpl"><div class="amount"><label for="amount-in">Any amount \(USD\)<\/label>/,
    );
    expect(await read("ar/assets/gold-21k/index.html")).toContain('<label for="amount-in">أي كمية (جرام)</label>');
  });

  test("charts by week, month, 3 months and year from the archive, each with its table; the month open; the CSV linked", async () => {
    const html = await read("assets/us-dollar/index.html");
    const periods = [...html.matchAll(/<details id="chart-([a-z0-9-]+)"( open)?>/g)].map((m) => `${m[1]}${m[2] ?? ""}`);
    expect(periods).toEqual(["week", "month open", "3-months", "year"]);
    const history = JSON.parse(await read("api/v1/history/us-dollar.json")) as { entries: Array<{ date: string }> };
    const usd = sample.feed.assets.find((a) => a.slug === "us-dollar")!;
    const from = (days: number) => new Date(Date.parse(usd.asOf) - (days - 1) * 86_400_000).toISOString().slice(0, 10);
    const within = (days: number) => history.entries.filter((e) => e.date >= from(days) && e.date <= usd.asOf).length;
    const desc = (id: string) =>
      html.match(new RegExp(`<desc id="chart-${id}-h-wide-desc">(\\d+) (trading days|weeks)`))!;
    expect(desc("month").slice(1)).toEqual([String(within(30)), "trading days"]);
    expect(desc("3-months").slice(1)).toEqual([String(within(91)), "trading days"]);
    // A year is drawn from weekly ranges: one entry a week, Thursday the last working day.
    const weeks = new Set(
      history.entries.map((e) => Math.ceil((Date.parse(e.date) - Date.parse("2026-01-01")) / 86_400_000 / 7)),
    );
    expect(desc("year").slice(1)).toEqual([String(weeks.size), "weeks"]);
    expect(html).toContain("The chart's numbers as a table, a row a week (the week's close: its last trading day)");
    expect(html.match(/<details id="chart-week"[\s\S]*?<\/details>\n<\/details>/)![0]).toContain(
      "The chart's numbers as a table",
    );
    expect(html).toContain('href="../../api/v1/history/us-dollar.csv"');
  });

  test("a week's close is its last trading day's entry, whole: each side's best of that day", () => {
    const e = (date: string, sellLo: number, buyHi: number, bench: number | null = null) => ({
      date,
      sellLo,
      sellHi: sellLo + 1,
      buyLo: buyHi - 1,
      buyHi,
      bench,
    });
    // Sunday 15 to Thursday 19 November 2026 is one week; Sunday 22 starts the next.
    const weeks = weeklyCloses([
      e("2026-11-15", 50, 48, 49),
      e("2026-11-17", 49, 49.5),
      e("2026-11-19", 51, 47, 49.2),
      e("2026-11-22", 52, 50),
    ]);
    expect(weeks).toEqual([e("2026-11-19", 51, 47, 49.2), e("2026-11-22", 52, 50)]);
  });

  test("the glossary on both docs pages names each side's label and each verdict's words with its API field", async () => {
    for (const [file, i] of [
      ["docs/index.html", 0],
      ["ar/docs/index.html", 1],
    ] as const) {
      const html = await read(file);
      const glossary = html.slice(html.indexOf('id="glossary"'));
      const rows = [...glossary.matchAll(/<tr><th scope="row">([^<]*)<\/th><td dir="ltr">([\s\S]*?)<\/td>/g)].map(
        (m) => [m[1]!.replace(/&quot;/g, '"'), text(m[2]!)] as const,
      );
      const field = (label: string) => rows.find(([l]) => l.startsWith(label))?.[1];
      expect(field(SIDE_WORDS.sell[i]), file).toContain("directions.sell");
      expect(field(SIDE_WORDS.buy[i]), file).toContain("directions.buy");
      for (const side of ["sell", "buy"] as const)
        for (const [v, words] of Object.entries(VERDICT_WORDS[side]))
          expect(
            rows.some(([l, f]) => l.startsWith(words[i]) && f.includes(`directions.${side}.verdict = "${v}"`)),
            `${file} ${side} ${v}`,
          ).toBe(true);
    }
  });

  test("source names in Arabic where they have one; og: tags on every page", async () => {
    const ar = text(await read("ar/sources/index.html"));
    expect(ar).toContain("صفحات أسعار البنوك وشركات الصرافة (محاكاة)");
    expect(ar).not.toContain("Banks' and exchange houses' own rate pages");
    expect(text(await read("ar/assets/us-dollar/index.html"))).toContain("رصدها");
    for (const file of ["index.html", "ar/assets/gold-21k/index.html", "ar/docs/index.html"]) {
      const html = await read(file);
      expect(html, file).toContain('<meta property="og:title" content="');
      expect(html, file).toContain('<meta property="og:locale" content="');
    }
  });
});
