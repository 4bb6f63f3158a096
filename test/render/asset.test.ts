/**
 * An asset's page (src/render/pages/asset.ts), rendered from a build's context with the asset
 * changed one input at a time: what it says in English and in Arabic of a market in session,
 * closed, delayed or out of date, of a past business date, of no price at all, of sources on
 * probation, of a reference price, and what its share link says.
 */
import { beforeAll, describe, expect, test } from "vitest";
import { parse } from "node-html-parser";
import type { RenderContext } from "../../src/feed/site.js";
import type { PageLang } from "../../src/feed/paths.js";
import type { Asset } from "../../src/schema/outputs.js";
import { renderAssetPage, shareText } from "../../src/render/pages/asset.js";
import { cairoClock, longDate, price } from "../../src/render/pages/format.js";
import { DELAYED_MAX_MS, FRESH_MAX_MS } from "../../src/core/methodology.js";
import { sampleContext } from "../helpers/render-context.js";

const said = (el: { text: string } | null | undefined) => (el?.text ?? "").replace(/\s+/g, " ").trim();
const LANGS: readonly PageLang[] = ["en", "ar"];

let ctx: RenderContext;
let dollar: Asset;
beforeAll(async () => {
  ctx = await sampleContext();
  dollar = ctx.feed.assets.find((a) => a.id === "USD-EGP")!;
});

const render = (a: Asset, lang: PageLang) => parse(renderAssetPage(ctx, a, lang));
const status = (a: Asset, lang: PageLang) => said(render(a, lang).querySelector(".status strong"));
/** The methodology's hours after which prices are delayed, then out of date (docs/methodology.md §7). */
const [DELAYED, STALE] = [FRESH_MAX_MS / 3_600_000, DELAYED_MAX_MS / 3_600_000];
const withState = (a: Asset, state: Asset["freshness"]["state"]): Asset => ({
  ...a,
  freshness: { ...a.freshness, state },
});

describe("the market's state, in the page's language", () => {
  test.each([
    ["fresh", "en", "Up to date"],
    ["fresh", "ar", "أسعار محدّثة"],
    ["closed", "en", "Market closed: these are the latest prices"],
    ["closed", "ar", "السوق مغلق: هذه آخر الأسعار"],
    ["delayed", "en", `Delayed: no new prices for over ${DELAYED} trading hours`],
    ["delayed", "ar", `متأخرة: لا أسعار جديدة منذ أكثر من ${DELAYED} ساعات تداول`],
    ["stale", "en", `Out of date: no new prices for over ${STALE} trading hours`],
    ["stale", "ar", `قديمة: لا أسعار جديدة منذ أكثر من ${STALE} ساعات تداول`],
  ] as const)("%s, in %s: %s", (state, lang, words) => {
    expect(status(withState(dollar, state), lang)).toBe(words);
  });
});

