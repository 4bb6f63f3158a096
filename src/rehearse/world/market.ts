/**
 * The rehearsal's market: the sample market's model (src/sample/market.ts) driven with a real
 * deployment's cast — its catalog (assets.json), its registry (sellers.json) and its calendar —
 * instead of the sample's fictional one. SampleMarket is built for its own cast, so its public
 * `mid` (the mean-reverting walk per asset, gold from the ounce and the dollar) is used with assets
 * described here, and the sellers' quotes follow its formula (bias, half-spread, hourly jitter)
 * with the same counter-based randomness (src/sample/random.ts). The sample itself is untouched.
 *
 * When sellers publish: banks at every top of a trading hour of their category's calendar, a few
 * minutes late (the hourly job runs at :07 for that reason, .github/workflows/publish.yml); outside
 * the sessions a page keeps its last prices. Deterministic: `(seed, instant)` fixes every number.
 */
import { DateTime } from "luxon";
import { addDays, CAIRO, cairoDate, sessionsOn } from "../../core/cairo.js";
import { roundHalfAway } from "../../core/round.js";
import type { Calendar, CatalogAsset, CategoryCalendar, RegistrySeller } from "../../schema/inputs.js";
import { BASE_ASSETS, TROY_OUNCE_G, type SampleAsset } from "../../sample/catalog.js";
import { SampleMarket } from "../../sample/market.js";
import { normal, uniform } from "../../sample/random.js";

export const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

/**
 * Levels (EGP per unit) and daily volatility of the catalog's currencies that the sample market does
 * not simulate, at the sample's dollar (47.55): cross rates of late 2025, rounded.
 */
const MORE_LEVELS: Record<string, { level: number; dailyVol: number }> = {
  "BHD-EGP": { level: 126.1, dailyVol: 0.0016 },
  "JPY-EGP": { level: 0.317, dailyVol: 0.005 },
  "CAD-EGP": { level: 34.4, dailyVol: 0.004 },
  "AUD-EGP": { level: 31.2, dailyVol: 0.005 },
  "DKK-EGP": { level: 7.41, dailyVol: 0.004 },
  "NOK-EGP": { level: 4.45, dailyVol: 0.005 },
  "SEK-EGP": { level: 4.55, dailyVol: 0.005 },
};

/** A catalog asset with the model's parameters. */
export type WorldAsset = SampleAsset;

/** The cast the market is played with: the copy's configuration. */
export interface Cast {
  catalog: readonly CatalogAsset[];
  registry: readonly RegistrySeller[];
  calendar: Calendar;
}

/** A seller's two sides for one asset, per unit of the catalog's asset. */
export interface Sides {
  buy: number;
  sell: number;
}

/** Fine gold per unit of a metal asset the sample does not know: `XAU<k>K-…` per gram, else null. */
function goldGramsOf(a: CatalogAsset): number | undefined {
  const k = /^XAU(\d{1,2})K-/.exec(a.id);
  if (k) return Number(k[1]) === 24 ? 0.999 : Number(k[1]) / 24;
  if (/^GOLDPOUND-/.test(a.id)) return 8 * 0.875;
  return undefined;
}

export class WorldMarket {
  readonly assets: ReadonlyMap<string, WorldAsset>;
  readonly sellers: ReadonlyMap<string, RegistrySeller>;
  private readonly model: SampleMarket;

  constructor(
    readonly seed: string,
    readonly cast: Cast,
  ) {
    // SampleMarket with no cast of its own: only its walk (`mid`) is used, with the assets below.
    this.model = new SampleMarket({ seed, assets: 0, sellers: 0 });
    const base = new Map(BASE_ASSETS.map((a) => [a.id, a]));
    this.assets = new Map(
      cast.catalog.map((a): [string, WorldAsset] => {
        const known = base.get(a.id);
        const grams = known?.goldGrams ?? (a.kind === "metal" ? goldGramsOf(a) : undefined);
        const params = known ??
          MORE_LEVELS[a.id] ?? { level: 1 + 99 * this.u("level", a.id), dailyVol: 0.002 + 0.004 * this.u("vol", a.id) };
        // The catalog's own word on market and decimals; the model's on level and volatility.
        return [
          a.id,
          {
            ...a,
            level: params.level,
            dailyVol: grams !== undefined ? 0.009 : params.dailyVol,
            ...(grams !== undefined ? { goldGrams: grams } : {}),
          },
        ];
      }),
    );
    this.sellers = new Map(cast.registry.map((s) => [s.id, s]));
  }

