/**
 * What the world serves of a sources file: each enabled network source's plan (a document and how
 * its mapping writes it, the CBE, the global reference), or why it is not served. Every body is
 * written once at a check instant and read with the source's real reader (src/ingest/adapters)
 * before the source is served: what the world writes is what ingest reads.
 */
import readXlsxFile from "read-excel-file/universal";
import { addDays, cairoDate } from "../../core/cairo.js";
import type { SellerNames } from "../../ingest/document/names.js";
import { htmlQuotes } from "../../ingest/adapters/html.js";
import { documentQuotes } from "../../ingest/adapters/seller-document.js";
import { xmlQuotes } from "../../ingest/adapters/xml.js";
import { workbookRates } from "../../ingest/adapters/cbe.js";
import { globalRates } from "../../ingest/adapters/global-rates.js";
import type { Quote, Sources } from "../../schema/inputs.js";
import type { CbeSource, GlobalRatesSource, SourceConfig } from "../../schema/sources.js";
import type { WorldMarket } from "./market.js";
import {
  expectedQuotes,
  planDocument,
  publish,
  unknownNames,
  type DocumentPlan,
  type DocumentSource,
} from "./publish.js";
import { renderHtml, type Rendered } from "./render-html.js";
import { renderCsv, renderJson, renderXml } from "./render-doc.js";
import {
  cbeCurrencies,
  cbeWorkbook,
  expectedGlobal,
  expectedOfficial,
  globalBase,
  globalDocument,
} from "./official.js";

/** An instant the world writes every body at before serving it (a Wednesday, 10:07 in Cairo). */
export const CHECK_MS = Date.parse("2026-11-25T08:07:00Z");

export type Plan =
  | { type: "document"; id: string; cfg: DocumentSource; doc: DocumentPlan }
  | { type: "cbe"; id: string; cfg: CbeSource }
  | { type: "global"; id: string; cfg: GlobalRatesSource };

/** The URLs a source asks (its page, its token, its form, its mirrors). */
export function urlsOf(s: SourceConfig): string[] {
  const out: string[] = [];
  if ("url" in s && typeof s.url === "string") out.push(s.url);
  if ("token" in s && s.token !== undefined) out.push(s.token.url);
  if (s.adapter === "cbe") out.push(s.pageUrl);
  if (s.adapter === "global-rates") out.push(...s.urls);
  return out;
}

export const usesNetwork = (s: SourceConfig) => urlsOf(s).length > 0;

export function renderDocument(p: DocumentPlan, pub: ReturnType<typeof publish>, dress = true): Rendered {
  if (p.format === "html") return renderHtml(p, pub, p.arabic ? (p.cfg.nameAr ?? p.cfg.name) : p.cfg.name, dress);
  if (p.format === "json") return renderJson(p, pub);
  if (p.format === "csv") return renderCsv(p, pub);
  return renderXml(p, pub);
}

/** The real reader on a body: the quotes and unknown names it gives. */
function readBack(p: DocumentPlan, body: string, nowMs: number, known: ReadonlySet<string>, names: SellerNames) {
  const cfg = p.cfg;
  if (cfg.adapter === "html") return htmlQuotes(body, cfg, nowMs, known, names);
  if (cfg.adapter === "xml") return xmlQuotes(body, cfg, nowMs, known, names);
  return documentQuotes(body, cfg, nowMs, known, names);
}

const sortQuotes = (qs: readonly Quote[]) =>
  [...qs].sort((a, b) =>
    `${a.seller}|${a.asset}|${a.observedAt}`.localeCompare(`${b.seller}|${b.asset}|${b.observedAt}`),
  );

/** Why a body does not read back as the world's account, or null when it does. */
function disagreement(
  p: DocumentPlan,
  body: string,
  expected: { quotes: Quote[]; unknown: string[] },
  nowMs: number,
  known: ReadonlySet<string>,
  names: SellerNames,
): string | null {
  let got;
  try {
    got = readBack(p, body, nowMs, known, names);
  } catch (e) {
    return `its reader refuses the world's body: ${(e as Error).message}`;
  }
  const a = sortQuotes(got.quotes);
  const b = sortQuotes(expected.quotes);
  if (JSON.stringify(a) !== JSON.stringify(b)) {
    const i = a.findIndex((q, k) => JSON.stringify(q) !== JSON.stringify(b[k]));
    return `its reader reads ${JSON.stringify(a[i] ?? null)} where the world wrote ${JSON.stringify(b[i] ?? null)}`;
  }
  if (JSON.stringify(got.unknownSellers) !== JSON.stringify(expected.unknown))
    return `its reader names ${JSON.stringify(got.unknownSellers)} unknown, the world wrote ${JSON.stringify(expected.unknown)}`;
  return null;
}

