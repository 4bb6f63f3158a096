/** A quote as acceptance passes it on (src/rules/acceptance.ts), and what the orders of quotes read of one. */

export interface AcceptedQuote {
  source: string;
  seller: string;
  asset: string;
  buy: number | null;
  sell: number | null;
  observedAtMs: number;
  file: string;
  line: number;
}

/**
 * What the orders of src/rules/acceptance.ts read of a quote: an AcceptedQuote's own fields, or, for a day's quotes kept
 * in columns, a position in them (day-quotes.ts), so that choosing among them makes no objects.
 */
export interface QuoteKeys<Q> {
  observedAtMs(q: Q): number;
  source(q: Q): string;
}
