/**
 * What the client checks of a document before handing it over: every member its types promise, at
 * every depth, with the kind they promise (a string, a number, one of the enum's values, null where
 * null is allowed). A host that answers 200 with something else (a CDN's page, a truncated or
 * foreign JSON document) is then named, URL and member, instead of failing later in the app with a
 * bare TypeError. Members the types do not know are let through: the API adds members without a new
 * schemaVersion (docs/api.md).
 *
 * The specs below are typed by Spec<T> over the generated types (./openapi.ts): when the API's
 * description adds, removes or retypes a member, they no longer compile until they say the same.
 * Hand-written rather than generated, so the package keeps no dependency but fetch.
 */
import type { components } from "./openapi.js";

type S = components["schemas"];

/** What a value of type T must be, in a form that can be checked at run time. */
export type Spec<T> = null extends T
  ? { nullable: Spec<Exclude<T, null>> }
  : [T] extends [readonly (infer U)[]]
    ? { array: Spec<U> }
    : [T] extends [string]
      ? string extends T
        ? "string" | "instant"
        : { strings: Record<T, true> }
      : [T] extends [number]
        ? number extends T
          ? "number"
          : { numbers: Record<T, true> }
        : [T] extends [boolean]
          ? "boolean"
          : {
              members: {
                [K in keyof T]-?: Partial<Pick<T, K>> extends Pick<T, K>
                  ? { optional: Spec<Exclude<T[K], undefined>> }
                  : Spec<T[K]>;
              };
            };

/** Spec<T> of any T, as the checker reads it. */
export type AnySpec =
  | "string"
  | "instant"
  | "number"
  | "boolean"
  | { nullable: AnySpec }
  | { optional: AnySpec }
  | { array: AnySpec }
  | { strings: Record<string, true> }
  | { numbers: Record<number, true> }
  | { members: Record<string, AnySpec> };

/** Where a document is not what its types promise: the member's path (`assets[2].freshness.state`), and what was there. */
export interface Mismatch {
  member: string;
  expected: string;
  got: string;
}

const KIND: Record<string, string> = {
  string: "a string",
  instant: "an ISO 8601 instant",
  number: "a number",
  boolean: "a boolean",
};