/**
 * What each enabled network source is to the world, or why it is not served: every body is written
 * at the check instant and read back with the source's real reader first.
 */
export async function planSources(
  parsed: Sources,
  market: WorldMarket,
  names: SellerNames,
  known: ReadonlySet<string>,
): Promise<{ plans: Map<string, Plan>; unserved: Array<{ id: string; why: string }> }> {
  const plans = new Map<string, Plan>();
  const unserved: Array<{ id: string; why: string }> = [];
  for (const s of parsed.sources.filter((x) => x.enabled)) {
    if (!usesNetwork(s)) {
      unserved.push({ id: s.id, why: "not a network source: ingest reads it without the world" });
      continue;
    }
    if (s.adapter === "cbe") {
      if (cbeCurrencies(s, market).length === 0)
        unserved.push({ id: s.id, why: "none of its currencies is in the catalog" });
      else plans.set(s.id, { type: "cbe", id: s.id, cfg: s });
    } else if (s.adapter === "global-rates") {
      if (globalBase(s, market) === null)
        unserved.push({
          id: s.id,
          why: `its base ${s.base.toUpperCase()}-${s.quote.toUpperCase()} is not in the catalog`,
        });
      else plans.set(s.id, { type: "global", id: s.id, cfg: s });
    } else if (s.adapter === "html" || s.adapter === "seller-document" || s.adapter === "xml") {
      const doc = planDocument(s, market, names);
      if ("why" in doc) {
        unserved.push({ id: s.id, why: doc.why });
        continue;
      }
      // Written at the check instant and read with the real reader: served only when it reads back,
      // dressed as a site prints its page (headings, links, flags, a change beside a price) or else plain.
      const pub = publish(doc, market, names, CHECK_MS, new Set());
      const check = (dress: boolean) => {
        const body = renderDocument(doc, pub, dress);
        return "why" in body
          ? body.why
          : disagreement(
              doc,
              body.body,
              { quotes: expectedQuotes(doc, pub, CHECK_MS), unknown: unknownNames(pub) },
              CHECK_MS,
              known,
              names,
            );
      };
      const dressed = check(true) === null;
      const why = dressed ? null : check(false);
      if (why !== null) unserved.push({ id: s.id, why });
      else plans.set(s.id, { type: "document", id: s.id, cfg: s, doc: { ...doc, dressed } });
    } else unserved.push({ id: s.id, why: `the world has no ${s.adapter} source` });
  }
  for (const p of plans.values())
    if (p.type === "cbe") {
      const rows = (await readXlsxFile(new Uint8Array(cbeWorkbookAt(p.cfg, CHECK_MS)).buffer)) as unknown as Array<{
        data: unknown[][];
      }>;
      const got = workbookRates(rows[0]!.data, p.cfg).official;
      if (JSON.stringify(got) !== JSON.stringify(expectedOfficial(p.cfg, market, CHECK_MS))) {
        plans.delete(p.id);
        unserved.push({ id: p.id, why: "its workbook does not read back as the world wrote it" });
      }
    } else if (p.type === "global") {
      const doc = globalDocument(p.cfg, market, CHECK_MS, false);
      const got = globalRates(doc, p.cfg, new Date(CHECK_MS).toISOString()).global;
      if (JSON.stringify(got) !== JSON.stringify(expectedGlobal(p.cfg, doc, CHECK_MS))) {
        plans.delete(p.id);
        unserved.push({ id: p.id, why: "its document does not read back as the world wrote it" });
      }
    }
  /** The workbook the CBE reader's own post asks for at `ms` (its range: the configured days back from today). */
  function cbeWorkbookAt(cfg: CbeSource, ms: number): Buffer {
    const dmy = (d: string) => `${d.slice(8, 10)}/${d.slice(5, 7)}/${d.slice(0, 4)}`;
    const form = new URLSearchParams();
    form.set("FromDateRaw", dmy(addDays(cairoDate(ms), -(cfg.days - 1))));
    form.set("ToDateRaw", dmy(cairoDate(ms)));
    for (const c of cbeCurrencies(cfg, market)) form.append("SelectedSelectOptions", c.name);
    const w = cbeWorkbook(cfg, market, form, ms);
    return "bytes" in w ? w.bytes : Buffer.alloc(0);
  }

  return { plans, unserved };
}
