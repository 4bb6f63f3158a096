/** What the rehearsal's oracle expects a build to publish, per asset (the shapes of src/rehearse/oracle/feed.ts). */
import type { ProbationState } from "../../schema/probation.js";
import type { Config } from "./data.js";
import type { JudgedDay } from "./judge.js";
import type { DayRate } from "./references.js";
import type { Side } from "./judge.js";
import type { ExpectedDirection, SeriesEntry } from "./verdict.js";

export interface ExpectedRow {
  id: string;
  seller: string;
  buy: number | null;
  sell: number | null;
  source: string;
  sources: string[];
  observedAtMs: number;
  previous: { buy: number | null; sell: number | null } | null;
}

/** A quote of a source on probation on `asOf`, listed apart: its source and seller's latest of the day. */
export interface ExpectedApart {
  source: string;
  id: string;
  passed: boolean;
  reason: string | null;
}

export interface ExpectedAsset {
  id: string;
  slug: string;
  /** A reference asset (§4): its price from the references, no table, no best. */
  reference: boolean;
  asOf: string;
  observedAtMs: number | null;
  confidence: { level: "high" | "medium" | "low" | "none"; checks: number };
  sellers: ExpectedRow[];
  directions: Record<Side, ExpectedDirection>;
  series: SeriesEntry[];
  benchmark: { buy: number | null; sell: number | null } | null;
  global: { value: number | null } | null;
  probation: ExpectedApart[];
}

export interface Expected {
  nowMs: number;
  /** Per asset slug, in catalog order. */
  assets: Record<string, ExpectedAsset>;
  /** Per raw day, the rules' verdict on each logged quote (for judging a run, and for reports). */
  days: Map<string, JudgedDay>;
}

export interface ExpectOptions {
  /** The probation record to count by; default data/state/probation.json as it is. */
  probation?: ProbationState;
}

export interface AssetInputs {
  today: string;
  cfg: Config;
  official: DayRate[] | undefined;
  global: DayRate[] | undefined;
  days: Map<string, JudgedDay>;
}
