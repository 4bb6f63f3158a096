/**
 * A day's quotes that passed rules 1–5, kept in columns rather than one object each: a raw day holds
 * tens of thousands of them from the first quote read until rule 6 has judged them all
 * (docs/methodology.md §2.1), and as objects they lived long enough to be promoted to V8's old
 * generation, where they stayed as garbage until a full collection (docs/performance.md "Memory"). In columns a
 * quote costs 44 bytes outside the JavaScript heap; an AcceptedQuote object is made again only when
 * one is asked for, and is young garbage unless it is kept.
 */
import type { AcceptedQuote, QuoteKeys } from "./accepted-quote.js";

const INITIAL = 1024;

/** Twice the room, the values so far first: how the columns grow. */
function doubled<A extends Uint32Array | Float64Array>(a: A): A {
  const grown = new (a.constructor as new (length: number) => A)(a.length * 2);
  grown.set(a);
  return grown;
}

export class DayQuotes implements Iterable<AcceptedQuote>, QuoteKeys<number> {
  /** source, seller, asset, file (indexes into `strings`), line: five per quote. */
  private ids = new Uint32Array(INITIAL * 5);
  /** buy, sell (NaN for none: an accepted price is always finite), observedAtMs: three per quote. */
  private nums = new Float64Array(INITIAL * 3);
  private readonly strings: string[] = [];
  private readonly index = new Map<string, number>();
  length = 0;

  private id(s: string): number {
    let i = this.index.get(s);
    if (i === undefined) {
      i = this.strings.length;
      this.strings.push(s);
      this.index.set(s, i);
    }
    return i;
  }

  push(q: AcceptedQuote): void {
    if (this.length * 3 === this.nums.length) {
      this.ids = doubled(this.ids);
      this.nums = doubled(this.nums);
    }
    const i = this.length++;
    const ids = this.ids;
    ids[i * 5] = this.id(q.source);
    ids[i * 5 + 1] = this.id(q.seller);
    ids[i * 5 + 2] = this.id(q.asset);
    ids[i * 5 + 3] = this.id(q.file);
    ids[i * 5 + 4] = q.line;
    const nums = this.nums;
    nums[i * 3] = q.buy ?? NaN;
    nums[i * 3 + 1] = q.sell ?? NaN;
    nums[i * 3 + 2] = q.observedAtMs;
  }

  source(i: number): string {
    return this.strings[this.ids[i * 5]!]!;
  }

  seller(i: number): string {
    return this.strings[this.ids[i * 5 + 1]!]!;
  }

  asset(i: number): string {
    return this.strings[this.ids[i * 5 + 2]!]!;
  }

  /** One side's price of quote `i`, null when it has none. */
  price(i: number, side: "buy" | "sell"): number | null {
    const v = this.nums[i * 3 + (side === "buy" ? 0 : 1)]!;
    return Number.isNaN(v) ? null : v;
  }

  observedAtMs(i: number): number {
    return this.nums[i * 3 + 2]!;
  }

  /** Quote `i` as an object, equal to the one pushed. */
  get(i: number): AcceptedQuote {
    const ids = this.ids;
    const s = this.strings;
    return {
      source: s[ids[i * 5]!]!,
      seller: s[ids[i * 5 + 1]!]!,
      asset: s[ids[i * 5 + 2]!]!,
      buy: this.price(i, "buy"),
      sell: this.price(i, "sell"),
      observedAtMs: this.nums[i * 3 + 2]!,
      file: s[ids[i * 5 + 3]!]!,
      line: ids[i * 5 + 4]!,
    };
  }

  *[Symbol.iterator](): Iterator<AcceptedQuote> {
    for (let i = 0; i < this.length; i++) yield this.get(i);
  }
}

/** Some of a DayQuotes' quotes, by position, in the order chosen; read as objects, made as asked. */
export class DayQuotesPicked implements Iterable<AcceptedQuote> {
  private picked = new Uint32Array(INITIAL);
  length = 0;

  constructor(readonly from: DayQuotes) {}

  /** All of `quotes`, in their order. */
  static of(quotes: Iterable<AcceptedQuote>): DayQuotesPicked {
    const store = new DayQuotes();
    const all = new DayQuotesPicked(store);
    for (const q of quotes) {
      all.add(store.length);
      store.push(q);
    }
    return all;
  }

  /** The position in `from` of the k-th quote picked. */
  at(k: number): number {
    return this.picked[k]!;
  }

  add(i: number): void {
    if (this.length === this.picked.length) this.picked = doubled(this.picked);
    this.picked[this.length++] = i;
  }

  *[Symbol.iterator](): Iterator<AcceptedQuote> {
    for (let k = 0; k < this.length; k++) yield this.from.get(this.picked[k]!);
  }
}
