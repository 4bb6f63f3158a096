/**
 * The pages people read, in English and in Arabic (under /ar/): home, one page per asset, terms,
 * sources, the docs, one page per seller with the list of sellers, one page per past day with the
 * list of days, and the page for an address that has none.
 */
import { HTML_TYPE, type Renderer, type SiteFile } from "../../feed/site.js";
import { flat } from "../../core/flat.js";
import {
  DOCS_PATH,
  SELLERS_PAGE_PATH,
  SOURCES_PAGE_PATH,
  TERMS_PATH,
  assetPagePath,
  files,
  localized,
  sellerPagePath,
  type PageLang,
} from "../../feed/paths.js";
import { renderDocs } from "./docs.js";
import { renderArabicDocs } from "./docs-ar.js";
import { renderHome } from "./home.js";
import { renderTerms } from "./terms.js";
import { renderSources } from "./sources.js";
import { renderAssetPage } from "./asset.js";
import { AMOUNT_SCRIPT, AMOUNT_SCRIPT_PATH, SCRIPT_TYPE } from "./amount-script.js";
import { cardImages } from "./card-image.js";
import { appFiles } from "./app.js";
import { crawlFiles } from "./crawl.js";
import { dayPages, pastDays } from "./day.js";
import { renderNotFound } from "./not-found.js";
import { renderSellerPage, renderSellersIndex } from "./seller-page.js";

/** A page's file; its text is flattened (core/flat.ts): a page is rendered from many small pieces. */
const page = (path: string, body: string, etagInput = () => body): SiteFile => ({
  path,
  body: flat(body),
  contentType: HTML_TYPE,
  etagInput,
});
const LANGS: readonly PageLang[] = ["en", "ar"];

/** Each page is rendered when the next is asked for (composeSite writes one before making another). */
export const pageRenderer: Renderer = function* (ctx) {
  // An asset's two pages one after the other: what they share (its history, for its charts by
  // period and its changes, periods.ts and recent.ts) is read once and let go before the next
  // asset's. The home page comes after them: it lists every asset's changes, which they made.
  for (const a of ctx.feed.assets)
    for (const lang of LANGS)
      yield page(files.page(localized(assetPagePath(a.slug), lang)), renderAssetPage(ctx, a, lang));
  for (const lang of LANGS) yield page(files.page(localized("/", lang)), renderHome(ctx, lang));
  for (const lang of LANGS) {
    yield page(files.page(localized(TERMS_PATH, lang)), renderTerms(ctx, lang));
    yield page(files.page(localized(SOURCES_PAGE_PATH, lang)), renderSources(ctx, lang));
  }
  // Every seller's record as a page (seller-page.ts), from the documents /api/v1/sellers*.json publish.
  for (const lang of LANGS) yield page(files.page(localized(SELLERS_PAGE_PATH, lang)), renderSellersIndex(ctx, lang));
  for (const [id, doc] of ctx.sellers.records)
    for (const lang of LANGS)
      yield page(files.page(localized(sellerPagePath(id), lang)), renderSellerPage(ctx, doc, lang));
  // The docs quote a real answer, generatedAt included: as for the feed, the build instant is not
  // part of the ETag, so an hourly rebuild of unchanged data keeps the page's ETag.
  const docs = renderDocs(ctx);
  yield page(files.docs, docs, () => docs.split(ctx.feed.generatedAt).join(""));
  yield page(files.page(localized(DOCS_PATH, "ar")), renderArabicDocs(ctx));
  // The page for an address that has none, at the root where static hosts look for it (not-found.ts).
  for (const lang of LANGS) yield page(files.notFound(lang), renderNotFound(ctx, lang));
  // robots.txt, and sitemap.xml with the base URL (crawl.ts), the past days' pages in it.
  yield* crawlFiles(ctx.feed, ctx.input.dataset.site.baseUrl, pastDays(ctx), [...ctx.sellers.records.keys()]);
  // Each asset's card as a picture for shared links (og:image): drawn here, made PNG by the sink.
  // The cards are what a shared link shows (og:image), which needs the base URL: without one no page
  // names them, and drawing them (tens of ms each) would be work for nobody.
  if (ctx.input.dataset.site.baseUrl) yield* cardImages(ctx.feed.assets, ctx.input.dataset.site);
  // The asset pages' script (amount-script.ts), a file of the site as PAGE_CSP's 'self' asks.
  yield {
    path: AMOUNT_SCRIPT_PATH.slice(1),
    body: AMOUNT_SCRIPT,
    contentType: SCRIPT_TYPE,
    etagInput: () => AMOUNT_SCRIPT,
  };
  // The web app (app.ts): its icons, manifests and the pages' second script, then the service
  // worker, whose version is the digest of theirs and of the script above.
  yield* appFiles(ctx);
  // Every past day's pages, one day's document read at a time (day.ts); a closed day's kept as published.
  yield* dayPages(ctx);
};
