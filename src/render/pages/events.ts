/**
 * What changed (docs/methodology.md §12) in plain words, English and Arabic: one sentence per event,
 * as the pages' "What changed" section shows the latest and the Atom feeds title every entry. The
 * words describe what was seen; like the rest of the pages, none forecasts (§6.6). The section shows
 * them after the day-by-day changes of the archive's closes (changed.ts).
 */
import type { RenderContext } from "../../feed/site.js";
import { EVENTS_ATOM_PATH, EVENTS_PATH, files, urlOf, type PageLang } from "../../feed/paths.js";
import { EVENTS_ON_PAGES } from "../../core/methodology.js";
import type { Event, OfficialRateValue } from "../../schema/events.js";
import { html, join, nameText, type SafeHtml } from "./html.js";
import { cairoClock, count, longDate, price } from "./format.js";
import { RECENT_DAYS } from "./recent.js";
import { assetChanges, marketChanges } from "./changed.js";
import { sideLabel, verdictLabel } from "./words.js";
import { EVENTS_WORDS } from "./events-words.js";

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

/** One event in a sentence, as plain text (the caller escapes it). */
export function eventSentence(e: Event, names: EventNames, lang: PageLang): string {
  const w = EVENTS_WORDS[lang];
  if (e.kind === "source") {
    const name = names.source(e.source ?? "") ?? e.source ?? "";
    return e.after.state === "failing"
      ? w.failing(name, e.after.reason ?? "")
      : w.worksAgain(name, e.before.reason ?? "");
  }
  if (e.kind === "probation") {
    const name = names.source(e.source ?? "") ?? e.source ?? "";
    return e.after.standing === "graduated"
      ? w.graduated(name, e.after.reason ?? "")
      : w.rechecked(name, e.after.reason ?? "");
  }
  const a = names.asset(e.asset ?? "");
  const who = a ? nameText(lang, a.name, a.nameAr) : (e.asset ?? "");
  const p = (v: number | null | undefined) => price(v, a?.decimals ?? 2, lang);
  // Lower case inside the sentence (Arabic has none: toLowerCase leaves it as it is).
  const subject = e.side ? `${who}${w.comma}${sideLabel(e.side, lang).toLowerCase()}` : who;
  switch (e.kind) {
    case "best-seller": {
      // A seller's Arabic name as the event recorded it.
      const seller = (b: NonNullable<typeof e.after>) => (lang === "ar" ? (b.sellerAr ?? b.seller) : b.seller) ?? "";
      const at = (b: typeof e.after) => (b?.seller ? `${seller(b)} (${p(b.value)})` : w.noSeller);
      // The best moved to another seller at the price it had, as shown: the price did not change,
      // only who offers it (issue 53), so the sentence says so rather than "13.17, was 13.17".
      if (e.after?.seller && e.before?.seller && p(e.after.value) === p(e.before.value))
        return w.bestSellerAlso(subject, p(e.after.value), seller(e.after), seller(e.before));
      return w.bestSeller(subject, at(e.after), at(e.before));
    }
    case "verdict": {
      // A verdict is said from the reader's side (words.ts VERDICT_WORDS); events of a side carry it.
      const side = e.side ?? "sell";
      return w.verdict(subject, verdictLabel(e.after, side, lang), verdictLabel(e.before, side, lang));
    }
    case "official-rate": {
      const rate = (r: OfficialRateValue | null) =>
        r
          ? // The customer's words for the two sides, as everywhere on the pages (words.ts SIDE_WORDS).
            `${sideLabel("sell", lang).toLowerCase()} ${p(r.sell)} · ${sideLabel("buy", lang).toLowerCase()} ${p(r.buy)}`
          : w.noOfficial;
      return w.official(subject, rate(e.after), rate(e.before));
    }
    case "freshness":
      return w.freshness(subject, w.states[e.after], w.states[e.before]);
    case "confidence":
      return w.confidence(subject, w.levels[e.after], w.levels[e.before]);
  }
}

/** When a build saw it, in Cairo: "Thursday 19 November, 14:00". */
export const eventWhen = (e: Event, lang: PageLang) =>
  `${longDate(e.date, lang)}${EVENTS_WORDS[lang].comma}${cairoClock(e.at, lang)}`;

/**
 * The "What changed" section of a page, over the last RECENT_DAYS days: on an asset's page (`slug`)
 * the day-by-day table of its closes (recent.ts) with a sentence per side, then, hour by hour,
 * what the hourly builds saw (the events, docs/methodology.md §12) when there is any; on the home
 * page (`slug` null) a row per asset with each side's move over the days and how often its best
 * changed hands, then the latest events. Each part says only what its data shows: no events (a
 * build from `data/` alone has none) is no list, never "nothing changed".
 */
export function eventsSection(ctx: RenderContext, lang: PageLang, slug: string | null = null): SafeHtml {
  const w = EVENTS_WORDS[lang];
  const atom = slug === null ? EVENTS_ATOM_PATH : urlOf(files.assetEventsAtom(slug));
  const json = slug === null ? EVENTS_PATH : urlOf(files.assetEvents(slug));
  const asset = slug === null ? null : ctx.feed.assets.find((a) => a.slug === slug);
  const closes = asset ? assetChanges(ctx, asset, lang) : marketChanges(ctx, lang);
  return html`<section aria-labelledby="changed-h" class="events">
<h2 id="changed-h">${w.title(RECENT_DAYS)}</h2>
${closes}
${hourly(ctx, lang, slug)}
<p class="note">${w.follow} <a href="${atom}" type="application/atom+xml" dir="ltr">Atom</a> · <a href="${json}" type="application/json" dir="ltr">JSON</a></p>
</section>`;
}

/** The events of the window, newest first: the latest EVENTS_ON_PAGES shown, the others folded. */
function hourly(ctx: RenderContext, lang: PageLang, slug: string | null): SafeHtml | "" {
  const w = EVENTS_WORDS[lang];
  const events = ctx.events(slug).events;
  if (events.length === 0) return "";
  const names = eventNames(ctx);
  const item = (e: Event) =>
    html`<li><span class="muted">${eventWhen(e, lang)}</span> — ${eventSentence(e, names, lang)}</li>`;
  const shown = events.slice(0, EVENTS_ON_PAGES).map(item);
  const rest = events.slice(EVENTS_ON_PAGES).map(item);
  return html`<h3>${w.hourByHour}</h3>
<ul>${join(shown, "\n")}</ul>${
    rest.length
      ? html`\n<details><summary>${w.everyHourly(count(events.length, lang))}</summary><ul>${join(rest, "\n")}</ul></details>`
      : ""
  }`;
}
