/**
 * The two yardsticks as their sites answer (src/ingest/adapters/cbe.ts, global-rates.ts):
 * - the Central Bank of Egypt's historical-data page — a form `historicalDataForm` carrying an
 *   anti-forgery token, a session cookie set beside it — and the form's post, answered with an XLSX
 *   workbook: a blank title row, `Date, Currency, Buy, Sell`, one row per currency and business day
 *   of the range asked, newest first, dates as Excel serial days; today's row once the morning's
 *   fixing is out (an hour after the market opens);
 * - the global daily reference (`{"date": "YYYY-MM-DD", "usd": {"egp": …, "eur": …, "xau": …}}`),
 *   one document per UTC day, its values the world's mids at the start of that day.
 */
import { DateTime } from "luxon";
import { addDays, CAIRO, cairoDate } from "../../core/cairo.js";
import { roundHalfAway } from "../../core/round.js";
import type { CbeSource, GlobalRatesSource } from "../../schema/sources.js";
import type { GlobalRate, OfficialRate } from "../../schema/inputs.js";
import { TROY_OUNCE_GRAMS } from "../../ingest/adapters/global-rates.js";
import { HOUR_MS, type WorldMarket } from "./market.js";
import { perUnits } from "./names.js";
import { workbook, type CellValue } from "./xlsx.js";

const DAY_MS = 86_400_000;

/** The currencies of a CBE source the catalog has, each with the units the CBE quotes it for. */
export function cbeCurrencies(
  cfg: CbeSource,
  market: WorldMarket,
): Array<{ name: string; asset: string; per: number }> {
  return Object.entries(cfg.currencies).flatMap(([name, m]) => {
    const { asset, per } = typeof m === "string" ? { asset: m, per: 1 } : m;
    return market.asset(asset) ? [{ name, asset, per }] : [];
  });
}

