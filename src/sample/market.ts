/**
 * The simulated Egyptian market: mid prices that wander around realistic levels (mean-reverting in
 * log space, per day, from a fixed epoch), sellers quoting around them with their own bias and
 * spread, aggregators that lag or glitch, the central bank's daily official rate and a global
 * mid-market reference. Deterministic: `(seed, instant)` fixes every number.
 */
import { DateTime } from "luxon";
import { addDays, CAIRO, cairoDate, daysBetween, instantString, sessionsOn } from "../core/cairo.js";
import { roundHalfAway } from "../core/round.js";
import type { GlobalRate, OfficialRate, Quote, RegistrySeller } from "../schema/inputs.js";
import {
  BASE_ASSETS,
  BASE_SELLERS,
  CALENDAR,
  GLOBAL_SOURCE,
  GOLD_USD_OZ,
  OFFICIAL_SOURCE,
  TROY_OUNCE_G,
  type SampleAsset,
} from "./catalog.js";
import { normal, uniform } from "./random.js";

const EPOCH = "2024-01-01";
const MEAN_REVERSION = 0.02;
/** Bad quotes are slipped in at this Cairo hour on currency days, so rejection is always exercised. */
export const BAD_QUOTE_HOUR = 11;
export const UNLICENSED_SELLER = "unlicensed-street-dealer";

export interface SampleConfig {
  seed: string;
  assets: number;
  sellers: number;
}

export interface HourObservations {
  quotes: Quote[];
  official: OfficialRate[];
  global: GlobalRate[];
}

function syntheticAsset(i: number): SampleAsset {
  const code = `X${String(i).padStart(3, "0")}`;
  return {
    id: `${code}-EGP`,
    slug: `synthetic-${code.toLowerCase()}`,
    category: "currencies",
    kind: "currency",
    market: "competitive",
    unit: `EGP/${code}`,
    decimals: 2,
    defaultSide: "sell",
    name: `Synthetic currency ${code}`,
    nameAr: `عملة تجريبية ${code}`,
    level: 5 + 150 * uniform(`level:${code}`),
    dailyVol: 0.002 + 0.004 * uniform(`vol:${code}`),
  };
}

function syntheticSeller(i: number): RegistrySeller {
  const n = String(i).padStart(3, "0");
  return i % 4 === 0
    ? {
        id: `synthetic-dealer-${n}`,
        name: `Synthetic Gold Dealer ${n}`,
        nameAr: `تاجر ذهب تجريبي ${n}`,
        kind: "gold-dealer",
        licensedBy: "Egyptian Gold Chamber (simulated)",
        licensedByAr: "شعبة الذهب المصرية (محاكاة)",
        categories: ["metals"],
      }
    : {
        id: `synthetic-bank-${n}`,
        name: `Synthetic Bank ${n}`,
        nameAr: `بنك تجريبي ${n}`,
        kind: "bank",
        licensedBy: "Central Bank of Egypt",
        licensedByAr: "البنك المركزي المصري",
        categories: ["currencies"],
      };
}

export class SampleMarket {
  readonly assets: SampleAsset[];
  readonly sellers: RegistrySeller[];
  private readonly paths = new Map<string, number[]>();

  constructor(readonly cfg: SampleConfig) {
    const assets = BASE_ASSETS.slice(0, cfg.assets);
    for (let i = assets.length; i < cfg.assets; i++) assets.push(syntheticAsset(i + 1));
    this.assets = assets;
    const sellers = BASE_SELLERS.slice(0, cfg.sellers);
    for (let i = sellers.length; i < cfg.sellers; i++) sellers.push(syntheticSeller(i + 1));
    this.sellers = sellers;
  }

  private draw(...key: Array<string | number>): number {
    return normal(`${this.cfg.seed}:${key.join(":")}`);
  }

  private u(...key: Array<string | number>): number {
    return uniform(`${this.cfg.seed}:${key.join(":")}`);
  }