  u(...key: Array<string | number>): number {
    return uniform(`${this.seed}:world:${key.join(":")}`);
  }

  private draw(...key: Array<string | number>): number {
    return normal(`${this.seed}:world:${key.join(":")}`);
  }

  asset(id: string): WorldAsset | undefined {
    return this.assets.get(id);
  }

  /** The mid of an asset at an instant (EGP per unit of the asset); a metal from the ounce and the dollar. */
  mid(assetId: string, ms: number): number {
    const a = this.assets.get(assetId);
    if (!a) throw new Error(`the world's market has no asset ${assetId}`);
    return this.model.mid(a, ms);
  }

  /** A troy ounce of fine gold in EGP (the sample's ounce in dollars times its dollar). */
  ounceEgp(ms: number): number {
    return this.model.mid({ ...BASE_ASSETS.find((a) => a.id === "XAU24K-EGP")!, goldGrams: TROY_OUNCE_G }, ms);
  }

  /** The calendar of an asset's category (the first category when the calendar has none for it). */
  calendarOf(assetId: string): CategoryCalendar {
    const cat = this.assets.get(assetId)?.category;
    const cats = this.cast.calendar.categories;
    return (cat !== undefined ? cats[cat] : undefined) ?? Object.values(cats)[0]!;
  }

  /** Whether a seller deals in an asset: its licence's categories; the biggest few always, the others most days of the year. */
  deals(sellerId: string, assetId: string): boolean {
    const s = this.sellers.get(sellerId);
    const a = this.assets.get(assetId);
    if (!s || !a || !s.categories.includes(a.category) || a.market === "reference") return false;
    if (/^(USD|EUR|GBP|SAR)-/.test(a.id) || a.category !== "currencies") return true;
    return this.u("covers", sellerId, assetId) < 0.85;
  }

  /**
   * A seller's quote at an instant: around the mid with the seller's bias and half-spread and an
   * hourly jitter (currencies), or a premium above and a discount below it (gold), rounded to the
   * catalog's decimals. The sample market's formula (src/sample/market.ts sellerQuote).
   */
  quote(sellerId: string, assetId: string, ms: number): Sides {
    const asset = this.assets.get(assetId)!;
    const mid = this.mid(assetId, ms);
    if (asset.category === "metals" || asset.goldGrams !== undefined) {
      const premium = /^GOLDPOUND-/.test(asset.id) ? 0.012 : 0;
      const up = 0.004 + 0.004 * this.u("gs", sellerId, assetId) + premium;
      const down = 0.003 + 0.003 * this.u("gb", sellerId, assetId) - premium / 2;
      return {
        sell: roundHalfAway(mid * (1 + up), asset.decimals),
        buy: roundHalfAway(mid * (1 - down), asset.decimals),
      };
    }
    const kind = this.sellers.get(sellerId)?.kind;
    const bias = 0.0012 * (this.u("bias", sellerId, assetId) - 0.5);
    const half = (kind === "exchange-house" ? 0.002 : 0.0008) + 0.002 * this.u("half", sellerId, assetId);
    const m = mid * (1 + bias + 0.0002 * this.draw("sq", sellerId, assetId, Math.floor(ms / HOUR_MS)));
    return { sell: roundHalfAway(m * (1 + half), asset.decimals), buy: roundHalfAway(m * (1 - half), asset.decimals) };
  }

