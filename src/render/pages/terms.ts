/** The terms page (`_terms`, /terms/ and /ar/terms/): what the data is and is not, its licence, attribution and contact. */
import type { RenderContext } from "../../feed/site.js";
import { TERMS_PATH, type PageLang } from "../../feed/paths.js";
import { html } from "./html.js";
import { page } from "./page.js";
import { simulatedBanner } from "./words.js";
import { TERMS_WORDS } from "./terms-words.js";

export function renderTerms(ctx: RenderContext, lang: PageLang = "en"): string {
  const site = ctx.input.dataset.site;
  const list = ctx.input.dataset.sources.sources.filter((s) => s.enabled !== false);
  const items = list.map(
    (s) =>
      html`<li>${s.name} <span class="muted">(<code>${s.id}</code>)</span>${s.attribution ? ` — ${s.attribution}` : ""}</li>`,
  );
  // The sources' names and attributions are English: marked as such on the Arabic page.
  const sources = html`<ul${lang === "ar" ? html` lang="en" dir="ltr"` : ""}>${items}</ul>`;
  const w = TERMS_WORDS[lang];
  const feed = ctx.feed;
  return page({
    lang,
    path: TERMS_PATH,
    title: w.title,
    description: w.description,
    body: w.body({ disclaimer: feed._disclaimer, license: feed._license, simulated: site.simulated, sources }),
    baseUrl: site.baseUrl,
    ...simulatedBanner(site, lang),
  });
}
