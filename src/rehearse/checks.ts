/**
 * The checks the rehearsal's driver makes itself after each hour (src/rehearse/run.ts; the published
 * numbers are the oracle's, src/rehearse/oracle): that no log lost a byte, that a refusal is one
 * line, which site a client gets after a killed build, and that the events agree with the state.
 */
import { createHash } from "node:crypto";
import { promises as fs } from "node:fs";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { instantString } from "../core/cairo.js";
import { dataPaths, FOLDERS, LOG_FOLDERS } from "../core/data-layout.js";
import { PriceFeedError } from "../core/errors.js";
import { EVENTS_RETENTION_DAYS } from "../core/methodology.js";
import { readJson } from "../io/json-file.js";
import { ProbationState } from "../schema/probation.js";

/** Each log file's size and the SHA-256 of its bytes, to see that the next hour only added to it. */
export type LogMarks = Map<string, { bytes: number; sha: string }>;
const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

export async function markLogs(dataDir: string): Promise<LogMarks> {
  const out: LogMarks = new Map();
  for (const folder of [...Object.values(LOG_FOLDERS), FOLDERS.history]) {
    const names = (await fs.readdir(path.join(dataDir, folder)).catch(() => [] as string[])).filter((n) =>
      n.endsWith(".ndjson"),
    );
    for (const n of names.sort()) {
      const b = await fs.readFile(path.join(dataDir, folder, n));
      out.set(`${folder}/${n}`, { bytes: b.length, sha: sha(b) });
    }
  }
  return out;
}

/** What a log lost between two marks: none, when each file kept its bytes as a prefix or went to history/. */
export async function lostFromLogs(dataDir: string, before: LogMarks, after: LogMarks): Promise<string[]> {
  const lost: string[] = [];
  for (const [file, m] of before) {
    const now = after.get(file);
    if (!now) {
      const history = `${FOLDERS.history}/${path.basename(file)}`;
      if (file.startsWith(`${LOG_FOLDERS.quotes}/`) && after.has(history)) continue; // compacted (§ compaction)
      lost.push(`${file} is gone`);
      continue;
    }
    if (now.bytes === m.bytes && now.sha === m.sha) continue;
    if (now.bytes < m.bytes) {
      lost.push(`${file} shrank from ${m.bytes} to ${now.bytes} bytes`);
      continue;
    }
    const head = (await fs.readFile(path.join(dataDir, file))).subarray(0, m.bytes);
    if (sha(head) !== m.sha) lost.push(`${file}: its first ${m.bytes} bytes changed`);
  }
  return lost;
}

/** A refusal as the CLI would print it: one of ours, one line (src/cli/main.ts explain). */
export const oneLine = (e: unknown): string | null =>
  e instanceof PriceFeedError && !e.message.includes("\n") ? e.message : null;

export const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e)).split("\n")[0]!;

export const short = (v: unknown) => {
  const s = JSON.stringify(v) ?? "undefined";
  return s.length > 160 ? `${s.slice(0, 157)}...` : s;
};

/** The published generatedAt of a site, as an instant string (instantString), or null when it has none that reads. */
export async function generatedAt(outDir: string): Promise<string | null> {
  try {
    const feed = JSON.parse(await fs.readFile(path.join(outDir, "api", "v1", "feed.json"), "utf8")) as {
      generatedAt: string;
    };
    return instantString(Date.parse(feed.generatedAt));
  } catch {
    return null;
  }
}

/** The site a client would get after a killed build: public/, or the whole one a swap cut short left beside it. */
export async function servedSite(outDir: string): Promise<string | null> {
  if (
    await fs.stat(outDir).then(
      (s) => s.isDirectory(),
      () => false,
    )
  )
    return outDir;
  const parent = path.dirname(outDir);
  const old = (await fs.readdir(parent)).filter((n) => n.startsWith(`${path.basename(outDir)}.old-`)).sort();
  return old.length ? path.join(parent, old.at(-1)!) : null;
}