describe.each(LANGS)("an asset's page, in %s", (lang) => {
  const ar = lang === "ar";

  test("today's prices on the build's date; a past business date is named", () => {
    const lead = (a: Asset) => said(render(a, lang).querySelector(".lead"));
    expect(lead(dollar)).toMatch(ar ? /^أسعار اليوم · / : /^Today's prices · /);
    const friday = { ...dollar, asOf: "2026-11-18" };
    const named = ar ? `أسعار ${longDate("2026-11-18", "ar")} · ` : `Prices of ${longDate("2026-11-18", "en")} · `;
    expect(lead(friday).startsWith(named)).toBe(true);
  });

  test("its title, crumbs and headings", () => {
    const doc = render(dollar, lang);
    const name = ar ? "دولار أمريكي" : "US Dollar";
    expect(said(doc.querySelector("title"))).toBe(
      ar ? `${name}: أسعار كل الجهات المرخصة · Price Feed` : `${name}: every licensed seller's price · Price Feed`,
    );
    expect(said(doc.querySelector(".crumbs"))).toBe(ar ? `الأسعار › ${name}` : `Prices › ${name}`);
    expect(said(doc.querySelector("#refs-h"))).toBe(ar ? "أسعار مرجعية" : "References");
    expect(said(doc.querySelector("#sellers-h"))).toBe(
      ar ? `كل الجهات المرخصة (${dollar.sellers.length})` : `Every licensed seller (${dollar.sellers.length})`,
    );
    expect(said(doc.querySelector("#convert-h"))).toBe(ar ? "كم يساوي؟" : "What it comes to");
  });

  test("no price at all: nothing observed, no seller, no side, no official rate", () => {
    const side = { ...dollar.directions.sell, best: null, previous: null };
    const none: Asset = {
      ...dollar,
      observedAt: null,
      sellers: [],
      benchmark: null,
      directions: { sell: side, buy: { ...dollar.directions.buy, best: null, previous: null } },
    };
    const doc = render(none, lang);
    expect(said(doc.querySelector(".status"))).toContain(ar ? "لم يُرصد أي سعر بعد" : "No price observed yet");
    expect(said(doc.querySelector("#sellers-h + p"))).toBe(
      ar ? "لم تسعّره أي جهة في هذا اليوم." : "No seller quoted it on this day.",
    );
    expect(doc.querySelectorAll(".side .muted").map(said)).toContain(
      ar ? "لا توجد أسعار لهذا الجانب." : "No seller quotes this side.",
    );
    expect(said(doc.querySelector(".refs dd"))).toBe(ar ? "لا يوجد سعر رسمي لهذا الأصل" : "none for this asset");
  });

  test("sources on probation: apart, each quote passed or refused and why, an unknown reason as its code", () => {
    const row = { id: "new", seller: "New Bank", sellerAr: null, source: "s-new", buy: 47.8, sell: 47.9 };
    const at = dollar.observedAt!;
    const probation = [
      { ...row, observedAt: at, passed: true, reason: null },
      { ...row, id: "x", observedAt: at, passed: false, reason: "crossed" },
      { ...row, id: "y", observedAt: at, passed: false, reason: "some-new-rule" },
    ];
    const doc = render({ ...dollar, probation }, lang);
    expect(said(doc.querySelector("#probation-h"))).toBe(ar ? "أسعار تحت الاختبار" : "Being checked");
    const results = doc.querySelectorAll(".probation tbody tr").map((tr) => said(tr.querySelectorAll("td").at(-1)));
    expect(results).toEqual(
      ar
        ? ["اجتاز الفحوص", "رُفض: سعر الشراء فيه أعلى من سعر البيع", "رُفض: some-new-rule"]
        : ["passed our checks", "refused: it pays more than it asks", "refused: some-new-rule"],
    );
    expect(render(dollar, lang).querySelector("#probation-h")).toBeNull();
  });

  test("a reference price: one box, named so, and no table of sellers", () => {
    const ref = ctx.feed.assets.find((a) => a.market === "reference")!;
    const doc = render(ref, lang);
    expect(said(doc.querySelector("#side-ref"))).toBe(ar ? "السعر المرجعي" : "Reference price");
    expect(doc.querySelector("#sellers-h")).toBeNull();
  });

  test("the share link: both sides' best, the day and time in Cairo, the page's address", () => {
    const p = (s: "sell" | "buy") => price(dollar.directions[s].best?.value, dollar.decimals, lang);
    const when = `${longDate(dollar.asOf, lang)}${ar ? "، " : ", "}${cairoClock(dollar.observedAt!, lang)}`;
    expect(shareText(dollar, lang, "https://prices.example/")).toBe(
      ar
        ? `دولار أمريكي: تشتري بـ ${p("sell")} جنيه، تبيع بـ ${p("buy")} جنيه (${when} بتوقيت القاهرة). https://prices.example/ar/assets/us-dollar/`
        : `US Dollar: You buy at ${p("sell")} EGP, You sell at ${p("buy")} EGP (${when} Cairo time). https://prices.example/assets/us-dollar/`,
    );
    expect(said(render(dollar, lang).querySelector(".share a"))).toBe(
      ar ? "شارك السعر على واتساب" : "Share the price on WhatsApp",
    );
  });
});
