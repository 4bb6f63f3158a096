/**
 * The sources page (/sources/ and /ar/sources/): source health from /api/v1/sources.json, the first
 * thing to look at when a number seems wrong — each source's kind, the assets it fed on their
 * business dates, when it was last read successfully (or that it never has been), when and why a
 * read last failed (times in Cairo), and how its format is known. The words are SOURCE_WORDS.
 */
import type { RenderContext } from "../../feed/site.js";
import { SOURCES_PAGE_PATH, SOURCES_PATH, type PageLang } from "../../feed/paths.js";
import type { SourceHealth } from "../../schema/documents.js";
import { english, html, join, nameIn, nameText, type SafeHtml } from "./html.js";
import { page } from "./page.js";
import { cairoDay, dayAndTime, fullDate } from "./format.js";
import { simulatedBanner, SOURCE_WORDS, sourceWord } from "./words.js";
import { SOURCES_WORDS } from "./sources-words.js";

type Status = SourceHealth["sources"][number];

const at = (iso: string, lang: PageLang) => html`<time datetime="${iso}">${dayAndTime(iso, lang)}</time>`;

/**
 * When the source was last read successfully, or why no time can be given. ingest keeps a source's
 * last success for good, so one that ran (lastRunAt) without one has never been read successfully;
 * one with no run on record (a data folder copied without ingest's record, or a source not run yet)
 * is not read yet, unless prices of it are here, and then only the time is unknown.
 */
function lastSuccess(s: Status, lang: PageLang): SafeHtml | string {
  if (s.lastSuccessAt !== null) return at(s.lastSuccessAt, lang);
  if (s.lastRunAt !== null) return sourceWord(SOURCE_WORDS.neverSucceeded, lang);
  return sourceWord(s.assets.length ? SOURCE_WORDS.readWhenUnknown : SOURCE_WORDS.notReadYet, lang);
}

/** When a read last failed and the reason as ingest gave it (English, isolated, escaped), or that none has. */
function lastFailure(s: Status, lang: PageLang): SafeHtml | string {
  if (s.lastFailure) return html`${at(s.lastFailure.at, lang)}: ${english(s.lastFailure.reason)}`;
  return sourceWord(s.lastRunAt !== null ? SOURCE_WORDS.noFailure : SOURCE_WORDS.failureUnknown, lang);
}

/** How the format is known, when the copy was saved, and each citation on a line of its own, left to right. */
function evidence(s: Status, lang: PageLang): SafeHtml | string {
  const e = s.evidence;
  if (!e) return sourceWord(SOURCE_WORDS.evidenceNone, lang);
  const day = e.recordedAt === undefined ? null : e.recordedAt.length === 10 ? e.recordedAt : cairoDay(e.recordedAt);
  const saved = day ? ` (${sourceWord(SOURCE_WORDS.savedOn, lang)} ${fullDate(day, lang)})` : "";
  const where = e.where.map((w) => html`<span class="sub"><bdi dir="ltr">${w}</bdi></span>`);
  return html`${sourceWord(SOURCE_WORDS.evidence[e.kind], lang)}${saved}${where}`;
}

/** Where the source stands on probation, in plain words: counted, or being checked with its runs so far. */
function standing(s: Status, lang: PageLang): SafeHtml | string {
  const w = SOURCES_WORDS[lang];
  const p = s.probation;
  if (p.standing === "counted") return w.counted;
  if (p.standing === "graduated")
    return html`${w.graduated}${p.since ? html`<span class="sub">${w.since} ${at(p.since, lang)}</span>` : ""}`;
  const since = p.since ? html` ${w.since} ${at(p.since, lang)}` : "";
  return html`${w.probation}<span class="sub">${p.runs ?? 0} ${w.runs} ${p.runsNeeded ?? ""}${since}</span>`;
}

/**
 * Every seller of the registry, who licenses or registers it (in Arabic on the Arabic page where the
 * registry gives the body's Arabic name, `licensedByAr`), and whether the operator checked it.
 */