interface SourceHealthDoc {
  sources: Array<{
    id: string;
    probation: {
      standing: string;
      since: string | null;
      lastChange: { at: string; standing: string; reason: string; countsFrom: string | null } | null;
    };
  }>;
}
interface EventsDoc {
  builtAt?: string;
  events: Array<{
    kind: string;
    at: string;
    source: string | null;
    before: unknown;
    after: { standing?: string } | null;
  }>;
}

/**
 * The events agree with the state: every source's published standing is data/state/probation.json's;
 * one probation event for each graduation and return the record holds (within the events'
 * retention), and none besides; and the record the build kept (data/state/events.json) holds the
 * events it published.
 */
export async function eventsDisagree(
  dataDir: string,
  outDir: string,
  subject: ReadonlySet<string>,
  nowMs: number,
): Promise<string[]> {
  const problems: string[] = [];
  const state: ProbationState = await readJson(dataPaths(dataDir).probation, ProbationState).catch(() => ({
    sources: {},
  }));
  const read = async <T>(p: string) => JSON.parse(await fs.readFile(path.join(outDir, p), "utf8")) as T;
  const health = await read<SourceHealthDoc>("api/v1/sources.json");
  const events = await read<EventsDoc>("api/v1/events.json");
  for (const s of health.sources) {
    const st = state.sources[s.id];
    const want = !subject.has(s.id) ? "counted" : (st?.standing ?? "probation");
    if (s.probation.standing !== want)
      problems.push(`${s.id}: published standing ${s.probation.standing}, data/state/probation.json ${want}`);
    const last = st?.changes.at(-1);
    const wantLast = last
      ? { at: last.at, standing: last.standing, reason: last.reason, countsFrom: last.countsFrom ?? null }
      : null;
    if (subject.has(s.id) && !isDeepStrictEqual(s.probation.lastChange, wantLast))
      problems.push(`${s.id}: published lastChange ${short(s.probation.lastChange)}, state ${short(wantLast)}`);
    if (subject.has(s.id) && st && s.probation.since !== st.since)
      problems.push(`${s.id}: published since ${s.probation.since}, state ${st.since}`);
  }
  // One probation event per graduation or return the record holds within the events' retention, at
  // the instant of the run that decided it (src/feed/events.ts probationEvents), and none besides.
  const oldest = nowMs - EVENTS_RETENTION_DAYS * 86_400_000;
  const want = Object.entries(state.sources)
    .flatMap(([source, p]) => p.changes.map((c) => `${source} ${Date.parse(c.at)} ${c.standing}`))
    .filter((k) => Number(k.split(" ")[1]) >= oldest)
    .sort();
  const got = events.events
    .filter((e) => e.kind === "probation")
    .map((e) => `${e.source} ${Date.parse(e.at)} ${e.after?.standing}`)
    .sort();
  const when = (k: string) => `${k.split(" ")[0]} ${k.split(" ")[2]} at ${instantString(Number(k.split(" ")[1]))}`;
  for (const k of want.filter((k) => !got.includes(k))) problems.push(`no probation event for ${when(k)}`);
  for (const k of got.filter((k) => !want.includes(k)))
    problems.push(`a probation event the record does not hold: ${when(k)}`);
  if (new Set(got).size !== got.length) problems.push(`a probation event published twice`);
  const kept = await fs
    .readFile(dataPaths(dataDir).events, "utf8")
    .then((t) => JSON.parse(t) as EventsDoc)
    .catch(() => null);
  if (!kept || !isDeepStrictEqual(kept.events, events.events))
    problems.push(`data/state/events.json does not hold the events the build published`);
  else if (kept.builtAt !== undefined && Date.parse(kept.builtAt) !== nowMs)
    problems.push(`data/state/events.json is the record of the build of ${kept.builtAt}, not of this one`);
  return problems;
}