  /** Log deviation from the level at the close of `date`: a mean-reverting walk from EPOCH. */
  private deviation(name: string, vol: number, date: string): number {
    let path = this.paths.get(name);
    if (!path) this.paths.set(name, (path = [0]));
    const t = Math.max(0, daysBetween(EPOCH, date));
    for (let i = path.length; i <= t; i++)
      path.push(path[i - 1]! * (1 - MEAN_REVERSION) + vol * this.draw("walk", name, i));
    return path[t]!;
  }

  /** Mid at an instant: the day's path interpolated through the Cairo day, plus a little noise. */
  private midOf(name: string, level: number, vol: number, ms: number): number {
    const local = DateTime.fromMillis(ms, { zone: CAIRO });
    const date = local.toISODate()!;
    const f = (local.hour + local.minute / 60) / 24;
    const x = (1 - f) * this.deviation(name, vol, addDays(date, -1)) + f * this.deviation(name, vol, date);
    return level * Math.exp(x + (vol / 8) * this.draw("tick", name, Math.floor(ms / 3_600_000)));
  }

  mid(asset: SampleAsset, ms: number): number {
    if (asset.goldGrams === undefined) return this.midOf(asset.id, asset.level, asset.dailyVol, ms);
    const usd = this.midOf("USD-EGP", 47.55, 0.0015, ms);
    const ounce = this.midOf("XAU-USD", GOLD_USD_OZ, asset.dailyVol, ms);
    return (ounce / TROY_OUNCE_G) * asset.goldGrams * usd;
  }

  /** Which sellers quote an asset: the sole market has exactly one; a reference market none. */
  quotesAsset(seller: RegistrySeller, asset: SampleAsset): boolean {
    if (!seller.categories.includes(asset.category) || asset.market === "reference") return false;
    const eligible = this.sellers.filter((s) => s.categories.includes(asset.category));
    if (asset.market === "sole") return seller === eligible[0];
    if (eligible.indexOf(seller) < 2) return true; // competitive: at least two
    return this.u("covers", seller.id, asset.id) < (seller.kind === "exchange-house" ? 0.7 : 0.85);
  }

  /** The sources that publish a seller's rates: its own page or board, plus some aggregators. */
  sourcesOf(seller: RegistrySeller): string[] {
    const own = seller.kind === "gold-dealer" ? "dealers-board" : "bank-sites";
    const out = [own];
    if (seller.kind !== "gold-dealer" && this.u("agg", seller.id) < 0.7) out.push("rates-aggregator");
    if (this.u("watch", seller.id) < 0.45) out.push("market-watch");
    return out;
  }

  private sellerQuote(seller: RegistrySeller, asset: SampleAsset, ms: number): { buy: number; sell: number } {
    const mid = this.mid(asset, ms);
    if (asset.category === "metals") {
      const premium = asset.id === "GOLDPOUND-EGP" ? 0.012 : 0;
      const up = 0.004 + 0.004 * this.u("gs", seller.id, asset.id) + premium;
      const down = 0.003 + 0.003 * this.u("gb", seller.id, asset.id) - premium / 2;
      return {
        sell: roundHalfAway(mid * (1 + up), asset.decimals),
        buy: roundHalfAway(mid * (1 - down), asset.decimals),
      };
    }
    const bias = 0.0012 * (this.u("bias", seller.id, asset.id) - 0.5);
    const half = (seller.kind === "exchange-house" ? 0.002 : 0.0008) + 0.002 * this.u("half", seller.id, asset.id);
    const m = mid * (1 + bias + 0.0002 * this.draw("sq", seller.id, asset.id, Math.floor(ms / 3_600_000)));
    return { sell: roundHalfAway(m * (1 + half), asset.decimals), buy: roundHalfAway(m * (1 - half), asset.decimals) };
  }

  private readonly hoursCache = new Map<string, number[]>();

  /** The top-of-hour instants of a Cairo date at which `asset` trades. */
  sessionHours(asset: SampleAsset, date: string): number[] {
    const key = `${asset.category}|${date}`;
    let out = this.hoursCache.get(key);
    if (out) return out;
    out = [];
    for (const [open, close] of sessionsOn(date, CALENDAR.categories[asset.category]!))
      for (let t = open; t < close; t += 3_600_000) out.push(t);
    this.hoursCache.set(key, out);
    return out;
  }

