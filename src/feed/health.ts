/**
 * `price-feed health` as pure functions: from what the deployment keeps (each source's runs,
 * probation standing, the published manifest, the last build's outcome) to where each source stands
 * and the problems that need the operator (docs/operating.md "When something breaks"). The clock is
 * a parameter; the reading is src/jobs/health.ts's.
 *
 * A closed market is not a failure: a source's failures in a row count only the hourly runs that
 * fell inside the trading sessions of its market (docs/methodology.md §7.2 counts trading time the
 * same way), its market being the categories of the assets it served.
 */
import { PROBATION_RUNS } from "../core/methodology.js";
import { inSession } from "../core/cairo.js";
import { redactUrls } from "../core/redact.js";
import { publishedUnknown } from "../core/unknown-names.js";
import { standingSummary, subjectSources } from "../rules/probation.js";
import { sourceKind, type SourceConfig } from "../schema/sources.js";
import type { SourceKind } from "../schema/source-base.js";
import type { Calendar, Catalog, CategoryCalendar } from "../schema/inputs.js";
import type { Manifest, SourceRuns } from "../schema/documents.js";
import type { ProbationState } from "../schema/probation.js";
import type { BuildOutcome } from "../schema/health.js";
import { humanAge, readiness } from "./readiness.js";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** The default of `--after`: failing runs in a row, inside the source's sessions, before the operator hears of it. */
export const FAILING_AFTER_HOURS = 6;
/** A source on probation longer than this has a problem the rules will not solve alone (a week: 24 runs take two days). */
export const PROBATION_TOO_LONG_MS = 7 * DAY_MS;
/** A seller name the registry does not know, given by this many successful runs in a row (a day of them), is a problem. */
export const UNKNOWN_NAME_RUNS = 24;
/** How far back the failures in a row are counted, at most: a year of hourly runs. */
const MAX_HOURS_COUNTED = 366 * 24;

export interface HealthInputs {
  nowMs: number;
  /** `--after`: in-session failed runs in a row that make a problem (the official and reference sources: at most a trading day's). */
  afterHours: number;
  sources: readonly SourceConfig[];
  catalog: Catalog;
  calendar: Calendar;
  runs: SourceRuns;
  probation: ProbationState;
  /** The assets each source served in the latest raw days (src/io/source-assets.ts): its market. */
  sourceAssets: ReadonlyMap<string, ReadonlySet<string>>;
  /** The published site's manifest, or null when there is none. */
  manifest: Manifest | null;
  /** Where the manifest was looked for, for the message when there is none. */
  site: string;
  /** data/state/build.json, or null when no build recorded one. */
  build: BuildOutcome | null;
  /**
   * How the hourly run's publish job ended (`--publish-result`, the workflow's needs.publish.result),
   * when told: a deploy or a data commit that failed after a good build leaves a fresh manifest
   * here while the site that readers get goes stale.
   */
  publishResult?: string | null;
}

export interface SourceHealthLine {
  id: string;
  kind: SourceKind;
  /** counted (not subject to probation), probation or graduated. */
  standing: "counted" | "probation" | "graduated";
  standingSince: string | null;
  lastRunAt: string | null;
  lastSuccessAt: string | null;
  /** Whether its last run failed. */
  failing: boolean;
  failingSince: string | null;
  /** Its failed runs in a row that fell inside its market's sessions (hourly runs). */
  failuresInRow: number;
  /** Why it last failed, URLs' secrets removed (src/core/redact.ts); null if it never failed. */
  lastReason: string | null;
  /** The categories whose sessions count for it: its assets' (all categories when it served none yet). */
  market: string[];
  /** Seller names its last successful run gave that the registry does not know, with how many runs in a row gave each. */
  unknownNames: Array<{ name: string; runs: number; firstSeenAt: string }>;
}

