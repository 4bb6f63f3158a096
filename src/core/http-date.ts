/**
 * The HTTP-date (RFC 9110 §5.6.7), both ways: written as IMF-fixdate (Last-Modified, Sunset, and the
 * OpenAPI description's examples of them), read in any of the three forms a recipient must accept
 * (the conditional requests of src/edge/conditional.ts). No node:* imports: the edge runtime loads
 * this module.
 */

/** IMF-fixdate, the preferred HTTP-date format (RFC 9110 §5.6.7). */
export function httpDate(ms: number): string {
  return new Date(ms).toUTCString();
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const DAY = "(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)";
const LONG_DAY = "(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)";
const MONTH = `(${MONTHS.join("|")})`;
const TIME = "(\\d{2}):(\\d{2}):(\\d{2})";
const IMF_FIXDATE = new RegExp(`^${DAY}, (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`);
const RFC850 = new RegExp(`^${LONG_DAY}, (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`);
const ASCTIME = new RegExp(`^${DAY} ${MONTH} ([ \\d]\\d) ${TIME} (\\d{4})$`);

/**
 * An HTTP-date (RFC 9110 §5.6.7: IMF-fixdate, or the obsolete RFC 850 and asctime forms that a
 * recipient must accept) as ms, or null: "2027-01-01", "3000" and dates that do not exist
 * (31 Feb) are not HTTP-dates, whatever Date.parse makes of them.
 */
export function parseHttpDate(value: string): number | null {
  const v = value.trim();
  let parts: { day: string; month: string; year: string; time: string[] };
  let m: RegExpExecArray | null;
  if ((m = IMF_FIXDATE.exec(v))) parts = { day: m[1]!, month: m[2]!, year: m[3]!, time: m.slice(4, 7) };
  else if ((m = RFC850.exec(v))) {
    // RFC 9110 §5.6.7: a two-digit year that would be more than 50 years in the future is in the past century.
    const thisYear = new Date().getUTCFullYear();
    let year = Math.floor(thisYear / 100) * 100 + Number(m[3]);
    if (year > thisYear + 50) year -= 100;
    parts = { day: m[1]!, month: m[2]!, year: String(year), time: m.slice(4, 7) };
  } else if ((m = ASCTIME.exec(v))) parts = { day: m[2]!, month: m[1]!, year: m[6]!, time: m.slice(3, 6) };
  else return null;
  const [h, mi, s] = parts.time.map(Number) as [number, number, number];
  const d = Number(parts.day.trim());
  if (h > 23 || mi > 59 || s > 60) return null;
  const ms = Date.UTC(Number(parts.year), MONTHS.indexOf(parts.month), d, h, mi, Math.min(s, 59));
  return new Date(ms).getUTCDate() === d ? ms : null;
}