function seen(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  const text = JSON.stringify(value);
  return `${typeof value} ${text.length > 40 ? `${text.slice(0, 37)}…` : text}`;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The first place where `value` is not what `spec` says, or null when it is. */
export function mismatch(spec: AnySpec, value: unknown, at = ""): Mismatch | null {
  const wrong = (expected: string): Mismatch => ({ member: at, expected, got: seen(value) });
  if (typeof spec === "string") {
    const ok =
      spec === "number"
        ? typeof value === "number" && Number.isFinite(value)
        : spec === "instant"
          ? typeof value === "string" && !Number.isNaN(Date.parse(value))
          : typeof value === spec;
    return ok ? null : wrong(KIND[spec]!);
  }
  if ("nullable" in spec) {
    if (value === null) return null;
    const m = mismatch(spec.nullable, value, at);
    return m && m.member === at ? { ...m, expected: `${m.expected} or null` } : m;
  }
  if ("optional" in spec) return value === undefined ? null : mismatch(spec.optional, value, at);
  if ("strings" in spec || "numbers" in spec) {
    const values = "strings" in spec ? spec.strings : spec.numbers;
    const kind = "strings" in spec ? "string" : "number";
    if (typeof value === kind && Object.hasOwn(values, String(value))) return null;
    const names = Object.keys(values).map((v) => (kind === "string" ? JSON.stringify(v) : v));
    return wrong(names.length === 1 ? names[0]! : `one of ${names.join(", ")}`);
  }
  if ("array" in spec) {
    if (!Array.isArray(value)) return wrong("an array");
    for (let i = 0; i < value.length; i++) {
      const m = mismatch(spec.array, value[i], `${at}[${i}]`);
      if (m) return m;
    }
    return null;
  }
  if (!isObject(value)) return wrong("an object");
  for (const [name, member] of Object.entries(spec.members)) {
    const m = mismatch(member, Object.hasOwn(value, name) ? value[name] : undefined, at ? `${at}.${name}` : name);
    if (m) return m;
  }
  return null;
}

// The documents the client returns, member by member, as ./openapi.ts types them; schemaVersion
// first, so that another API's document or another version is named by it.

const LINKS = {
  _changelog: "string",
  _docs: "string",
  _self: "string",
  _spec: "string",
  _terms: "string",
} as const;
const HEADER = { ...LINKS, _about: "string", _disclaimer: "string", _license: "string" } as const;
const buySell = { members: { buy: { nullable: "number" }, sell: { nullable: "number" } } } as const;
const lean = { numbers: { "-1": true, 0: true, 1: true } } as const;
const market = { strings: { competitive: true, sole: true, reference: true } } as const;

const DIRECTION: Spec<S["Direction"]> = {
  members: {
    best: {
      nullable: {
        members: { seller: { nullable: "string" }, sellerAr: { nullable: "string" }, value: { nullable: "number" } },
      },
    },
    favorability: { nullable: "number" },
    previous: {
      nullable: { members: { change: "number", changePct: "number", date: "string", value: "number" } },
    },
    priorDays: "number",
    signals: {
      members: {
        global: { nullable: { members: { diffPct: { nullable: "number" }, notable: "boolean" } } },
        official: { nullable: { members: { diffPct: { nullable: "number" }, lean } } },
        position: { members: { lean } },
        trend: {
          nullable: {
            members: {
              changePct: { nullable: "number" },
              days: { nullable: "number" },
              direction: { nullable: { strings: { up: true, down: true, flat: true } } },
              lean,
              volatilityPct: { nullable: "number" },
            },
          },
        },
      },
    },
    verdict: { strings: { favorable: true, weak: true, ordinary: true, mixed: true, calibrating: true } },
  },
};

const ASSET: Spec<S["Asset"]> = {
  members: {
    asOf: "string",
    benchmark: { nullable: buySell },
    category: "string",
    confidence: {
      members: { checks: "number", level: { strings: { high: true, medium: true, low: true, none: true } } },
    },
    decimals: "number",
    defaultSide: { strings: { sell: true, buy: true } },
    directions: { members: { buy: DIRECTION, sell: DIRECTION } },
    freshness: {
      members: { stale: "boolean", state: { strings: { fresh: true, closed: true, delayed: true, stale: true } } },
    },
    global: { nullable: { members: { value: { nullable: "number" } } } },
    id: "string",
    kind: "string",
    market,
    name: "string",
    nameAr: "string",
    observedAt: { nullable: "string" },
    sellers: {
      array: {
        members: {
          buy: { nullable: "number" },
          id: "string",
          observedAt: "string",
          previous: { nullable: buySell },
          sell: { nullable: "number" },
          seller: "string",
          sellerAr: { nullable: "string" },
          source: "string",
          sources: { array: "string" },
        },
      },
    },
    probation: {
      optional: {
        array: {
          members: {
            buy: { nullable: "number" },
            id: "string",
            observedAt: "string",
            passed: "boolean",
            reason: { nullable: "string" },
            sell: { nullable: "number" },
            seller: "string",
            sellerAr: { nullable: "string" },
            source: "string",
          },
        },
      },
    },

    series: {
      array: {
        members: {
          bench: { nullable: "number" },
          buyHi: { nullable: "number" },
          buyLo: { nullable: "number" },
          date: "string",
          sellHi: { nullable: "number" },
          sellLo: { nullable: "number" },
        },
      },
    },
    slug: "string",
    unit: "string",
  },
};

export const FEED: Spec<S["Feed"]> = {
  members: {
    schemaVersion: { numbers: { 1: true } },
    ...HEADER,
    _variants: { members: { asset: "string", category: "string" } },
    assets: { array: ASSET },
    generatedAt: "instant", // the answer's age is measured from it
    seriesWindowDays: "number",
  },
};

const window = { members: { limit: "number", seconds: "number" } } as const;

export const INDEX: Spec<S["Index"]> = {
  members: {
    schemaVersion: { numbers: { 1: true } },
    ...LINKS,
    endpoints: {
      array: {
        members: {
          description: "string",
          method: { strings: { GET: true } },
          parameters: { array: "string" },
          path: "string",
        },
      },
    },
    filters: {
      members: {
        asset: {
          array: {
            members: { category: "string", id: "string", name: "string", nameAr: "string", slug: "string" },
          },
        },
        category: { array: "string" },
      },
    },
    homes: {
      members: {
        mirror: { nullable: "string" },
        onMirror: { members: { asset: "string", category: "string", index: "string", rule: "string" } },
        primary: { nullable: "string" },
      },
    },
    limits: {
      members: {
        anonymousWhenBusy: { members: { identifyWith: { array: "string" }, rule: "string", window } },
        daily: { members: { limit: "number", resetsAt: "string" } },
        dataChangesAtMostEvery: "string",
        lookbackDays: "number",
        seriesWindowDays: "number",
        suggestedPollEvery: "string",
        window,
      },
    },
    version: { strings: { v1: true } },
  },
};

const archiveSeller = {
  nullable: { members: { id: "string", seller: "string", sellerAr: { nullable: "string" } } },
} as const;

export const HISTORY: Spec<S["History"]> = {
  members: {
    schemaVersion: { numbers: { 1: true } },
    ...HEADER,
    asset: {
      members: {
        category: "string",
        decimals: "number",
        id: "string",
        kind: "string",
        market,
        name: "string",
        nameAr: "string",
        retired: { optional: "string" },
        slug: "string",
        unit: "string",
      },
    },
    entries: {
      array: {
        members: {
          bench: { nullable: "number" },
          bestBuy: archiveSeller,
          bestSell: archiveSeller,
          buyHi: { nullable: "number" },
          buyLo: { nullable: "number" },
          date: "string",
          global: { nullable: "number" },
          official: { nullable: buySell },
          sellHi: { nullable: "number" },
          sellLo: { nullable: "number" },
          sellerCount: "number",
        },
      },
    },
    from: { nullable: "string" },
    to: { nullable: "string" },
  },
};

/** A document the client returns: its name in the types, and its spec. */
export interface DocumentShape {
  name: "Feed" | "Index" | "History";
  spec: AnySpec;
}

export const SHAPES = {
  feed: { name: "Feed", spec: FEED },
  index: { name: "Index", spec: INDEX },
  history: { name: "History", spec: HISTORY },
} as const satisfies Record<string, DocumentShape>;
