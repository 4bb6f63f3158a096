/**
 * A past day's page and the list of days (src/render/pages/day.ts), rendered from a build's
 * context with inputs changed one at a time: what each says in English and in Arabic for a day
 * with sellers, one without, a reference price, the first and the latest past day, and no days at
 * all. Whole builds of the pages are test/render/days.test.ts's.
 */
import { beforeAll, describe, expect, test } from "vitest";
import { parse, type HTMLElement } from "node-html-parser";
import type { RenderContext } from "../../src/feed/site.js";
import type { PageLang } from "../../src/feed/paths.js";
import type { Day } from "../../src/schema/archive.js";
import { otherDays, pastDays, renderDayPage, renderDaysIndex, type DayAround } from "../../src/render/pages/day.js";
import { count, longDate, longDateYear } from "../../src/render/pages/format.js";
import { sampleContext } from "../helpers/render-context.js";

const said = (el: HTMLElement | null | undefined) => (el?.text ?? "").replace(/\s+/g, " ").trim();
const LANGS: readonly PageLang[] = ["en", "ar"];

let ctx: RenderContext;
let days: string[];
beforeAll(async () => {
  ctx = await sampleContext();
  days = pastDays(ctx);
});

const around = (i: number): DayAround => ({
  prev: days[i - 1] ?? null,
  next: days[i + 1] ?? null,
  today: i === days.length - 1 ? "2026-11-19" : null,
});
const dayPage = (day: Day, a: DayAround, lang: PageLang) => parse(renderDayPage(ctx, day, a, lang));

/** The words each language says, by what the page shows. */
const WORDS = {
  en: {
    title: (date: string) => `Prices on ${longDateYear(date, "en")}`,
    crumbs: (date: string) => `Prices › Every day › ${longDate(date, "en")}`,
    closes: "Every seller's close",
    before: "The day before",
    after: "The day after",
    today: "(today)",
    reference: "Reference price: no licensed seller quotes it",
    best: "★ Best",
    everySeller: (n: number) => `Every seller (${count(n, "en")})`,
    json: "The same data as JSON:",
    indexTitle: "Prices on every past day",
    noDays: "No days yet.",
    another: "Prices on another day:",
    every: "every day",
  },
  ar: {
    title: (date: string) => `الأسعار يوم ${longDateYear(date, "ar")}`,
    crumbs: (date: string) => `الأسعار › كل الأيام › ${longDate(date, "ar")}`,
    closes: "إغلاق كل جهة",
    before: "اليوم السابق",
    after: "اليوم التالي",
    today: "(اليوم)",
    reference: "سعر مرجعي: لا تسعّره جهة مرخصة",
    best: "★ الأفضل",
    everySeller: (n: number) => `كل الجهات (${count(n, "ar")})`,
    json: "البيانات نفسها بصيغة JSON:",
    indexTitle: "الأسعار في كل يوم مضى",
    noDays: "لا توجد أيام بعد.",
    another: "الأسعار في يوم آخر:",
    every: "كل الأيام",
  },
} as const;

describe.each(LANGS)("a past day's page, in %s", (lang) => {
  const w = WORDS[lang];

  test("a day in the middle: its title, crumbs, the days around it and every seller's close", () => {
    const i = days.length - 5;
    const date = days[i]!;
    const doc = dayPage(ctx.archive.day(date), around(i), lang);
    expect(said(doc.querySelector("h1"))).toBe(w.title(date));
    expect(said(doc.querySelector("title"))).toBe(`${w.title(date)} · Price Feed`);
    expect(said(doc.querySelector(".crumbs"))).toBe(w.crumbs(date));
    const nav = said(doc.querySelector(".days-nav"));
    expect(nav).toContain(`${w.before}: ${longDate(days[i - 1]!, lang)}`);
    expect(nav).toContain(`${w.after}: ${longDate(days[i + 1]!, lang)}`);
    expect(nav).not.toContain(w.today);
    expect(said(doc.querySelector("#sellers-h"))).toBe(w.closes);
    expect(doc.querySelectorAll(".best-mark").map(said)).toContain(w.best);
    expect(said(doc.querySelector("main"))).toContain(w.json);
  });

  test("each row with sellers links to every seller's close, counted", () => {
    const date = days.at(-1)!;
    const day = ctx.archive.day(date);
    const doc = dayPage(day, around(days.length - 1), lang);
    const a = day.assets.find((x) => x.sellers.length > 0)!;
    expect(said(doc.querySelector(`tr#${a.slug} a[href$="#sellers-${a.slug}"]`))).toBe(w.everySeller(a.sellers.length));
  });

  test("the first day has no day before; the latest's day after is today, the home page's", () => {
    const first = dayPage(ctx.archive.day(days[0]!), around(0), lang);
    expect(said(first.querySelector(".days-nav"))).not.toContain(w.before);
    const last = dayPage(ctx.archive.day(days.at(-1)!), around(days.length - 1), lang);
    const next = last.querySelector('.days-nav a[rel="next"]')!;
    expect(said(next)).toBe(`${w.after}: ${longDate("2026-11-19", lang)} ${w.today}`);
  });

  test("a day no seller quoted: no seller's close, and no link to one", () => {
    const day = ctx.archive.day(days.at(-1)!);
    const bare: Day = { ...day, assets: day.assets.map((a) => ({ ...a, sellers: [] })) };
    const doc = dayPage(bare, around(days.length - 1), lang);
    expect(doc.querySelector("#sellers-h")).toBeNull();
    expect(said(doc.querySelector("main"))).not.toContain(w.closes);
    expect(doc.querySelector('a[href*="#sellers-"]')).toBeNull();
  });

  test("a reference price says no licensed seller quotes it", () => {
    const day = ctx.archive.day(days.at(-1)!);
    const ref = day.assets.find((a) => a.market === "reference");
    expect(ref, "the sample has a reference asset").toBeDefined();
    const doc = dayPage(day, around(days.length - 1), lang);
    expect(said(doc.querySelector(`tr#${ref!.slug} .who`))).toBe(w.reference);
  });

  test("the list of days: its title, and no days yet when the archive has none", () => {
    const doc = parse(renderDaysIndex(ctx, lang));
    expect(said(doc.querySelector("h1"))).toBe(w.indexTitle);
    expect(doc.querySelectorAll("ul.days li").length).toBe(days.length);
    const empty = { ...ctx, archive: { ...ctx.archive, days: { ...ctx.archive.days, days: [] } } };
    const none = parse(renderDaysIndex(empty, lang));
    expect(said(none.querySelector("main .muted"))).toBe(w.noDays);
  });

  test("an asset's links to the days before: the latest three and every day", () => {
    const links = parse(otherDays(days, "2026-11-19", lang, "us-dollar").text);
    expect(said(links)).toMatch(new RegExp(`^${w.another} `));
    const hrefs = links.querySelectorAll("a").map((a) => a.getAttribute("href"));
    expect(hrefs).toHaveLength(4);
    expect(hrefs[0]).toMatch(new RegExp(`/days/${days.at(-1)}/#us-dollar$`));
    expect(said(links.querySelectorAll("a").at(-1))).toBe(w.every);
  });
});