  /** Every observation published at one top-of-hour instant (`quotes: false` skips the sellers). */
  hour(ms: number, opts: { quotes?: boolean; only?: (asset: SampleAsset) => boolean } = {}): HourObservations {
    const quotes: Quote[] = [];
    const official: OfficialRate[] = [];
    const global: GlobalRate[] = [];
    const date = cairoDate(ms);
    const at = instantString(ms);
    for (const asset of this.assets) {
      if (opts.only && !opts.only(asset)) continue;
      const hours = this.sessionHours(asset, date);
      if (!hours.includes(ms)) continue;
      const first = hours[0] === ms;
      const withQuotes = opts.quotes !== false;
      for (const seller of withQuotes ? this.sellers : []) {
        if (!this.quotesAsset(seller, asset)) continue;
        for (const source of this.sourcesOf(seller)) {
          // The rates aggregator republishes each seller's rate of the previous hour.
          const lagged = source === "rates-aggregator" && !first;
          let q = this.sellerQuote(seller, asset, lagged ? ms - 3_600_000 : ms);
          // Now and then the market watch misreads a seller for the whole day by ~1.6 %.
          if (source === "market-watch" && this.u("glitch", seller.id, asset.id, date) < 0.03)
            q = {
              buy: roundHalfAway(q.buy * 1.016, asset.decimals),
              sell: roundHalfAway(q.sell * 1.016, asset.decimals),
            };
          quotes.push({ source, seller: seller.id, asset: asset.id, buy: q.buy, sell: q.sell, observedAt: at });
        }
      }
      if (opts.only) continue; // only this asset's quotes are asked for
      if (asset.category === "currencies" && first) {
        const cbe = this.mid(asset, ms + 3_600_000); // the central bank's morning fixing
        official.push({
          source: OFFICIAL_SOURCE.id,
          asset: asset.id,
          buy: roundHalfAway(cbe * 0.9989, 4),
          sell: roundHalfAway(cbe * 1.0011, 4),
          observedAt: at,
        });
      }
      if (asset.market === "reference" || first)
        global.push({
          source: GLOBAL_SOURCE.id,
          asset: asset.id,
          value: roundHalfAway(this.mid(asset, ms) * (1 + 0.0008 * this.draw("g", asset.id, ms)), 4),
          observedAt: at,
        });
    }
    if (
      opts.quotes !== false &&
      !opts.only &&
      this.localHour(ms) === BAD_QUOTE_HOUR &&
      this.sessionHours(this.assets[0]!, date).includes(ms)
    )
      quotes.push(...this.badQuotes(at));
    return { quotes, official, global };
  }

  private localHour(ms: number): number {
    return DateTime.fromMillis(ms, { zone: CAIRO }).hour;
  }

  /** One crossed quote, one from an unlicensed dealer, one wild outlier (currency days only). */
  private badQuotes(at: string): Quote[] {
    const asset = this.assets[0]!;
    const quoting = this.sellers.filter((s) => this.quotesAsset(s, asset));
    const a = quoting[0];
    const b = quoting[1];
    const mid = roundHalfAway(this.mid(asset, Date.parse(at)), asset.decimals);
    const out: Quote[] = [
      { source: "market-watch", seller: UNLICENSED_SELLER, asset: asset.id, buy: mid, sell: mid, observedAt: at },
    ];
    if (a)
      out.push({
        source: "market-watch",
        seller: a.id,
        asset: asset.id,
        buy: roundHalfAway(mid * 1.01, asset.decimals),
        sell: mid,
        observedAt: at,
      });
    if (b)
      out.push({
        source: "market-watch",
        seller: b.id,
        asset: asset.id,
        buy: roundHalfAway(mid * 1.6, asset.decimals),
        sell: roundHalfAway(mid * 1.62, asset.decimals),
        observedAt: at,
      });
    return out;
  }
}