  /**
   * When a publisher last published for an asset's category at or before `ms`: the latest top of a
   * trading hour plus the publisher's few minutes' delay (`delayMs(hourMs)`), looking back up to
   * three weeks (a long holiday); null when the calendar has no session in that time.
   */
  lastPublication(category: CategoryCalendar, ms: number, delayMs: (hourMs: number) => number): number | null {
    let date = cairoDate(ms);
    for (let back = 0; back < 21; back++, date = addDays(date, -1)) {
      const hours: number[] = [];
      for (const [open, close] of sessionsOn(date, category))
        for (let t = Math.ceil(open / HOUR_MS) * HOUR_MS; t < close; t += HOUR_MS) hours.push(t);
      for (const h of hours.sort((a, b) => b - a)) {
        const at = h + delayMs(h);
        if (at <= ms) return at;
      }
    }
    return null;
  }

  /** The publication before `pubMs` (an aggregator's relay lags one), or pubMs itself when it is its day's first. */
  previousPublication(category: CategoryCalendar, pubMs: number, delayMs: (hourMs: number) => number): number {
    const prev = this.lastPublication(category, pubMs - 1, delayMs);
    return prev !== null && cairoDate(prev) === cairoDate(pubMs) ? prev : pubMs;
  }

  /** A publisher's delay after the top of an hour: whole seconds, under `maxMinutes`. */
  delay(publisher: string, hourMs: number, maxMinutes: number): number {
    return Math.floor(this.u("delay", publisher, hourMs) * maxMinutes * 60) * 1000;
  }

  /**
   * A dealer that stamps its board continuously: its record is stamped a few minutes (3 to 7)
   * before `ms` inside a session; outside, as of a few minutes before its last session closed.
   */
  lastBoard(category: CategoryCalendar, ms: number, publisher: string): number | null {
    const hourMs = Math.floor(ms / HOUR_MS) * HOUR_MS;
    const back = (3 + Math.floor(this.u("board", publisher, hourMs) * 5)) * MINUTE_MS;
    let date = cairoDate(ms);
    for (let d = 0; d < 21; d++, date = addDays(date, -1)) {
      const sessions = [...sessionsOn(date, category)].sort((a, b) => b[0] - a[0]);
      for (const [open, close] of sessions) {
        const at = Math.min(ms, close) - back;
        if (at >= open) return Math.floor(at / 1000) * 1000;
      }
    }
    return null;
  }

  /** The central bank's business days: the currencies' calendar (its sessions and holidays). */
  isBusinessDay(date: string): boolean {
    const cats = this.cast.calendar.categories;
    const cal = cats["currencies"] ?? Object.values(cats)[0];
    return cal !== undefined && sessionsOn(date, cal).length > 0;
  }

  /** The first session's opening of a business day: when the central bank's rate of the day is out. */
  businessOpen(date: string): number | null {
    const cats = this.cast.calendar.categories;
    const cal = cats["currencies"] ?? Object.values(cats)[0];
    const s = cal ? sessionsOn(date, cal) : [];
    return s.length ? Math.min(...s.map((x) => x[0])) : null;
  }

  /**
   * The central bank's rate of an asset for a business day: its morning fixing, an hour after the
   * market opens, a tenth of a percent either side (the sample's official rate), to 4 decimals.
   */
  official(assetId: string, date: string): Sides | null {
    const open = this.businessOpen(date);
    if (open === null || !this.assets.has(assetId)) return null;
    const cbe = this.mid(assetId, open + HOUR_MS);
    return { buy: roundHalfAway(cbe * 0.9989, 4), sell: roundHalfAway(cbe * 1.0011, 4) };
  }

  /** The global reference's daily mid of an asset: its mid at the start of the UTC day `date`. */
  globalMid(assetId: string, date: string): number {
    return this.mid(assetId, Date.parse(`${date}T00:00:00Z`));
  }

  /** A troy ounce of fine gold in EGP at the start of the UTC day `date`. */
  globalOunce(date: string): number {
    return this.ounceEgp(Date.parse(`${date}T00:00:00Z`));
  }
}

/** Cairo local time of an instant, formatted with luxon tokens (English month and day names). */
export function cairoText(ms: number, format: string, zone = CAIRO): string {
  return DateTime.fromMillis(ms, { zone }).setLocale("en-US").toFormat(format);
}
