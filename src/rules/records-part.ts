/**
 * The seller records (docs/methodology.md §13) of an asset's closed days, kept so that an hourly
 * build adds only today's: every build of a day has the same closed days, and only today's entry
 * moves. What a window needs of its closed days is small whatever their number: the counts, the
 * last date quoted, and of each percentage its count and the (at most) three middle values of its
 * sorted list — enough for the median of the list alone (no entry today) and of the list with
 * today's value added. Two lists per window: its last N closed days (no entry today) and its last
 * N − 1 (today's entry is the N-th). The medians come out as the very doubles a direct computation
 * gives (src/rules/records.ts recordWindow): the same two middle values, added and halved.
 */
import {
  pct,
  RECORD_WINDOWS,
  sellerDay,
  type RecordDay,
  type RecordWindow,
  type SellerDay,
  type SellerRecord,
} from "./records.js";

/**
 * The middle of an ascending list of `n` values: `values` are its items `lo`, `lo + 1`, … — those
 * around `n / 2` — which are all its median needs, with or without one more value.
 */
export interface Middle {
  n: number;
  lo: number;
  values: number[];
}

export function middleOf(sorted: ArrayLike<number>): Middle {
  const n = sorted.length;
  const h = n >> 1;
  const lo = Math.max(0, h - 1);
  const hi = Math.min(n - 1, h + 1);
  const values: number[] = [];
  for (let i = lo; i <= hi; i++) values.push(sorted[i]!);
  return { n, lo, values };
}

/**
 * The median of the list `m` is the middle of, with `x` added when it is a number. An added value
 * below the kept items stands in for the unknown item just before them, which the median then never
 * reads (it reads from index n / 2 on); one above them, likewise, stands after the last item read.
 */
export function medianWith(m: Middle, x: number): number | null {
  let values = m.values;
  let n = m.n;
  if (!Number.isNaN(x)) {
    let at = 0;
    while (at < values.length && values[at]! <= x) at++;
    values = [...values.slice(0, at), x, ...values.slice(at)];
    n++;
  }
  if (n === 0) return null;
  return (values[((n - 1) >> 1) - m.lo]! + values[(n >> 1) - m.lo]!) / 2;
}

/** One seller's closed days of a window: its counts, its last date quoted, the middles of its percentages. */
export interface ClosedWindow {
  quoted: number;
  bestSell: number;
  bestBuy: number;
  last: string | null;
  gapSell: Middle;
  gapBuy: Middle;
  spread: Middle;
}

/** The closed days a window holds: their number and first and last dates. */
export interface WindowSpan {
  days: number;
  from: string | null;
  to: string | null;
}

type Windows<T> = Record<keyof typeof RECORD_WINDOWS, { alone: T; withToday: T }>;

/** One asset's closed days as the records keep them (JSON: it is kept beside the archive's closed part). */
export interface ClosedRecords {
  spans: Windows<WindowSpan>;
  /** Every seller with a close on some closed day, by id. */
  sellers: Record<string, Windows<ClosedWindow>>;
}

const NONE: Middle = { n: 0, lo: 0, values: [] };
/** Where a window's percentages are gathered and sorted, one window at a time (at most 2 × RECORD_LONG_DAYS days are kept). */
const [GS, GB, SP] = [0, 1, 2].map(() => new Float64Array(2 * RECORD_WINDOWS.long)) as [
  Float64Array,
  Float64Array,
  Float64Array,
];
const EMPTY: ClosedWindow = {
  quoted: 0,
  bestSell: 0,
  bestBuy: 0,
  last: null,
  gapSell: NONE,
  gapBuy: NONE,
  spread: NONE,
};

/**
 * One seller's closes, a day at a time: the day's index, its two sides (NaN for none) and whether it
 * was best (1 sell, 2 buy), in typed arrays grown by doubling: their bytes lie outside V8's heap, so
 * the 3 million of a first build (200 assets × 40 sellers × 400 days) neither weigh on its
 * collections nor raise its limits (docs/performance.md "Seller records").
 */