export interface Problem {
  /** Stable across runs, e.g. `source-failing:cib-rates-api`: the next run finds its issue by it. */
  key: string;
  title: string;
  /** What is wrong, in a few lines of Markdown. */
  detail: string;
  /** What to do about it. */
  action: string;
  /** What a change of the problem is judged on: a comment is due when this differs from what was last said. */
  state: string;
  /** When the problem began, where known. */
  since: string | null;
}

export interface FeedHealth {
  status: "ready" | "not-ready" | "no-build";
  generatedAt: string | null;
  buildAgeSeconds: number | null;
  staleAssets: string[];
  action: string | null;
}

export interface HealthReport {
  checkedAt: string;
  afterHours: number;
  sources: SourceHealthLine[];
  feed: FeedHealth;
  build: BuildOutcome | null;
  problems: Problem[];
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Text a source or a page wrote (a failure's reason, a seller's name), as Markdown shows it
 * verbatim: one code span, so that it can mention nobody, link nowhere and load no image in the
 * issue it lands in (GitHub renders nothing inside a code span).
 */
export const verbatim = (text: string) => `\`${text.replaceAll("`", "'").replace(/\s+/g, " ").trim()}\``;

/** The calendars of a source's market: its assets' categories, or every category when it served none. */
export function marketOf(
  served: ReadonlySet<string> | undefined,
  catalog: Catalog,
  calendar: Calendar,
): Array<[string, CategoryCalendar]> {
  const categoryOf = new Map(catalog.map((a) => [a.id, a.category]));
  const mine = new Set([...(served ?? [])].map((a) => categoryOf.get(a)).filter((c) => c !== undefined));
  const all = Object.entries(calendar.categories);
  const chosen = all.filter(([c]) => mine.has(c));
  return (chosen.length ? chosen : all).sort(([a], [b]) => (a < b ? -1 : 1));
}

/**
 * The hourly runs from `fromMs` to `toMs` (both included, an hour apart, as the hourly job runs)
 * that fell inside a session of one of the calendars: the failures in a row that count.
 */
export function inSessionRuns(fromMs: number, toMs: number, cals: ReadonlyArray<CategoryCalendar>): number {
  let n = 0;
  for (let t = fromMs, i = 0; t <= toMs && i < MAX_HOURS_COUNTED; t += HOUR_MS, i++)
    if (cals.some((c) => inSession(t, c))) n++;
  return n;
}

/** The hourly runs of a full trading day of the market: the most any weekday's sessions hold. */
export function tradingDayRuns(cals: ReadonlyArray<CategoryCalendar>): number {
  const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
  let most = 0;
  for (const day of ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]) {
    // The union over the market's calendars, by minute: two overlapping sessions are one span of time.
    const open = new Set<number>();
    for (const c of cals)
      for (const s of c.sessions)
        if ((s.days as readonly string[]).includes(day))
          for (let m = minutes(s.open); m < minutes(s.close); m++) open.add(m);
    most = Math.max(most, Math.ceil(open.size / 60));
  }
  return most;
}

/** One source's line of the report. */
export function sourceLine(s: SourceConfig, i: HealthInputs, subject: ReadonlySet<string>): SourceHealthLine {
  const run = i.runs.sources[s.id];
  const market = marketOf(i.sourceAssets.get(s.id), i.catalog, i.calendar);
  const failing =
    !!run?.lastFailure &&
    run.lastFailure.at === run.lastRunAt &&
    (run.lastSuccessAt === null || Date.parse(run.lastFailure.at) > Date.parse(run.lastSuccessAt));
  // A record an older ingest wrote has no failingSince: the failures began after the last success.
  const since = !failing
    ? null
    : (run.failingSince ??
      (run.lastSuccessAt === null
        ? run.lastFailure!.at
        : iso(Math.min(Date.parse(run.lastSuccessAt) + HOUR_MS, Date.parse(run.lastFailure!.at)))));
  const standing = standingSummary(i.probation.sources[s.id], subject.has(s.id));
  return {
    id: s.id,
    kind: sourceKind(s),
    standing: standing.standing,
    standingSince: standing.since,
    lastRunAt: run?.lastRunAt ?? null,
    lastSuccessAt: run?.lastSuccessAt ?? null,
    failing,
    failingSince: since,
    failuresInRow: failing
      ? inSessionRuns(
          Date.parse(since!),
          Date.parse(run.lastRunAt),
          market.map(([, c]) => c),
        )
      : 0,
    lastReason: run?.lastFailure ? redactUrls(run.lastFailure.reason) : null,
    market: market.map(([c]) => c),
    unknownNames: run
      ? publishedUnknown(run).names.map((n) => ({ name: n.name, runs: n.runs, firstSeenAt: n.firstSeenAt }))
      : [],
  };
}

