/**
 * The home page (src/render/pages/home.ts), rendered from a build's context with the feed changed
 * one input at a time: what it says in English and in Arabic of the headline prices and the rest,
 * of a market closed for every row or for some, of a reference price and of the verdicts it shows.
 */
import { beforeAll, describe, expect, test } from "vitest";
import { parse } from "node-html-parser";
import type { RenderContext } from "../../src/feed/site.js";
import type { PageLang } from "../../src/feed/paths.js";
import type { Asset, Verdict } from "../../src/schema/outputs.js";
import { renderHome, tableWhen } from "../../src/render/pages/home.js";
import { HOME_WORDS } from "../../src/render/pages/home-words.js";
import { headlineOf, pageOrder } from "../../src/render/pages/lineup.js";
import { cairoClock, weekdayDate } from "../../src/render/pages/format.js";
import { sampleContext } from "../helpers/render-context.js";

const said = (el: { text: string } | null | undefined) => (el?.text ?? "").replace(/\s+/g, " ").trim();
const LANGS: readonly PageLang[] = ["en", "ar"];

let ctx: RenderContext;
beforeAll(async () => {
  ctx = await sampleContext();
});

/** The home page of the build's feed with its assets changed. */
const home = (lang: PageLang, change: (a: Asset) => Asset = (a) => a) =>
  parse(renderHome({ ...ctx, feed: { ...ctx.feed, assets: ctx.feed.assets.map(change) } }, lang));

describe("the count of the other prices, in Arabic: the noun's form and the adjective agreeing with it", () => {
  test.each([
    [1, "كل الأسعار: سعر آخر"],
    [2, "كل الأسعار: سعران آخران"],
    [3, "كل الأسعار: ثلاثة أسعار أخرى"],
    [8, "كل الأسعار: ثمانية أسعار أخرى"],
    [10, "كل الأسعار: عشرة أسعار أخرى"],
    [11, "كل الأسعار: 11 سعرًا آخر"],
    [100, "كل الأسعار: 100 سعر آخر"],
    [103, "كل الأسعار: 103 أسعار أخرى"],
  ])("%i: %s", (n, words) => {
    expect(HOME_WORDS.ar.more(n)).toBe(words);
  });
  test("in English, a number", () => {
    expect(HOME_WORDS.en.more(6)).toBe("Every price: 6 more");
    expect(HOME_WORDS.en.more(1)).toBe("Every price: 1 more");
  });
});

describe.each(LANGS)("the home page, in %s", (lang) => {
  const ar = lang === "ar";

  test("its heading, lead and title; the rest of the prices one tap away, counted", () => {
    const doc = home(lang);
    const heading = ar ? "أسعار العملات والذهب في مصر" : "Currency and gold prices in Egypt";
    expect(said(doc.querySelector("h1"))).toBe(heading);
    expect(said(doc.querySelector("title"))).toBe(`${heading} · Price Feed`);
    expect(said(doc.querySelector(".home-lead"))).toMatch(
      ar ? /^أفضل سعر لدى الجهات المرخصة بالجنيه/ : /^The best licensed price in EGP/,
    );
    const ordered = pageOrder(ctx.feed.assets);
    const rest = ordered.filter((a) => !headlineOf(ordered)(a)).length;
    expect(rest).toBeGreaterThan(0);
    expect(said(doc.querySelector("details.more > summary"))).toBe(HOME_WORDS[lang].more(rest));
  });

  test("a market closed for every row says so once, in the table's caption, with the one time", () => {
    const at = "2026-11-19T12:00:00Z";
    const doc = home(lang, (a) => ({ ...a, observedAt: at, freshness: { ...a.freshness, state: "closed" } }));
    const closed = ar ? "السوق مغلق: هذه آخر الأسعار" : "Market closed: these are the latest prices";
    const captions = doc.querySelectorAll("table.market caption.when").map(said);
    expect(captions.length).toBeGreaterThan(0);
    for (const c of captions) expect(c).toBe(`${closed} · ${weekdayDate(at, lang)} · ${cairoClock(at, lang)}`);
    expect(doc.querySelectorAll("table.market th[scope=row] .sub").map(said)).not.toContain(closed);
  });

  test("a table up to date has no caption; a row that differs says its own state", () => {
    const listed = ctx.feed.assets.filter((a) => a.category === "currencies");
    const fresh = listed.map((a) => ({ ...a, freshness: { ...a.freshness, state: "fresh" as const } }));
    expect(tableWhen(fresh, lang).caption).toBe("");
    const one = { ...fresh[0]!, freshness: { ...fresh[0]!.freshness, state: "stale" as const } };
    expect(tableWhen([one, ...fresh.slice(1)], lang).row(one)).toMatch(ar ? /^قديمة: / : /^Out of date: /);
  });

  test("a reference price's row says no licensed seller quotes it", () => {
    const ref = ctx.feed.assets.find((a) => a.market === "reference")!;
    expect(said(home(lang).querySelector(`tr#${ref.slug} .who`))).toBe(
      ar ? "سعر مرجعي: لا تسعّره جهة مرخصة" : "Reference price: no licensed seller quotes it",
    );
  });

  test.each([
    ["sell", "favorable", "cheaper than usual", "أرخص من المعتاد"],
    ["sell", "weak", "dearer than usual", "أغلى من المعتاد"],
    ["buy", "favorable", "you get more than usual", "تحصل على أكثر من المعتاد"],
    ["buy", "weak", "you get less than usual", "تحصل على أقل من المعتاد"],
  ] as const)("a %s side %s: the row's tag says %s", (side, verdict, en, arWords) => {
    const dollar = ctx.feed.assets.find((a) => a.id === "USD-EGP")!;
    const set = (a: Asset, v: Verdict): Asset => ({
      ...a,
      directions: { ...a.directions, [side]: { ...a.directions[side], verdict: v } },
    });
    const tags = (v: Verdict) =>
      home(lang, (a) => (a.id === dollar.id ? set(a, v) : a))
        .querySelectorAll(`tr#${dollar.slug} .tag`)
        .map(said);
    expect(tags(verdict)).toContain(ar ? arWords : en);
    expect(tags("ordinary")).not.toContain(ar ? arWords : en);
  });
});
