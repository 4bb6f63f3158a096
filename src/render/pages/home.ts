/**
 * The home page (/ and /ar/): one table per category, a row per asset with the best price on each
 * side, its move since the previous close and who offers it (the verdict only when it says
 * something), each linking to the asset's own page. The nine headline assets come first and the
 * rest are one tap away (lineup.ts); the What changed section (events.ts) follows. The same numbers as
 * /api/v1/feed.json of the same build.
 */
import type { RenderContext } from "../../feed/site.js";
import type { Asset, Direction } from "../../schema/outputs.js";
import { assetPagePath, localized, type PageLang } from "../../feed/paths.js";
import { newestObservation } from "./app.js";
import { html, join, nameIn, otherName, type SafeHtml } from "./html.js";
import { page } from "./page.js";
import { cairoClock, price, weekdayDate } from "./format.js";
import { goldNote } from "./gold.js";
import { changeMark, moveKey } from "./change.js";
import { headlineOf, pageOrder } from "./lineup.js";
import {
  categoryTitle,
  freshnessWords,
  otherCategoryTitle,
  shortVerdict,
  simulatedBanner,
  sideLabel,
} from "./words.js";
import { eventsSection } from "./events.js";
import { HOME_WORDS } from "./home-words.js";
import { CARD, HOME_CARD_PATH, homeCardAlt } from "./card-image.js";
import { bestSellerId, sellerIndex, sellerLink } from "./seller-links.js";

/**
 * One side of an asset, a cell: the best price and its move, who offers it, and the verdict only
 * when it says something (cheaper or dearer than usual; the asset's page has the rest), so that
 * the headline assets fit a phone's first two screens. Who offers it links to the seller's page.
 */
function sideCell(a: Asset, side: "sell" | "buy", lang: PageLang, pages: ReadonlySet<string>): SafeHtml {
  const d: Direction = a.directions[side];
  const name = d.best?.seller
    ? sellerLink(pages, bestSellerId(a, side), nameIn(lang, d.best.seller, d.best.sellerAr), lang)
    : "";
  const who = name ? html`<span class="who">${name}</span>` : "";
  const moved = d.previous ? changeMark(d.previous.change, a.decimals, lang, { side }) : "";
  const v = d.verdict;
  const tag =
    v === "favorable" || v === "weak" ? html`<span class="tag v-${v}">${shortVerdict(v, side, lang)}</span>` : "";
  return html`<td class="n"><span class="v">${price(d.best?.value, a.decimals, lang)}</span>${moved}${who}${tag}</td>`;
}

/** The day and time of an asset's latest price (never a time alone), or nothing without one. */
const timeOf = (a: Asset, lang: PageLang) =>
  a.observedAt ? `${weekdayDate(a.observedAt, lang)} · ${cairoClock(a.observedAt, lang)}` : "";

/** The value most of `xs` share (the first met of the most frequent): what a table says once. */
function mostShared(xs: readonly string[]): string {
  const n = new Map<string, number>();
  for (const x of xs) n.set(x, (n.get(x) ?? 0) + 1);
  let best = xs[0] ?? "";
  for (const x of xs) if (n.get(x)! > n.get(best)!) best = x;
  return best;
}

/**
 * A table's state and time, said once (its caption) rather than on every row: the market state
 * most of its rows share when it is not plain "up to date" ("Market closed: these are the latest
 * prices"), with the day and time when every row has the same. A row says only where it differs:
 * its own state, its own time. On a phone every row repeating the closed market's words pushed the
 * headline tables past two screens (issue 43). An up-to-date table has no caption: its rows keep
 * their time, which costs them no height (the price cells beside it are taller), where a caption
 * would cost a line.
 */
export function tableWhen(assets: readonly Asset[], lang: PageLang): { caption: string; row: (a: Asset) => string } {
  const state = mostShared(assets.map((a) => a.freshness.state));
  const first = assets.find((a) => a.freshness.state === state);
  if (!first || state === "fresh") {
    const own = (a: Asset) => (a.freshness.state === "fresh" ? "" : freshnessWords(a, lang));
    return { caption: "", row: (a) => [own(a), timeOf(a, lang)].filter(Boolean).join(" · ") };
  }
  const times = new Set(assets.map((a) => timeOf(a, lang)));
  const time = times.size === 1 ? [...times][0]! : "";
  return {
    caption: [freshnessWords(first, lang), time].filter(Boolean).join(" · "),
    row: (a) =>
      [a.freshness.state === state ? "" : freshnessWords(a, lang), time ? "" : timeOf(a, lang)]
        .filter(Boolean)
        .join(" · "),
  };
}