const OPERATING = "docs/operating.md";

/** What a failing source's operator does, by what its reason says (docs/operating.md "When something breaks"). */
export function failingAction(reason: string | null): string {
  const r = (reason ?? "").slice(0, 2_000).toLowerCase();
  if (/\b(403|429|503)\b|captcha|challenge|cloudflare|\bbots?\b|forbidden/.test(r))
    return `It may be a bot wall: the hourly run keeps every answer the source gave (--save-bodies; the artifact failed-source-bodies of the run). Open the saved body: a challenge page means the source refuses the job; a real page in a new shape means the adapter's fields must follow it (${OPERATING} "When a source breaks").`;
  if (/\b(404|410)\b|moved|not found/.test(r))
    return `The source's address answers nothing usable: find where it moved and update its url in sources.json, or disable it (${OPERATING} "When a source breaks").`;
  if (/timed out|timeout|econnrefused|enotfound|eai_again|reset/.test(r))
    return `The source cannot be reached: if it stays so for a day, check that its host still answers from elsewhere; disable it in sources.json if it is gone.`;
  return `Look at the saved answers of the run (the artifact failed-source-bodies; --save-bodies) and the adapter's fields, then fix the source in sources.json or disable it (${OPERATING} "When a source breaks").`;
}

const kindWords: Record<SourceKind, string> = {
  seller: "seller source",
  aggregator: "aggregator source",
  official: "official rates' source",
  reference: "global reference source",
};

