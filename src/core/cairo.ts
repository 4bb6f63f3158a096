/**
 * Cairo time: business dates and trading sessions, with Egypt's daylight-saving rules from the
 * time-zone database (luxon), never the machine's zone. No node:* imports (used at the edge).
 */
import { DateTime } from "luxon";
import type { CategoryCalendar, Weekday } from "../schema/inputs.js";

export const CAIRO = "Africa/Cairo";
const WEEKDAYS: readonly Weekday[] = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];

/** Parses an ISO 8601 instant with an explicit offset or Z; null when it is not one. */
export function parseInstant(s: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(s)) return null;
  const dt = DateTime.fromISO(s, { setZone: true });
  return dt.isValid ? dt.toMillis() : null;
}

export function cairoDate(ms: number): string {
  return DateTime.fromMillis(ms, { zone: CAIRO }).toISODate()!;
}

export function isoUtc(ms: number): string {
  return new Date(ms).toISOString();
}

/** Whole calendar days from date a to date b (b − a). */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
}

export function addDays(date: string, n: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

export function weekdayOf(date: string): Weekday {
  return WEEKDAYS[DateTime.fromISO(date, { zone: CAIRO }).weekday - 1]!;
}

/** Start of the next Cairo day after the instant (midnight Africa/Cairo), in ms. */
export function nextCairoMidnight(ms: number): number {
  return DateTime.fromMillis(ms, { zone: CAIRO }).startOf("day").plus({ days: 1 }).toMillis();
}

/** The session intervals [open, close) of one Cairo date, as UTC milliseconds. */
export function sessionsOn(date: string, cal: CategoryCalendar): Array<[number, number]> {
  if (cal.holidays.includes(date)) return [];
  const wd = weekdayOf(date);
  const out: Array<[number, number]> = [];
  for (const s of cal.sessions) {
    if (!s.days.includes(wd)) continue;
    out.push([localToMs(date, s.open), localToMs(date, s.close)]);
  }
  return out;
}

function localToMs(date: string, hhmm: string): number {
  if (hhmm === "24:00") return DateTime.fromISO(date, { zone: CAIRO }).plus({ days: 1 }).toMillis();
  return DateTime.fromISO(`${date}T${hhmm}`, { zone: CAIRO }).toMillis();
}

export function inSession(ms: number, cal: CategoryCalendar): boolean {
  return sessionsOn(cairoDate(ms), cal).some(([a, b]) => ms >= a && ms < b);
}

/**
 * Session time between two instants (METHODOLOGY, Freshness: "hours outside the sessions do not
 * count"). Stops counting once `cap` is exceeded, so a years-old observation costs no more than
 * a few days of iteration.
 */
export function tradingAgeMs(fromMs: number, toMs: number, cal: CategoryCalendar, cap = Infinity): number {
  if (toMs <= fromMs) return 0;
  let total = 0;
  let date = cairoDate(fromMs);
  const last = cairoDate(toMs);
  // Ten years of days is far past any cap; the bound only guards against a bad calendar.
  for (let i = 0; i < 3700 && date <= last; i++, date = addDays(date, 1)) {
    for (const [a, b] of sessionsOn(date, cal)) {
      const lo = Math.max(a, fromMs);
      const hi = Math.min(b, toMs);
      if (hi > lo) total += hi - lo;
    }
    if (total > cap) return total;
  }
  return total;
}
