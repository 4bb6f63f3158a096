/**
 * When a document says its rates were set. Pages write local time without a zone ("Latest update
 * at : 04/12/2016 08:31:20"): the time is read with a luxon format in the source's zone
 * (Africa/Cairo unless it says otherwise, with Egypt's daylight-saving rules from the time-zone
 * database) and stored in UTC. A date without a time of day is the run's instant when it is today
 * in that zone (the day's rates, observed now), else the start of that day, so that a page that
 * stopped updating shows as stale.
 */
import { DateTime } from "luxon";
import { parseInstant } from "../../core/cairo.js";
import { asciiDigits } from "./names.js";
import { pick } from "./regex.js";

export interface TimeFormat {
  /** luxon format tokens ("dd/MM/yyyy HH:mm:ss"), tried in order; "iso" and "epoch" are named formats. Absent: ISO 8601 with an offset, or epoch seconds or milliseconds. */
  format?: string | string[] | undefined;
  /** The zone of a time written without one. */
  zone: string;
  /** Pulls the time out of a longer text: the group named `time`, else the first group, else the match. */
  regex?: string | undefined;
}

/** A format's tokens without its quoted literals: whether it has a time of day. */
const hasTimeOfDay = (fmt: string) => /[Hhkm]/.test(fmt.replace(/'[^']*'/g, ""));

function epoch(text: string): number | null {
  if (!/^\d{9,13}$/.test(text)) return null;
  const n = Number(text);
  return n < 1e12 ? n * 1000 : n;
}

/** The instant a text names, in ms; null when it is not one the format reads. */
export function parseTime(value: unknown, spec: TimeFormat, nowMs: number): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? (value < 1e12 ? value * 1000 : value) : null;
  if (typeof value !== "string") return null;
  let text = asciiDigits(value).replace(/\s+/g, " ").trim();
  if (spec.regex !== undefined) {
    // RE2, linear in the text (regex.ts): the text is the source's to write.
    const picked = pick(spec.regex, text, "time");
    if (picked === null) return null;
    text = picked.trim();
  }
  const formats = spec.format === undefined ? [] : Array.isArray(spec.format) ? spec.format : [spec.format];
  if (formats.length === 0) return parseInstant(text) ?? epoch(text);
  for (const fmt of formats) {
    if (fmt === "epoch") {
      const ms = epoch(text);
      if (ms !== null) return ms;
      continue;
    }
    if (fmt === "iso") {
      const ms = parseInstant(text);
      if (ms !== null) return ms;
      const local = DateTime.fromISO(text, { zone: spec.zone });
      if (local.isValid) return local.toMillis();
      continue;
    }
    // Arabic pages write ص (morning) and م (evening) for AM and PM.
    const t = /a/.test(fmt.replace(/'[^']*'/g, ""))
      ? text.replace(/(^|\s)\u0635(?=\s|$)/u, "$1AM").replace(/(^|\s)\u0645(?=\s|$)/u, "$1PM")
      : text;
    // luxon throws, rather than answering an invalid DateTime, for some formats once the text
    // matches them ("Can't include meridiem when specifying 24-hour format" for `HH … a`): such an
    // entry reads nothing, and the list goes on to the next (issue 26, item 11). The sources schema
    // refuses these formats when the file is read (src/schema/source-base.ts timeFormatProblem).
    let dt: DateTime;
    try {
      dt = DateTime.fromFormat(t, fmt, { zone: spec.zone, locale: "en-US" });
    } catch {
      continue;
    }
    if (!dt.isValid) continue;
    if (hasTimeOfDay(fmt)) return dt.toMillis();
    const today = DateTime.fromMillis(nowMs, { zone: spec.zone }).toISODate();
    return dt.toISODate() === today ? nowMs : dt.startOf("day").toMillis();
  }
  return null;
}

/** How a time spec reads, for messages: `dd/MM/yyyy HH:mm:ss (Africa/Cairo)`. */
export function describeFormat(spec: TimeFormat): string {
  const f =
    spec.format === undefined
      ? "ISO 8601 with an offset, or epoch"
      : Array.isArray(spec.format)
        ? spec.format.join(" or ")
        : spec.format;
  return `${f} (${spec.zone})`;
}