class Column {
  n = 0;
  day: Int32Array;
  sell: Float64Array;
  buy: Float64Array;
  best: Uint8Array;
  /** `capacity`: the days it will likely take, so that it need not grow (a grown array's old one is garbage outside the heap). */
  constructor(capacity: number) {
    const n = Math.max(16, capacity);
    [this.day, this.sell, this.buy, this.best] = [
      new Int32Array(n),
      new Float64Array(n),
      new Float64Array(n),
      new Uint8Array(n),
    ];
  }

  push(day: number, sell: number, buy: number, best: number): void {
    if (this.n === this.day.length) {
      const grow = <T extends Int32Array | Float64Array | Uint8Array>(a: T): T => {
        const b = new (a.constructor as new (n: number) => T)(a.length * 2);
        b.set(a);
        return b;
      };
      [this.day, this.sell, this.buy, this.best] = [grow(this.day), grow(this.sell), grow(this.buy), grow(this.best)];
    }
    const k = this.n++;
    [this.day[k], this.sell[k], this.buy[k], this.best[k]] = [day, sell, buy, best];
  }

  /** Drops the closes of the days before `day`. */
  dropBefore(day: number): void {
    let k = 0;
    while (k < this.n && this.day[k]! < day) k++;
    for (const a of [this.day, this.sell, this.buy, this.best]) a.copyWithin(0, k, this.n);
    this.n -= k;
  }
}

/**
 * An asset's closed days, taken in date order, and their records (part()). Each seller's closes are
 * kept as numbers, not as days, and only those of the last RECORD_LONG_DAYS days a window can hold.
 */
export class ClosedDays {
  /** Every day's date, by index; the days before `first` are dropped. */
  private readonly dates: string[] = [];
  private first = 0;
  private readonly sellLo: number[] = [];
  private readonly buyHi: number[] = [];
  private readonly columns = new Map<string, Column>();

  /** `days`: how many closed days will likely come (more or fewer may). */
  constructor(private readonly days = 0) {}

  add(day: RecordDay): void {
    const i = this.dates.length;
    if (i > 0 && this.dates[i - 1]! >= day.date) throw new Error(`records: ${day.date} after ${this.dates[i - 1]}`);
    this.dates.push(day.date);
    this.sellLo.push(day.sellLo ?? NaN);
    this.buyHi.push(day.buyHi ?? NaN);
    for (const q of day.quotes) {
      let c = this.columns.get(q.seller);
      if (!c) this.columns.set(q.seller, (c = new Column(Math.min(this.days - i, 2 * RECORD_WINDOWS.long))));
      c.push(i, q.sell ?? NaN, q.buy ?? NaN, (day.bestSell === q.seller ? 1 : 0) | (day.bestBuy === q.seller ? 2 : 0));
    }
    // No window reaches further back than the last RECORD_LONG_DAYS days: the closes before are let go.
    if (i + 1 - this.first >= 2 * RECORD_WINDOWS.long) {
      this.first = i + 1 - RECORD_WINDOWS.long;
      for (const c of this.columns.values()) c.dropBefore(this.first);
    }
  }

