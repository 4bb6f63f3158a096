/**
 * The seller records' inputs as the archive composes its days (docs/methodology.md §13): each seller
 * asset's archive days, taken from the very closes the archive writes, so that the records cost no
 * read of their own. A closed day goes into its asset's closed part (src/rules/records-part.ts),
 * unless the build keeps the archive's closed part whole, whose records' part was kept beside it
 * (src/incremental/archive-days.ts): then only today's entry is taken.
 */
import type { DaySeller } from "../../rules/archive.js";
import type { ArchiveEntry } from "../../schema/archive.js";
import type { RecordDay, SellerRecord } from "../../rules/records.js";
import { ClosedDays, recordsWithToday, type ClosedRecords } from "../../rules/records-part.js";

/** A seller asset's archive day as the records read it, from its entry and its table as written. */
export function recordDay(entry: ArchiveEntry, table: readonly DaySeller[]): RecordDay {
  return {
    date: entry.date,
    sellLo: entry.sellLo,
    buyHi: entry.buyHi,
    bestSell: entry.bestSell?.id ?? null,
    bestBuy: entry.bestBuy?.id ?? null,
    quotes: table.map((r) => ({ seller: r.id, sell: r.sell, buy: r.buy })),
  };
}

/**
 * A record day as data/state/archive/ keeps it beside the day's entry (src/feed/archive/types.ts
 * EntryRow): `[sellLo, buyHi, bestSell, bestBuy, [[seller, sell, buy], …]]`, without its date.
 */
export function recordDayText(d: RecordDay): string {
  return JSON.stringify([d.sellLo, d.buyHi, d.bestSell, d.bestBuy, d.quotes.map((q) => [q.seller, q.sell, q.buy])]);
}

type Kept = [number | null, number | null, string | null, string | null, Array<[string, number | null, number | null]>];

export function recordDayFrom(date: string, text: string): RecordDay {
  const [sellLo, buyHi, bestSell, bestBuy, quotes] = JSON.parse(text) as Kept;
  return {
    date,
    sellLo,
    buyHi,
    bestSell,
    bestBuy,
    quotes: quotes.map(([seller, sell, buy]) => ({ seller, sell, buy })),
  };
}

/** What the archive hands on of the records: each asset's, and the closed part it made (to keep beside the archive's). */
export interface ArchiveRecords {
  /** Every seller's record of a seller asset, in id order (none for an asset without a close). */
  of(asset: string): Map<string, SellerRecord>;
  /** The closed part this build made of every seller asset, when it made the archive's closed part; else null. */
  made: Map<string, ClosedRecords> | null;
}

/**
 * The records as the days come, in date order. `kept`: the records' part of the closed days kept
 * whole (then no closed day comes); `today`: the build's date, from which a day is not closed.
 */
export class RecordsCollector {
  private readonly closed = new Map<string, ClosedDays>();
  /** The days from the build's date on: today's, at most, since no later day has an entry. */
  private readonly tail = new Map<string, RecordDay[]>();

  /** `closedDates`: how many closed dates there are, of any asset (each asset's store is made for them at once). */
  constructor(
    private readonly today: string,
    private readonly kept: ReadonlyMap<string, ClosedRecords> | null,
    private readonly closedDates = 0,
  ) {}

  add(asset: string, day: RecordDay): void {
    if (day.date >= this.today) {
      const t = this.tail.get(asset);
      if (t) t.push(day);
      else this.tail.set(asset, [day]);
      return;
    }
    if (this.kept) throw new Error(`records: ${asset} ${day.date} is a closed day of a part kept whole`);
    let c = this.closed.get(asset);
    if (!c) this.closed.set(asset, (c = new ClosedDays(this.closedDates)));
    c.add(day);
  }

  /** When every day has come: each asset's records, and the closed part made (when it was). */
  finish(): ArchiveRecords {
    const made = this.kept ? null : new Map([...this.closed].map(([a, c]) => [a, c.part()]));
    const part = this.kept ?? made!;
    // The closed days' columns (~40 MB on the bench's large dataset, most of it typed arrays) are
    // read once, by part(): let go now, not held to the end of the build by `of`.
    this.closed.clear();
    return {
      made,
      of: (asset) => {
        // Today's entry is the one day after the closed part: no later day has an entry
        // (src/feed/archive/compose.ts), and the asset's asOf is its last archive day.
        const tail = this.tail.get(asset) ?? [];
        if (tail.length > 1) throw new Error(`records: ${asset} has ${tail.length} days from ${this.today} on`);
        return recordsWithToday(part.get(asset) ?? EMPTY, tail[0] ?? null);
      },
    };
  }
}

const span = { days: 0, from: null, to: null };
const EMPTY: ClosedRecords = {
  spans: { short: { alone: span, withToday: span }, long: { alone: span, withToday: span } },
  sellers: {},
};
