/**
 * What changed (docs/methodology.md §12) in plain words, English and Arabic: one sentence per event,
 * as the pages' "What changed" section shows the latest and the Atom feeds title every entry. The
 * words describe what was seen; like the rest of the pages, none forecasts (§6.6). The section shows
 * them after the day-by-day changes of the archive's closes (changed.ts).
 */
import type { RenderContext } from "../../feed/site.js";
import { EVENTS_ATOM_PATH, EVENTS_PATH, files, urlOf, type PageLang } from "../../feed/paths.js";
import { EVENTS_ON_PAGES } from "../../core/methodology.js";
import type { ConfidenceLevel, FreshnessState } from "../../schema/outputs.js";
import type { Event, OfficialRateValue } from "../../schema/events.js";
import { html, join, type SafeHtml } from "./html.js";
import { AR_DAYS, arCount, cairoClock, count, longDate, price, westernDigits } from "./format.js";
import { RECENT_DAYS } from "./recent.js";
import { assetChanges, marketChanges } from "./changed.js";
import { sideLabel, verdictLabel } from "./words.js";

/** What a sentence needs to name an event's asset or source. */
export interface EventNames {
  asset(slug: string): { name: string; nameAr: string; decimals: number } | undefined;
  source(id: string): string | undefined;
}

/** The names of a build's assets and sources, for its events. */
export function eventNames(ctx: RenderContext): EventNames {
  const assets = new Map(ctx.feed.assets.map((a) => [a.slug, a]));
  const sources = new Map(ctx.input.dataset.sources.sources.map((s) => [s.id, s.name]));
  return { asset: (slug) => assets.get(slug), source: (id) => sources.get(id) };
}

const FRESHNESS: Record<FreshnessState, [string, string]> = {
  fresh: ["up to date", "محدّثة"],
  closed: ["the latest before the market closed", "آخر أسعار قبل إغلاق السوق"],
  delayed: ["delayed", "متأخرة"],
  stale: ["out of date", "قديمة"],
};
const CONFIDENCE: Record<ConfidenceLevel, [string, string]> = {
  high: ["high", "عالية"],
  medium: ["medium", "متوسطة"],
  low: ["low", "منخفضة"],
  none: ["none", "منعدمة"],
};
const say = (lang: PageLang, [en, ar]: readonly [string, string]) => (lang === "ar" ? ar : en);

/** One event in a sentence, as plain text (the caller escapes it). */
export function eventSentence(e: Event, names: EventNames, lang: PageLang): string {
  const ar = lang === "ar";
  if (e.kind === "source") {
    const name = names.source(e.source ?? "") ?? e.source ?? "";
    return e.after.state === "failing"
      ? say(lang, [
          `${name} started failing: ${e.after.reason ?? ""}`,
          `المصدر ${name} بدأ يتعثر: ${e.after.reason ?? ""}`,
        ])
      : say(lang, [
          `${name} works again (it had failed: ${e.before.reason ?? ""})`,
          `المصدر ${name} يعمل من جديد (كان قد تعثر: ${e.before.reason ?? ""})`,
        ]);
  }
  if (e.kind === "probation") {
    const name = names.source(e.source ?? "") ?? e.source ?? "";
    return e.after.standing === "graduated"
      ? say(lang, [
          `${name} finished its probation: its prices count from now on (${e.after.reason ?? ""})`,
          `المصدر ${name} أنهى فترة الاختبار: أسعاره تُحتسب من الآن (${e.after.reason ?? ""})`,
        ])
      : say(lang, [
          `${name} is being checked again: its prices do not count until it proves itself (${e.after.reason ?? ""})`,
          `المصدر ${name} تحت الاختبار من جديد: أسعاره لا تُحتسب حتى يثبت سلامتها (${e.after.reason ?? ""})`,
        ]);
  }
  const a = names.asset(e.asset ?? "");
  const who = a ? (ar ? westernDigits(a.nameAr) : a.name) : (e.asset ?? "");
  const p = (v: number | null | undefined) => price(v, a?.decimals ?? 2, lang);
  const subject = e.side ? `${who}${ar ? "، " : ", "}${sideLabel(e.side, lang).toLowerCase()}` : who;
  switch (e.kind) {
    case "best-seller": {
      const at = (b: typeof e.after) =>
        b?.seller
          ? `${ar ? (b.sellerAr ?? b.seller) : b.seller} (${p(b.value)})`
          : say(lang, ["no seller", "لا توجد جهة"]);
      return say(lang, [
        `${subject}: the best price is now at ${at(e.after)}, was at ${at(e.before)}`,
        `${subject}: أفضل سعر الآن لدى ${at(e.after)}، وكان لدى ${at(e.before)}`,
      ]);
    }
    case "verdict": {
      // A verdict is said from the reader's side (words.ts VERDICT_WORDS); events of a side carry it.
      const side = e.side ?? "sell";
      return say(lang, [
        `${subject}: now “${verdictLabel(e.after, side, lang)}”, was “${verdictLabel(e.before, side, lang)}”`,
        `${subject}: الآن «${verdictLabel(e.after, side, lang)}»، وكان «${verdictLabel(e.before, side, lang)}»`,
      ]);
    }
    case "official-rate": {
      const rate = (r: OfficialRateValue | null) =>
        r
          ? // The customer's words for the two sides, as everywhere on the pages (words.ts SIDE_WORDS).
            `${sideLabel("sell", lang).toLowerCase()} ${p(r.sell)} · ${sideLabel("buy", lang).toLowerCase()} ${p(r.buy)}`
          : say(lang, ["none in force", "لا يوجد سعر سارٍ"]);
      return say(lang, [
        `${subject}: the Central Bank of Egypt's official rate is now: ${rate(e.after)}; was: ${rate(e.before)}`,
        `${subject}: السعر الرسمي للبنك المركزي المصري الآن: ${rate(e.after)}؛ وكان: ${rate(e.before)}`,
      ]);
    }
    case "freshness":
      return say(lang, [
        `${subject}: prices are now ${say(lang, FRESHNESS[e.after])}, were ${say(lang, FRESHNESS[e.before])}`,
        `${subject}: الأسعار الآن ${say(lang, FRESHNESS[e.after])}، وكانت ${say(lang, FRESHNESS[e.before])}`,
      ]);
    case "confidence":
      return say(lang, [
        `${subject}: confidence is now ${say(lang, CONFIDENCE[e.after])}, was ${say(lang, CONFIDENCE[e.before])}`,
        `${subject}: درجة الثقة الآن ${say(lang, CONFIDENCE[e.after])}، وكانت ${say(lang, CONFIDENCE[e.before])}`,
      ]);
  }
}