/** The problems of the sources: failing too long, sent back to probation, on probation too long. */
function sourceProblems(s: SourceHealthLine, i: HealthInputs): Problem[] {
  const out: Problem[] = [];
  const cals = marketOf(i.sourceAssets.get(s.id), i.catalog, i.calendar).map(([, c]) => c);
  // The official rate and the global reference are each one source: a trading day without them is a
  // problem even when --after is set longer than that day.
  const reference = s.kind === "official" || s.kind === "reference";
  const day = tradingDayRuns(cals);
  const threshold = reference && day > 0 ? Math.min(i.afterHours, day) : i.afterHours;
  if (s.failing && s.failuresInRow >= threshold)
    out.push({
      key: `source-failing:${s.id}`,
      title: `${s.id}: failing inside its trading sessions${reference && threshold < i.afterHours ? " for a trading day" : ""}`,
      detail: [
        `The ${kindWords[s.kind]} \`${s.id}\` has failed every run since ${s.failingSince}; ${s.failuresInRow} of those runs fell inside the trading sessions of its market (${s.market.join(", ")}), where a failure counts (the threshold is ${threshold}${reference && threshold < i.afterHours ? ", a trading day, for this source" : ""}).`,
        `Last success: ${s.lastSuccessAt ?? "never"}. Last reason: ${s.lastReason === null ? "none recorded" : verbatim(s.lastReason)}.`,
        ...(reference
          ? [
              `Without it the feed shows the ${s.kind === "official" ? "official rate" : "global reference"} last in force, and the verdicts that weigh against it grow old.`,
            ]
          : []),
      ].join("\n\n"),
      action: failingAction(s.lastReason),
      state: s.lastReason ?? "",
      since: s.failingSince,
    });
  // A name that keeps coming and is no seller: a bank renamed on the page, or one the registry lacks.
  // Its quotes count for nothing until the registry gives the name (rule 1 of docs/methodology.md).
  const strangers = s.unknownNames.filter((n) => n.runs >= UNKNOWN_NAME_RUNS);
  if (strangers.length)
    out.push({
      key: `source-unknown-names:${s.id}`,
      title: `${s.id}: ${strangers.length} seller name${strangers.length === 1 ? "" : "s"} the registry does not know`,
      detail: [
        `The last ${UNKNOWN_NAME_RUNS} or more successful runs of \`${s.id}\` gave seller names that the registry (sellers.json) does not know; their rows are skipped, so whatever those sellers quote is not in the feed:`,
        strangers.map((n) => `- ${verbatim(n.name)}: ${n.runs} runs in a row, since ${n.firstSeenAt}`).join("\n"),
      ].join("\n\n"),
      action: `A bank of the registry written another way (renamed, or spelled otherwise on this page): add the name to that seller's \`aliases\` in sellers.json. A licensed seller the registry lacks: add it (${OPERATING} "Adding a licensed seller"). A name that is no seller to list (a bank not licensed, a heading read as a name): close this issue as not planned; it stays closed while the names are the same.`,
      state: strangers
        .map((n) => n.name)
        .sort()
        .join("\n"),
      since: strangers.map((n) => n.firstSeenAt).sort()[0] ?? null,
    });
  const p = i.probation.sources[s.id];
  const last = p?.changes.at(-1);
  if (s.standing === "probation" && p && last?.standing === "probation")
    out.push({
      key: `source-returned:${s.id}`,
      title: `${s.id}: sent back to probation`,
      detail: [
        `\`${s.id}\` was graduated, and was sent back to probation at ${last.at}: ${last.reason}.`,
        `Its quotes count for nothing until ${PROBATION_RUNS} clean runs over two Cairo days graduate it again (docs/methodology.md "New sources: probation").`,
      ].join("\n\n"),
      action: `Several quotes refused in one run usually means the source changed what it publishes: a unit (per 100 yen, per gram), a column, a side. See which rule refused them in the build report (public.build-report.json: its rejections give each one's source, reason, and the file and line of its price) and the source's last answer (--save-bodies), then fix the adapter's fields or units in sources.json (${OPERATING} "When something breaks").`,
      state: last.at,
      since: last.at,
    });
  else if (s.standing === "probation" && p && i.nowMs - Date.parse(p.since) > PROBATION_TOO_LONG_MS)
    out.push({
      key: `source-probation-long:${s.id}`,
      title: `${s.id}: on probation for more than a week`,
      detail: [
        `\`${s.id}\` has been on probation since ${p.since} (${humanAge(Math.round((i.nowMs - Date.parse(p.since)) / 1000))}), with ${p.runs.length} of the ${PROBATION_RUNS} clean runs it needs.`,
        p.runs.some((r) => r.refused > 0)
          ? `Of its last runs, ${p.runs.filter((r) => r.refused > 0).length} had quotes refused by rules 3, 5, 6 or 7: each starts its count again.`
          : `It rarely runs clean or rarely succeeds: its runs do not add up.`,
      ].join("\n\n"),
      action: `See what refuses its quotes in the build report (its rejections) and in the source's saved answers; fix its fields or units in sources.json, or disable it (${OPERATING} "When something breaks").`,
      state: p.since,
      since: p.since,
    });
  return out;
}

