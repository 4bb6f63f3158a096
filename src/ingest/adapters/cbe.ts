/**
 * Central Bank of Egypt official rates. The historical-data page carries a form (id
 * `historicalDataForm`) with a hidden anti-forgery token and sets session cookies; posting the form
 * back with a date range (dd/mm/yyyy) and the currencies answers an XLSX workbook: a blank title
 * row, the header `Date, Currency, Buy, Sell`, then one row per currency and business day, newest
 * first, dates as Excel serial days. The form is posted only to the page's own origin (formTarget),
 * its redirects under the policy of every request (src/ingest/http.ts, redirects.ts). The CBE asks
 * to be cited as the source (see the terms page).
 */
import readXlsxFile from "read-excel-file/universal";
import { DateTime } from "luxon";
import { CAIRO, addDays, cairoDate } from "../../core/cairo.js";
import { roundHalfAway } from "../../core/round.js";
import type { CbeSource } from "../../schema/sources.js";
import { cookiesOf, request } from "../http.js";
import { parsePage } from "../document/html.js";
import { ShapeError } from "../../core/errors.js";
import { emptyObservations, type AdapterContext, type Observations } from "./types.js";

/** The form's fields: every named input (the token among them) and the currencies it offers. */
export function readForm(html: string): { action: string; fields: Array<[string, string]>; options: string[] } {
  const form = parsePage(html).querySelector("form#historicalDataForm");
  if (!form) throw new ShapeError("the page has no form#historicalDataForm");
  const fields: Array<[string, string]> = form
    .querySelectorAll("input[type=hidden]")
    .map((i) => [i.getAttribute("name") ?? "", i.getAttribute("value") ?? ""] as [string, string])
    .filter(([n]) => n !== "");
  if (!fields.some(([n, v]) => n === "__RequestVerificationToken" && v))
    throw new ShapeError("the form has no __RequestVerificationToken");
  const options = form
    .querySelectorAll('select[name="SelectedSelectOptions"] option')
    .map((o) => o.getAttribute("value") ?? o.text.trim());
  const action = form.getAttribute("action");
  if (!action) throw new ShapeError("the form has no action");
  return { action, fields, options };
}

/**
 * Where the form is posted: its `action`, resolved against the page that carried it (RFC 3986
 * §5), and only at that page's own origin (RFC 6454: scheme, host and port). The post carries the
 * session cookie and the anti-forgery token the page gave; a form that names another host would
 * have them sent there, so it fails the source, naming the host.
 */
export function formTarget(action: string, pageUrl: string): string {
  let target: URL;
  try {
    target = new URL(action, pageUrl);
  } catch {
    throw new ShapeError(`the form's action ${JSON.stringify(action.slice(0, 200))} is not a URL`);
  }
  const page = new URL(pageUrl);
  if (target.origin !== page.origin)
    throw new ShapeError(
      `the form posts to ${target.protocol}//${target.host}, not to the page's own origin ${page.origin}: its session cookie and anti-forgery token are not sent there`,
    );
  return target.href;
}

const dmy = (date: string) => `${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(0, 4)}`;

/** An Excel serial day (1900 system: day 25569 is 1970-01-01) or a date cell, as YYYY-MM-DD. */
export function excelDate(cell: unknown): string | null {
  if (cell instanceof Date && !Number.isNaN(cell.getTime())) return cell.toISOString().slice(0, 10);
  if (typeof cell === "number" && Number.isInteger(cell) && cell > 25569)
    return new Date((cell - 25569) * 86_400_000).toISOString().slice(0, 10);
  if (typeof cell === "string" && /^\d+$/.test(cell)) return excelDate(Number(cell));
  return null;
}

const price = (v: unknown): number | null => {
  const n = typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : NaN;
  return Number.isFinite(n) && n > 0 ? n : null;
};