/** When a build saw it, in Cairo: "Thursday 19 November, 14:00". */
export const eventWhen = (e: Event, lang: PageLang) =>
  `${longDate(e.date, lang)}${lang === "ar" ? "، " : ", "}${cairoClock(e.at, lang)}`;

/**
 * The "What changed" section of a page, over the last RECENT_DAYS days: on an asset's page (`slug`)
 * the day-by-day table of its closes (recent.ts) with a sentence per side, then, hour by hour,
 * what the hourly builds saw (the events, docs/methodology.md §12) when there is any; on the home
 * page (`slug` null) a row per asset with each side's move over the days and how often its best
 * changed hands, then the latest events. Each part says only what its data shows: no events (a
 * build from `data/` alone has none) is no list, never "nothing changed".
 */
export function eventsSection(ctx: RenderContext, lang: PageLang, slug: string | null = null): SafeHtml {
  const ar = lang === "ar";
  const atom = slug === null ? EVENTS_ATOM_PATH : urlOf(files.assetEventsAtom(slug));
  const json = slug === null ? EVENTS_PATH : urlOf(files.assetEvents(slug));
  const asset = slug === null ? null : ctx.feed.assets.find((a) => a.slug === slug);
  const closes = asset ? assetChanges(ctx, asset, lang) : marketChanges(ctx, lang);
  return html`<section aria-labelledby="changed-h" class="events">
<h2 id="changed-h">${ar ? `ما الذي تغيّر في آخر ${arCount(RECENT_DAYS, AR_DAYS, "genitive")}` : `What changed in the last ${RECENT_DAYS} days`}</h2>
${closes}
${hourly(ctx, lang, slug)}
<p class="note">${ar ? "تابع كل التغييرات:" : "Follow every change:"} <a href="${atom}" type="application/atom+xml" dir="ltr">Atom</a> · <a href="${json}" type="application/json" dir="ltr">JSON</a></p>
</section>`;
}

/** The events of the window, newest first: the latest EVENTS_ON_PAGES shown, the others folded. */
function hourly(ctx: RenderContext, lang: PageLang, slug: string | null): SafeHtml | "" {
  const ar = lang === "ar";
  const events = ctx.events(slug).events;
  if (events.length === 0) return "";
  const names = eventNames(ctx);
  const item = (e: Event) =>
    html`<li><span class="muted">${eventWhen(e, lang)}</span> — ${eventSentence(e, names, lang)}</li>`;
  const shown = events.slice(0, EVENTS_ON_PAGES).map(item);
  const rest = events.slice(EVENTS_ON_PAGES).map(item);
  const head = ar ? "ساعة بساعة" : "Hour by hour";
  return html`<h3>${head}</h3>
<ul>${join(shown, "\n")}</ul>${
    rest.length
      ? html`\n<details><summary>${ar ? `كل التغييرات ساعة بساعة (${count(events.length, "ar")})` : `Every hourly change (${count(events.length, "en")})`}</summary><ul>${join(rest, "\n")}</ul></details>`
      : ""
  }`;
}