  /**
   * A seller's closed days from day `start` on. The percentages are sellerDay's (src/rules/records.ts),
   * written out here with the same operations in the same order, so the same doubles: a first build
   * takes 8 000 sellers' windows of up to 365 days, and an object per day was most of its cost.
   */
  private window(c: Column, start: number): ClosedWindow {
    let k = c.n;
    while (k > 0 && c.day[k - 1]! >= start) k--;
    if (k === c.n) return EMPTY;
    let [ns, nb, np, bestSell, bestBuy] = [0, 0, 0, 0, 0];
    for (let j = k; j < c.n; j++) {
      const [i, sell, buy, best] = [c.day[j]!, c.sell[j]!, c.buy[j]!, c.best[j]!];
      const [lo, hi] = [this.sellLo[i]!, this.buyHi[i]!];
      if (best & 1) bestSell++;
      if (best & 2) bestBuy++;
      if (!Number.isNaN(sell) && !Number.isNaN(lo)) GS[ns++] = ((sell - lo) / lo) * 100;
      if (!Number.isNaN(buy) && !Number.isNaN(hi)) GB[nb++] = ((hi - buy) / hi) * 100;
      if (!Number.isNaN(sell) && !Number.isNaN(buy)) SP[np++] = ((sell - buy) / ((sell + buy) / 2)) * 100;
    }
    return {
      quoted: c.n - k,
      bestSell,
      bestBuy,
      last: this.dates[c.day[c.n - 1]!]!,
      gapSell: middleOf(GS.subarray(0, ns).sort()),
      gapBuy: middleOf(GB.subarray(0, nb).sort()),
      spread: middleOf(SP.subarray(0, np).sort()),
    };
  }

  /** The records of the closed days taken, for each window alone and with today's entry after them. */
  part(): ClosedRecords {
    const n = this.dates.length;
    const startOf = (k: number) => Math.max(0, n - k);
    const span = (k: number): WindowSpan => {
      const s = startOf(k);
      return { days: n - s, from: this.dates[s] ?? null, to: this.dates.at(-1) ?? null };
    };
    const each = <T>(f: (k: number) => T): Windows<T> => ({
      short: { alone: f(RECORD_WINDOWS.short), withToday: f(RECORD_WINDOWS.short - 1) },
      long: { alone: f(RECORD_WINDOWS.long), withToday: f(RECORD_WINDOWS.long - 1) },
    });
    const sellers: ClosedRecords["sellers"] = {};
    for (const id of [...this.columns.keys()].sort()) {
      const c = this.columns.get(id)!;
      sellers[id] = each((k) => this.window(c, startOf(k)));
    }
    return { spans: each(span), sellers };
  }
}

/** One window of a seller: its closed days and, when the asset has an entry today, that day. */
function combine(span: WindowSpan, w: ClosedWindow, today: { date: string; d: SellerDay | null } | null): RecordWindow {
  const d = today?.d ?? null;
  const add = (n: number, yes: boolean | undefined) => n + (yes ? 1 : 0);
  return {
    days: span.days + (today ? 1 : 0),
    from: span.from ?? today?.date ?? null,
    to: today?.date ?? span.to,
    daysQuoted: add(w.quoted, d !== null),
    daysBest: { sell: add(w.bestSell, d?.bestSell), buy: add(w.bestBuy, d?.bestBuy) },
    medianGapPct: {
      sell: pct(medianWith(w.gapSell, d?.gapSell ?? NaN)),
      buy: pct(medianWith(w.gapBuy, d?.gapBuy ?? NaN)),
    },
    medianSpreadPct: pct(medianWith(w.spread, d?.spread ?? NaN)),
    lastQuoted: d ? today!.date : w.last,
  };
}

/**
 * Every seller's record of one asset from its closed days' records and its entry of today, if it
 * has one (a day after every closed day: the asset's asOf). The same as assetRecords (records.ts)
 * of the same days; sellers in id order.
 */
export function recordsWithToday(closed: ClosedRecords, today: RecordDay | null): Map<string, SellerRecord> {
  const ids = new Set(Object.keys(closed.sellers));
  for (const q of today?.quotes ?? []) ids.add(q.seller);
  const out = new Map<string, SellerRecord>();
  for (const id of [...ids].sort()) {
    const q = today?.quotes.find((x) => x.seller === id);
    const t = today && { date: today.date, d: q ? sellerDay(today, q) : null };
    const w = closed.sellers[id];
    const one = (name: keyof typeof RECORD_WINDOWS) =>
      today
        ? combine(closed.spans[name].withToday, w?.[name].withToday ?? EMPTY, t)
        : combine(closed.spans[name].alone, w?.[name].alone ?? EMPTY, null);
    out.set(id, { short: one("short"), long: one("long") });
  }
  return out;
}