/** Rows of the workbook → official rates, per unit of the catalog's asset, dated at the start of the Cairo business day. */
export function workbookRates(
  rows: unknown[][],
  cfg: Pick<CbeSource, "id" | "currencies">,
): Pick<Observations, "official" | "fetched" | "skipped"> {
  const headerAt = rows.findIndex(
    (r) =>
      r
        .map((c) =>
          String(c ?? "")
            .trim()
            .toLowerCase(),
        )
        .join(",") === "date,currency,buy,sell",
  );
  if (headerAt < 0) throw new ShapeError("the workbook has no header row Date, Currency, Buy, Sell");
  const out: Pick<Observations, "official" | "fetched" | "skipped"> = { official: [], fetched: 0, skipped: [] };
  for (const [i, row] of rows.slice(headerAt + 1).entries()) {
    if (row.every((c) => c === null || c === "")) continue;
    out.fetched++;
    const where = `row ${headerAt + i + 2}`;
    const [d, name, buyCell, sellCell] = row;
    const date = excelDate(d);
    const map = cfg.currencies[String(name ?? "").trim()];
    if (!date) out.skipped.push({ reason: "unreadable date", detail: `${where}: ${String(d)}` });
    else if (!map)
      out.skipped.push({ reason: "currency not in the catalog mapping", detail: `${where}: ${String(name)}` });
    else {
      const { asset, per } = typeof map === "string" ? { asset: map, per: 1 } : map;
      const buy = price(buyCell);
      const sell = price(sellCell);
      if (buy === null && sell === null) out.skipped.push({ reason: "no rate", detail: `${where}: ${String(name)}` });
      else
        out.official.push({
          source: cfg.id,
          asset,
          buy: buy === null ? null : roundHalfAway(buy / per, 6),
          sell: sell === null ? null : roundHalfAway(sell / per, 6),
          observedAt: DateTime.fromISO(date, { zone: CAIRO }).toUTC().toISO({ suppressMilliseconds: true })!,
        });
    }
  }
  return out;
}

export async function cbeAdapter(cfg: CbeSource, ctx: AdapterContext): Promise<Observations> {
  const page = await request(cfg.pageUrl, { accept: "text/html,application/xhtml+xml" }, ctx.http);
  const cookie = cookiesOf(page);
  const form = readForm(await page.text());
  const wanted = Object.keys(cfg.currencies);
  const offered = wanted.filter((c) => form.options.includes(c));
  const obs = emptyObservations();
  for (const c of wanted.filter((w) => !form.options.includes(w)))
    obs.skipped.push({ reason: "currency no longer offered by the form", detail: c });
  if (offered.length === 0) throw new ShapeError("none of the configured currencies is offered by the form");

  const today = cairoDate(ctx.nowMs);
  const body = new URLSearchParams(form.fields);
  body.set("FromDateRaw", dmy(addDays(today, -(cfg.days - 1))));
  body.set("ToDateRaw", dmy(today));
  for (const c of offered) body.append("SelectedSelectOptions", c);
  body.set("SubmitAction", "2"); // the form's "download as Excel" button
  const url = formTarget(form.action, page.url || cfg.pageUrl);
  const res = await request(
    url,
    {
      method: "POST",
      body,
      headers: { "Content-Type": "application/x-www-form-urlencoded", Referer: cfg.pageUrl },
      accept: "application/octet-stream,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      // The session cookie is a credential of the page's origin: sent there only, and its values
      // kept out of saved bodies (src/ingest/http.ts Credentials).
      ...(cookie
        ? {
            credentialsFor: () =>
              Promise.resolve({ origin: new URL(url).origin, headers: new Headers({ Cookie: cookie }) }),
          }
        : {}),
    },
    ctx.http,
  );
  const bytes = await res.arrayBuffer();
  let sheets: Array<{ data: unknown[][] }>;
  try {
    sheets = (await readXlsxFile(bytes)) as unknown as Array<{ data: unknown[][] }>;
  } catch (e) {
    throw new ShapeError(`the answer is not a readable XLSX workbook (${(e as Error).message})`, { cause: e });
  }
  const rows = sheets[0]?.data;
  if (!rows) throw new ShapeError("the workbook has no sheet");
  const rates = workbookRates(rows, cfg);
  return {
    ...obs,
    official: rates.official.filter((r) => Date.parse(r.observedAt) <= ctx.nowMs),
    fetched: rates.fetched,
    skipped: [...obs.skipped, ...rates.skipped],
  };
}