const attr = (s: string) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/** The historical-data page: its form, the token it hands out, and the currencies it offers. */
export function cbePage(token: string, currencies: readonly string[], action: string): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>CBE Exchange Rates - Historical Data</title></head>
<body><main>
<h1>Exchange Rates Historical Data</h1>
<form class="form" action="${attr(action)}" method="post" id="historicalDataForm">
<input name="__RequestVerificationToken" type="hidden" value="${attr(token)}" />
<input name="DataSourceId" type="hidden" value="19CFFDDBFF494350A5E9C6A4397FC7DF" />
<input name="LanguageName" type="hidden" value="en" />
<input type="text" id="fromDate" name="FromDateRaw" readonly /><input type="text" id="toDate" name="ToDateRaw" readonly />
<select id="multipleSelectID" name="SelectedSelectOptions" multiple="multiple">
${currencies.map((c) => `<option value="${attr(c)}">${attr(c)}</option>`).join("\n")}
</select>
<button name="SubmitAction" type="submit" value="1">Show</button><button type="submit" name="SubmitAction" value="2">Excel</button>
</form></main></body></html>
`;
}

/** The form's post action, a path on the page's own origin. */
export const CBE_FORM_ACTION = "/api/statistics/GetHistoricalData";

/** `dd/mm/yyyy` → `yyyy-mm-dd`; null otherwise. */
function isoOf(dmy: string | null): string | null {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(dmy ?? "");
  return m ? `${m[3]}-${m[2]}-${m[1]}` : null;
}

/** Excel's serial day of a date (1900 system: day 25569 is 1970-01-01). */
export const excelSerial = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS + 25569;

/** The business days from `from` to `to` (inclusive) whose fixing is out at `nowMs`, newest first. */
function fixingDays(market: WorldMarket, from: string, to: string, nowMs: number): string[] {
  const out: string[] = [];
  for (let d = to, n = 0; d >= from && n < 400; d = addDays(d, -1), n++) {
    const open = market.businessOpen(d);
    if (open !== null && open + HOUR_MS <= nowMs) out.push(d);
  }
  return out;
}

/** The workbook answering the form's post: the range and currencies asked, or why not (a 400's text). */
export function cbeWorkbook(
  cfg: CbeSource,
  market: WorldMarket,
  form: URLSearchParams,
  nowMs: number,
): { bytes: Buffer; rows: number } | { why: string } {
  const from = isoOf(form.get("FromDateRaw"));
  const to = isoOf(form.get("ToDateRaw"));
  if (from === null || to === null) return { why: "FromDateRaw and ToDateRaw must be dd/mm/yyyy" };
  const asked = new Set(form.getAll("SelectedSelectOptions"));
  const currencies = cbeCurrencies(cfg, market).filter((c) => asked.has(c.name));
  const days = fixingDays(market, from, to < cairoDate(nowMs) ? to : cairoDate(nowMs), nowMs);
  const rows: CellValue[][] = [
    [null, null, null, null],
    ["Date", "Currency", "Buy", "Sell"],
  ];
  for (const c of currencies)
    for (const d of days) {
      const r = market.official(c.asset, d)!;
      rows.push([excelSerial(d), c.name, perUnits(r.buy, c.per), perUnits(r.sell, c.per)]);
    }
  return { bytes: workbook("Official Exchange Rates", rows), rows: rows.length - 2 };
}

/** What the CBE reader gives at `nowMs` for its configured range: the world's account of the workbook. */
export function expectedOfficial(cfg: CbeSource, market: WorldMarket, nowMs: number): OfficialRate[] {
  const today = cairoDate(nowMs);
  const days = fixingDays(market, addDays(today, -(cfg.days - 1)), today, nowMs);
  return cbeCurrencies(cfg, market).flatMap((c) =>
    days.map((d) => {
      const r = market.official(c.asset, d)!;
      return {
        source: cfg.id,
        asset: c.asset,
        buy: roundHalfAway(perUnits(r.buy, c.per) / c.per, 6),
        sell: roundHalfAway(perUnits(r.sell, c.per) / c.per, 6),
        observedAt: DateTime.fromISO(d, { zone: CAIRO }).toUTC().toISO({ suppressMilliseconds: true })!,
      };
    }),
  );
}

/** How many days back a stale global document is dated. */
export const GLOBAL_STALE_DAYS = 3;

/** The base currency's catalog asset of a global source (`usd` → USD-EGP), or null when the catalog has none. */
export const globalBase = (cfg: GlobalRatesSource, market: WorldMarket) => {
  const id = `${cfg.base.toUpperCase()}-${cfg.quote.toUpperCase()}`;
  return market.asset(id) ? id : null;
};

/** The document of the UTC day of `nowMs` (a stale one: of three days before). */
export function globalDocument(
  cfg: GlobalRatesSource,
  market: WorldMarket,
  nowMs: number,
  stale: boolean,
): Record<string, unknown> {
  const date = new Date(nowMs - (stale ? GLOBAL_STALE_DAYS * DAY_MS : 0)).toISOString().slice(0, 10);
  const egp = Number(market.globalMid(globalBase(cfg, market)!, date).toPrecision(10));
  const rates: Record<string, number> = { [cfg.quote]: egp };
  for (const a of cfg.assets) {
    const code = "currency" in a ? a.currency : a.metal;
    if (code === cfg.base || code in rates) continue;
    if ("currency" in a) {
      if (market.asset(a.asset)) rates[code] = Number((egp / market.globalMid(a.asset, date)).toPrecision(10));
    } else if (code === "xau") rates[code] = Number((egp / market.globalOunce(date)).toPrecision(10));
  }
  return { date, [cfg.base]: Object.fromEntries(Object.entries(rates).sort(([a], [b]) => a.localeCompare(b))) };
}

/** What the global reader gives for the document: the adapter's arithmetic, as the rulebook's §9 states it. */
export function expectedGlobal(cfg: GlobalRatesSource, doc: Record<string, unknown>, nowMs: number): GlobalRate[] {
  const dated = Date.parse(`${String(doc["date"])}T00:00:00Z`);
  const observedAt = new Date(nowMs - dated < 2 * DAY_MS ? nowMs : dated).toISOString();
  const r = doc[cfg.base] as Record<string, number>;
  const egp = r[cfg.quote]!;
  return cfg.assets.flatMap((a) => {
    const code = "currency" in a ? a.currency : a.metal;
    const x = code === cfg.base ? 1 : r[code];
    if (x === undefined) return [];
    const perUnit = egp / x;
    const value = "currency" in a ? perUnit : (perUnit / TROY_OUNCE_GRAMS) * a.purity * a.grams;
    return [{ source: cfg.id, asset: a.asset, value: roundHalfAway(value, 6), observedAt }];
  });
}