function row(a: Asset, lang: PageLang, when: string, pages: ReadonlySet<string>): SafeHtml {
  const cells =
    a.market === "reference"
      ? html`<td class="n" colspan="2"><span class="v">${price(a.global?.value ?? a.series.at(-1)?.bench ?? null, a.decimals, lang)}</span><span class="who">${HOME_WORDS[lang].reference}</span></td>`
      : html`${sideCell(a, "sell", lang, pages)}${sideCell(a, "buy", lang, pages)}`;
  const other = otherName(lang, a.name, a.nameAr);
  return html`<tr id="${a.slug}"><th scope="row"><a href="${localized(assetPagePath(a.slug), lang)}">${nameIn(lang, a.name, a.nameAr)}</a>${other ? html`<span class="sub">${other}</span>` : ""}${when ? html`<span class="sub">${when}</span>` : ""}</th>${cells}</tr>`;
}

/**
 * The assets by category, each category a section with its heading and one table. The rest under
 * "Every price" (`more`) names its sections apart, so that no two regions share a name.
 */
function sections(
  assets: readonly Asset[],
  lang: PageLang,
  idPrefix: string,
  pages: ReadonlySet<string>,
  more = false,
): SafeHtml {
  const categories = [...new Set(assets.map((a) => a.category))];
  const section = (c: string) => {
    const id = `${idPrefix}${c}`;
    const listed = assets.filter((a) => a.category === c);
    const when = tableWhen(listed, lang);
    const rows = listed.map((a) => row(a, lang, when.row(a), pages));
    return html`<section class="market" aria-labelledby="${id}">
<h2 id="${id}">${more ? otherCategoryTitle(c, lang) : categoryTitle(c, lang)}</h2>
<table class="market">${when.caption ? html`<caption class="when">${when.caption}</caption>` : ""}<thead><tr><th scope="col">${categoryTitle(c, lang)}</th><th scope="col" class="n">${sideLabel("sell", lang)}</th><th scope="col" class="n">${sideLabel("buy", lang)}</th></tr></thead>
<tbody>${join(rows, "\n")}</tbody></table>
${goldNote(listed, lang)}
</section>`;
  };
  return join(categories.map(section), "\n");
}

export function renderHome(ctx: RenderContext, lang: PageLang): string {
  const { feed, input } = ctx;
  const w = HOME_WORDS[lang];
  const ordered = pageOrder(feed.assets);
  const isHeadline = headlineOf(ordered);
  const pages = sellerIndex(ctx).pages;
  const rest = ordered.filter((a) => !isHeadline(a));
  // The headline assets fit a phone's first two screens; the others are one tap away, unfolded by
  // <details> without script.
  const more = rest.length
    ? html`<details class="more"><summary>${w.more(rest.length)}</summary>
${sections(rest, lang, "more-", pages, true)}
</details>`
    : "";
  const intro = html`<h1>${w.heading}</h1>
<p class="lead home-lead">${w.lead}</p>`;
  const body = html`${intro}
${sections(ordered.filter(isHeadline), lang, "cat-", pages)}
${more}
${moveKey(lang)}
${eventsSection(ctx, lang)}`;
  return page({
    lang,
    path: "/",
    title: `${w.heading} · Price Feed`,
    description: w.description,
    body,
    baseUrl: input.dataset.site.baseUrl,
    // The market at a glance, for a link shared in a chat (card-image.ts homeCardSvg).
    image: { path: HOME_CARD_PATH, alt: homeCardAlt(feed.assets, lang), ...CARD },
    // A saved copy's banner counts the age of the newest price on the page (app.ts).
    pricesAt: newestObservation(feed.assets),
    ...simulatedBanner(input.dataset.site, lang),
  });
}
