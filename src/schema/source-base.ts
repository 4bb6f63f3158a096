/** What every source of the sources file has: its id, name, kind, credit and evidence; and the shared value types. */
import { DateTime } from "luxon";
import { z } from "zod";

export const Id = z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "expected a lowercase hyphenated id");
export const AssetId = z.string().regex(/^[A-Z0-9]+-[A-Z0-9]+$/, "expected an asset id <BASE>-<QUOTE>");
export const Url = z.url({ protocol: /^https?$/ });

/**
 * How a source's format is known (the sources page says it, and /api/v1/sources.json carries it):
 * `recorded`, a body the source answered was saved and the tests read it; `public-code`, public code
 * that reads the source shows its format; `constructed`, the mapping was written by hand from other
 * evidence (the source's own documentation, a description of its page, another source's format).
 */
export const EvidenceKind = z.enum(["recorded", "public-code", "constructed"]);
export type EvidenceKind = z.infer<typeof EvidenceKind>;

/**
 * The evidence for a source's format. `where` cites it, one place or more: for `recorded` the saved
 * bodies (`test/fixtures/sellers/….html`); for `public-code` the code, as `owner/repository/path@commit`
 * or a URL; for `constructed` what it was made from. `recordedAt`: when the body was saved, a date
 * (`2026-11-19`) or an instant with its offset.
 */
export const Evidence = z.strictObject({
  kind: EvidenceKind,
  where: z.array(z.string().trim().min(1, "expected a citation, not an empty string")).min(1, "expected a citation"),
  recordedAt: z.union([z.iso.date(), z.iso.datetime({ offset: true })]).optional(),
});
export type Evidence = z.infer<typeof Evidence>;

export const base = {
  id: Id,
  name: z.string().min(1),
  /** Its name in Arabic, for the Arabic pages; without it they show the English name. */
  nameAr: z.string().min(1).optional(),
  enabled: z.boolean().default(true),
  /**
   * Follow redirects to loopback, private, link-local and other non-public addresses (off: such a
   * redirect fails the source; src/ingest/redirects.ts). For a source on the operator's own network.
   */
  allowPrivateRedirects: z.boolean().optional(),
  /** How the source asks to be credited where its data is redistributed (shown on the terms page). */
  attribution: z.string().min(1).optional(),
  /** The operator's remark (why a source is disabled, what to check when it breaks); not used by the feed. */
  note: z.string().min(1).optional(),
  /** How the source's format is known (Evidence); without it the sources page says it is not stated. */
  evidence: Evidence.optional(),
  /**
   * docs/methodology.md "New sources: probation": a `seller` or `aggregator` source starts on probation
   * unless this says `false` — the operator's word that it has been seen to behave, the reason in
   * `note`. `official` and `reference` sources are the yardsticks and never on probation.
   */
  probation: z.boolean().optional(),
};

/**
 * What a source is, which the rules weigh: `seller`, a licensed seller's own publication (its page,
 * its file); `aggregator`, a site that relays many sellers' prices (the quotes are the sellers',
 * the source is the aggregator); `official`, the central bank; `reference`, a global mid-market
 * rate.
 */
export const SourceKind = z.enum(["seller", "aggregator", "official", "reference"]);
export type SourceKind = z.infer<typeof SourceKind>;
export const kind = (d: SourceKind) => ({ kind: SourceKind.default(d) });

/** Two instants, one before noon and one after, in every field's two-digit range: what a format is tried on. */
const FORMAT_SAMPLES = ["2026-01-05T08:07:09.123Z", "2026-11-23T21:34:56.789Z"].map((iso) =>
  DateTime.fromISO(iso, { zone: "UTC", locale: "en-US" }),
);

/**
 * Why luxon cannot read times with a format, or null when it can: the format's own rendering of two
 * instants must parse back with it. luxon accepts any string as a format and refuses some only when a
 * page's text matches them ("Can't include meridiem when specifying 24-hour format" for `HH … a`), or
 * never matches them (`ZZZZ`, a zone's abbreviation, is written but not read). `iso` and `epoch` are
 * named formats of the document adapters (src/ingest/document/time.ts), not luxon's.
 */
export function timeFormatProblem(format: string): string | null {
  if (format === "iso" || format === "epoch") return null;
  for (const dt of FORMAT_SAMPLES) {
    const text = dt.toFormat(format);
    let back: DateTime;
    try {
      back = DateTime.fromFormat(text, format, { zone: "UTC", locale: "en-US" });
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
    if (!back.isValid)
      return `it does not read back its own "${text}" (${back.invalidExplanation ?? back.invalidReason})`;
  }
  return null;
}