/** The feed as /readyz judges it at the instant (src/feed/readiness.ts), and its problem when not ready. */
function feedHealth(i: HealthInputs): { feed: FeedHealth; problem: Problem | null } {
  if (!i.manifest)
    return {
      feed: { status: "no-build", generatedAt: null, buildAgeSeconds: null, staleAssets: [], action: null },
      problem: {
        key: "feed-stale",
        title: "The feed is not ready: no published build",
        detail: `No build's manifest was found in ${i.site}: no build was published there, or the job stopped before it built (its log says where).`,
        action: "Run the hourly job (ingest, compact, build, publish); its log says what stopped it.",
        state: "no-build",
        since: null,
      },
    };
  const r = readiness(i.manifest, i.nowMs);
  const b = r.body;
  const feed: FeedHealth = {
    status: b.status,
    generatedAt: b.generatedAt,
    buildAgeSeconds: b.buildAgeSeconds,
    staleAssets: [...b.staleAssets],
    action: b.action,
  };
  if (r.status === 200) return { feed, problem: null };
  const since = Object.values(b.staleSince)
    .filter((v): v is string => v !== null)
    .sort()[0];
  return {
    feed,
    problem: {
      key: "feed-stale",
      title: `The feed is not ready: ${[
        ...(b.buildTooOld ? [`the build is ${humanAge(b.buildAgeSeconds)} old`] : []),
        ...(b.staleAssets.length
          ? [`${b.staleAssets.length} asset${b.staleAssets.length === 1 ? "" : "s"} stale`]
          : []),
      ].join(", ")}`,
      detail: `/readyz answers 503 at ${b.checkedAt}.${b.staleAssets.length ? ` Stale: ${b.staleAssets.join(", ")}.` : ""}`,
      action: b.action ?? "Run the hourly job.",
      state: JSON.stringify({ tooOld: b.buildTooOld, stale: b.staleAssets }),
      since: b.buildTooOld ? b.generatedAt : (since ?? null),
    },
  };
}

/** The last build's problem: a refused build published nothing. */
function buildProblem(b: BuildOutcome | null): Problem | null {
  if (b?.outcome !== "refused") return null;
  const reason = redactUrls(b.reason ?? "no reason recorded");
  return {
    key: "build-refused",
    title: "The build was refused",
    detail: `The build at ${b.at} was refused and published nothing: ${verbatim(reason)}. The site stays as last built${b.lastBuiltAt ? ` (${b.lastBuiltAt})` : ""}.`,
    action:
      'Run the build with the same --now on a copy of data/ to see the whole message; it says what to fix (docs/operating.md "What can go wrong"). The site goes stale two hours after the last good build.',
    state: reason,
    since: b.at,
  };
}

/** The run's problem: its publish job did not succeed, and no refused build says why. */
function publishProblem(result: string | null | undefined, build: BuildOutcome | null): Problem | null {
  if (!result || result === "success" || build?.outcome === "refused") return null;
  return {
    key: "publish-failed",
    title: `The hourly run did not publish (its publish job: ${result})`,
    detail: `The publish job of the hourly run ended \`${result}\` after its build: the data commit or the deploy may not have happened, so the site readers get may be older than the build judged here.`,
    action:
      "Open the run in the Actions tab: the failed step is marked. A push refused 5 times leaves the artifact unpushed-data (apply it with git am); a failed deploy names what it lacks (the Netlify secrets, docs/deployment.md). Then run the workflow again by hand.",
    state: result,
    since: null,
  };
}

/** The whole report: every enabled source's line, the feed, the build, and the problems, by key. */
export function judgeHealth(i: HealthInputs): HealthReport {
  const subject = subjectSources(i.sources);
  const sources = i.sources.filter((s) => s.enabled !== false).map((s) => sourceLine(s, i, subject));
  const { feed, problem } = feedHealth(i);
  const problems = [
    ...sources.flatMap((s) => sourceProblems(s, i)),
    ...(problem ? [problem] : []),
    ...[buildProblem(i.build), publishProblem(i.publishResult, i.build)].filter((p) => p !== null),
  ].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { checkedAt: iso(i.nowMs), afterHours: i.afterHours, sources, feed, build: i.build, problems };
}
