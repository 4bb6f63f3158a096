/**
 * The home page (/ and /ar/): a short list of the assets, each with the best price on each side,
 * who offers it and the day's verdict in a few words, linking to the asset's own page for every
 * seller, the references and the chart. The same numbers as /api/v1/feed.json of the same build.
 */
import type { RenderContext } from "../../feed/site.js";
import type { Asset, Direction, Feed } from "../../schema/outputs.js";
import { FEED_PATH, assetPagePath, localized, type PageLang } from "../../feed/paths.js";
import { esc, nameIn, otherName, page } from "./html.js";
import { eventsSection } from "./events.js";
import { AR_SELLERS, arCount, cairoClock, count, price } from "./format.js";
import {
  buildDay,
  categoryTitle,
  freshnessWords,
  pricesOf,
  sideLabel,
  simulatedBanner,
  verdictLabel,
} from "./words.js";

function sideRow(a: Asset, side: "sell" | "buy", lang: PageLang): string {
  const d: Direction = a.directions[side];
  const who = d.best?.seller ? `<span class="who">${nameIn(lang, d.best.seller, d.best.sellerAr)}</span> ` : "";
  return `<dt>${esc(sideLabel(side, lang))}</dt><dd><span class="v">${price(d.best?.value, a.decimals, lang)}</span> ${who}<span class="tag v-${d.verdict}">${esc(verdictLabel(d.verdict, lang))}</span></dd>`;
}

function when(a: Asset, feed: Feed, lang: PageLang): string {
  const parts = [freshnessWords(a, lang)];
  if (a.asOf !== buildDay(feed)) parts.push(pricesOf(a, feed, lang));
  else if (a.observedAt)
    parts.push(
      lang === "ar"
        ? `${cairoClock(a.observedAt, lang)} بتوقيت القاهرة`
        : `${cairoClock(a.observedAt, lang)} Cairo time`,
    );
  if (a.market !== "reference")
    parts.push(
      lang === "ar"
        ? arCount(a.sellers.length, AR_SELLERS)
        : `${count(a.sellers.length, "en")} seller${a.sellers.length === 1 ? "" : "s"}`,
    );
  return parts.map(esc).join(" · ");
}

function item(a: Asset, feed: Feed, lang: PageLang): string {
  const ar = lang === "ar";
  const rows =
    a.market === "reference"
      ? `<dt>${ar ? "سعر مرجعي" : "Reference price"}</dt><dd><span class="v">${price(a.global?.value ?? a.series.at(-1)?.bench ?? null, a.decimals, lang)}</span> <span class="tag v-${a.directions[a.defaultSide].verdict}">${esc(verdictLabel(a.directions[a.defaultSide].verdict, lang))}</span></dd>`
      : `${sideRow(a, "sell", lang)}${sideRow(a, "buy", lang)}`;
  return `<li class="asset" id="${esc(a.slug)}">
<h3><a href="${localized(assetPagePath(a.slug), lang)}">${nameIn(lang, a.name, a.nameAr)}</a> ${otherName(lang, a.name, a.nameAr)}</h3>
<dl>${rows}</dl>
<p class="meta">${when(a, feed, lang)}</p>
</li>`;
}

export function renderHome(ctx: RenderContext, lang: PageLang): string {
  const { feed, input } = ctx;
  const ar = lang === "ar";
  const categories = [...new Set(feed.assets.map((a) => a.category))];
  const sections = categories
    .map((c) => {
      const assets = feed.assets.filter((a) => a.category === c);
      return `<section aria-labelledby="cat-${esc(c)}">
<h2 id="cat-${esc(c)}">${esc(categoryTitle(c, lang))}</h2>
<ul class="assets">${assets.map((a) => item(a, feed, lang)).join("\n")}</ul>
</section>`;
    })
    .join("\n");
  const intro = ar
    ? `<h1>أسعار العملات والذهب في مصر</h1>
<p class="lead">أفضل سعر لدى البنوك وشركات الصرافة وتجار الذهب المرخصين، مقارنةً بالأيام السابقة. اختر عملة أو عيارًا لترى سعر كل جهة والرسم البياني.</p>
<p class="note">عند الشراء: أقل سعر تطلبه جهة. عند البيع: أعلى سعر تدفعه جهة. الأسعار بالجنيه المصري للوحدة (للجرام في الذهب). الوصف يقارن بالأيام السابقة فقط، ولا يتوقع ما سيحدث.</p>`
    : `<h1>Currency and gold prices in Egypt</h1>
<p class="lead">The best price at licensed banks, exchange houses and gold dealers, and how it compares with the days before. Choose one for every seller's price and the chart.</p>
<p class="note">When you buy: the lowest price a seller asks. When you sell: the highest price a seller pays. Prices are in Egyptian pounds per unit (per gram for gold). The verdict compares with the days before; it never forecasts.</p>`;
  const body = `${intro}
${sections}
${eventsSection(ctx, lang)}
<p class="note">${ar ? "البيانات نفسها بصيغة JSON للمطورين:" : "The same data as JSON, for developers:"} <a href="${FEED_PATH}"><code>${FEED_PATH}</code></a></p>`;
  return page({
    lang,
    path: "/",
    title: ar ? "أسعار العملات والذهب في مصر · Price Feed" : "Currency and gold prices in Egypt · Price Feed",
    description: ar
      ? "أفضل أسعار العملات والذهب لدى الجهات المرخصة في مصر، مع سعر كل بنك وصرافة وتاجر."
      : "Best licensed prices for currencies and gold in Egypt, with every bank's, exchange house's and dealer's price.",
    body,
    baseUrl: input.dataset.site.baseUrl,
    ...simulatedBanner(input.dataset.site, lang),
  });
}
