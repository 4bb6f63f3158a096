/**
 * The faults the rehearsal's driver does to the hourly job itself (src/rehearse/schedule.ts): which
 * sources each network fault can hit, a state file cut short, the site's cache lost, a build killed
 * mid-write, and the internal tampering that proves the checks can fail. The network's faults are
 * the simulated internet's (src/rehearse/world).
 */
import { spawn } from "node:child_process";
import { promises as fs } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isoUtc } from "../core/cairo.js";
import { sourceKind, type SourceConfig } from "../schema/sources.js";
import type { Catalog } from "../schema/inputs.js";
import { uniform } from "../sample/random.js";
import type { NetFaultKind } from "./schedule.js";

/** The compiled command line, from src/rehearse or dist/rehearse (or the bundle in dist/cli) alike. */
export const CLI_BIN = fileURLToPath(new URL("../../dist/cli/bin.js", import.meta.url));

/** The state files a truncation can hit, relative to the data folder (src/core/data-layout.ts). */
export const STATE_FILES = [
  "state/sources.json",
  "state/probation.json",
  "state/events.json",
  "state/published.json",
] as const;

/** The catalog's asset ids a source's configuration names, wherever its adapter keeps them. */
function assetsNamed(s: SourceConfig, ids: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  const walk = (v: unknown): void => {
    if (typeof v === "string") {
      if (ids.has(v)) out.add(v);
    } else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object") Object.values(v).forEach(walk);
  };
  walk((s as { assets?: unknown }).assets);
  return out;
}

const fieldsOf = (s: SourceConfig): Record<string, unknown> =>
  "fields" in s && s.fields && typeof s.fields === "object" ? (s.fields as Record<string, unknown>) : {};

/**
 * Which sources each network fault can hit, of those the world serves: any source for the
 * transport's faults; a seller or aggregator for a wrong side; its gold for a price per ounce; its
 * currencies for a price per 100; one that stamps its own time for a stale stamp or a clock ahead;
 * one that names its banks (an aggregator's page) for an unknown or renamed bank; the global
 * reference for the reference down.
 */
export function faultTargets(
  sources: readonly SourceConfig[],
  served: readonly string[],
  catalog: Catalog,
): Partial<Record<NetFaultKind, string[]>> {
  const byId = new Map(sources.map((s) => [s.id, s]));
  const list = served.map((id) => byId.get(id)).filter((s): s is SourceConfig => s !== undefined);
  const gold = new Set(catalog.filter((a) => a.category === "gold").map((a) => a.id));
  const currency = new Set(catalog.filter((a) => a.category !== "gold").map((a) => a.id));
  const quoting = list.filter((s) => ["seller", "aggregator"].includes(sourceKind(s)));
  const ids = (xs: readonly SourceConfig[]) => xs.map((s) => s.id);
  const seller = (s: SourceConfig) => fieldsOf(s)["seller"];
  return {
    outage: ids(list),
    timeout: ids(list),
    "rate-limited": ids(list),
    unavailable: ids(list),
    challenge: ids(list),
    "sides-swapped": ids(quoting),
    "unit-per-ounce": ids(quoting.filter((s) => assetsNamed(s, gold).size > 0)),
    "unit-per-100": ids(quoting.filter((s) => assetsNamed(s, currency).size > 0)),
    "stale-stamp": ids(quoting.filter((s) => fieldsOf(s)["time"] !== undefined)),
    "clock-ahead": ids(quoting.filter((s) => fieldsOf(s)["time"] !== undefined)),
    "unknown-bank": ids(quoting.filter((s) => seller(s) !== undefined && !Object.hasOwn(Object(seller(s)), "const"))),
    "renamed-bank": ids(quoting.filter((s) => seller(s) !== undefined && !Object.hasOwn(Object(seller(s)), "const"))),
    "reference-down": ids(list.filter((s) => sourceKind(s) === "reference")),
  };
}

/**
 * Cuts a state file short (a write torn by a full disk or another tool): its first part kept, at
 * a cut fixed by the key. Resolves to the bytes it held, for the operator's restoring it from the
 * last commit; null when there is no such file yet (nothing to cut).
 */
export async function truncateFile(file: string, key: string): Promise<Buffer | null> {
  const bytes = await fs.readFile(file).catch(() => null);
  if (bytes === null || bytes.length < 2) return null;
  const keep = Math.max(1, Math.min(bytes.length - 1, Math.floor(bytes.length * (0.1 + 0.8 * uniform(key)))));
  await fs.writeFile(file, bytes.subarray(0, keep));
  return bytes;
}

/** What the hourly job's cache carries from hour to hour (.github/workflows/publish.yml "Restore the previous site"). */
export const carried = (outDir: string) => [outDir, `${outDir}.archive-cache`, `${outDir}.card-cache`];

/** An evicted Actions cache: the next build starts with no previous site and no caches. */
export async function loseCache(outDir: string): Promise<void> {
  for (const p of carried(outDir)) await fs.rm(p, { recursive: true, force: true });
}

/** How a killed build ended: the signal (SIGKILL when it was killed where asked) and what it printed. */
export interface KilledBuild {
  signal: NodeJS.Signals | null;
  code: number | null;
  stderr: string;
}

/**
 * The build as the hourly job runs it, in a process of its own (the compiled CLI), killed with
 * SIGKILL at a step of its site's swap (src/io/site-writer.ts KILL_POINTS, the hook
 * test/faults/recovery.test.ts uses): the OOM killer or a cancelled job, mid-write.
 */
export function killedBuild(o: {
  dataDir: string;
  outDir: string;
  nowMs: number;
  killAt: string;
  signingKey: string;
  bin?: string;
}): Promise<KilledBuild> {
  const args = [o.bin ?? CLI_BIN, "build", "--data", o.dataDir, "--out", o.outDir, "--now", isoUtc(o.nowMs)];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      env: {
        ...process.env,
        PRICE_FEED_TEST_KILL_AT: o.killAt,
        PRICE_FEED_SIGNING_KEY: o.signingKey,
        NODE_OPTIONS: "--max-semi-space-size=8",
      },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stderr }));
  });
}

/** A feed asset as far as the tampering reads it. */
interface TamperAsset {
  sellers?: Array<{ id: string; seller: string; sellerAr?: string; buy: number | null; sell: number | null }>;
  directions?: Record<string, { best: { seller: string; sellerAr?: string; value: number } | null }>;
}

/**
 * The proof that the checks can fail (an internal option, never a flag): the published feed made to
 * give each side's worst seller as its best — the seller row whose price on that side is farthest
 * from the best's — after the build wrote it. Resolves to how many sides it changed.
 */
export async function publishWorstAsBest(outDir: string): Promise<number> {
  const file = path.join(outDir, "api", "v1", "feed.json");
  const feed = JSON.parse(await fs.readFile(file, "utf8")) as { assets: TamperAsset[] };
  let changed = 0;
  for (const a of feed.assets)
    for (const [side, d] of Object.entries(a.directions ?? {})) {
      if (!d.best || (side !== "buy" && side !== "sell")) continue;
      const best = d.best;
      let worst: { seller: string; sellerAr?: string; value: number } | null = null;
      for (const r of a.sellers ?? []) {
        const v = r[side];
        if (v === null || v === best.value) continue;
        if (!worst || Math.abs(v - best.value) > Math.abs(worst.value - best.value))
          worst = { seller: r.seller, ...(r.sellerAr !== undefined && { sellerAr: r.sellerAr }), value: v };
      }
      if (worst) {
        d.best = worst;
        changed++;
      }
    }
  await fs.writeFile(file, JSON.stringify(feed));
  return changed;
}