export function registryTable(
  health: SourceHealth,
  lang: PageLang,
  registry: ReadonlyArray<{ id: string; licensedByAr?: string | undefined }> = [],
): SafeHtml {
  const arabicBody = new Map(registry.map((s) => [s.id, s.licensedByAr]));
  const w = SOURCES_WORDS[lang];
  const rows = health.sellers.map((r) => {
    const check = r.verified
      ? html`${w.verifiedAt} <bdi dir="ltr">${r.verified.where}</bdi> ${w.on} ${fullDate(r.verified.at, lang)}`
      : r.kind === "gold-dealer"
        ? w.notVerified
        : w.licenceNotVerified;
    return html`<tr id="seller-${r.id}"><th scope="row">${nameIn(lang, r.name, r.nameAr ?? undefined)}</th><td data-label="${w.by}">${nameIn(lang, r.licensedBy, arabicBody.get(r.id))}</td><td data-label="${w.check}">${check}</td></tr>`;
  });
  return html`<h2>${w.registryHead}</h2><p>${w.registryIntro}</p>
<table class="sources-health"><thead><tr><th scope="col">${w.seller}</th><th scope="col">${w.by}</th><th scope="col">${w.check}</th></tr></thead>
<tbody>${join(rows, "\n")}</tbody></table>`;
}

export function sourcesTable(
  health: SourceHealth,
  names: ReadonlyMap<string, string>,
  lang: PageLang,
  arabicNames: ReadonlyMap<string, string | undefined> = new Map(),
): SafeHtml {
  const w = SOURCES_WORDS[lang];
  const head = {
    source: w.source,
    fed: w.fed,
    ok: sourceWord(SOURCE_WORDS.head.success, lang),
    failed: sourceWord(SOURCE_WORDS.head.failure, lang),
    evidence: sourceWord(SOURCE_WORDS.head.evidence, lang),
    standing: w.standing,
  };
  const rows = health.sources.map((s) => {
    const fed = s.assets.length ? s.assets.map((id) => names.get(id) ?? id).join(w.comma) : "—";
    return html`<tr id="source-${s.id}"><th scope="row">${nameIn(lang, s.name, arabicNames.get(s.id))}<span class="sub">${w.kind[s.kind]}${s.enabled ? "" : w.disabled}</span></th><td data-label="${head.fed}">${fed}</td><td data-label="${head.ok}">${lastSuccess(s, lang)}</td><td data-label="${head.failed}">${lastFailure(s, lang)}</td><td data-label="${head.evidence}">${evidence(s, lang)}</td><td data-label="${head.standing}">${standing(s, lang)}</td></tr>`;
  });
  return html`<table class="sources-health"><caption>${w.caption}</caption>
<thead><tr><th scope="col">${head.source}</th><th scope="col">${head.fed}</th><th scope="col">${head.ok}</th><th scope="col">${head.failed}</th><th scope="col">${head.evidence}</th><th scope="col">${head.standing}</th></tr></thead>
<tbody>${join(rows, "\n")}</tbody></table>`;
}

export function renderSources(ctx: RenderContext, lang: PageLang): string {
  const w = SOURCES_WORDS[lang];
  const site = ctx.input.dataset.site;
  // One kind of digit per page, as on the other Arabic pages (nameText).
  const names = new Map(ctx.feed.assets.map((a) => [a.id, nameText(lang, a.name, a.nameAr)]));
  return page({
    lang,
    path: SOURCES_PAGE_PATH,
    title: w.title,
    description: w.description,
    body: html`${w.intro(SOURCES_PATH)}\n${sourcesTable(ctx.sources, names, lang, new Map(ctx.input.dataset.sources.sources.map((s) => [s.id, s.nameAr])))}\n${registryTable(ctx.sources, lang, ctx.input.dataset.registry)}`,
    baseUrl: site.baseUrl,
    ...simulatedBanner(site, lang),
  });
}
