/** The build as the CLI runs it: load `data/`, compose, validate, publish, record state and report. */
import { existsSync, promises as fs } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { canonical } from "../core/canonical.js";
import { composeSite, type Renderer, type Site, type SiteSink } from "../feed/site.js";
import { drawCard, rasterizerId } from "./card-images.js";
import { MANIFEST_FILE, files } from "../feed/paths.js";
import { JSON_TYPE, jsonFile } from "../feed/site.js";
import { statementText, utf8 } from "../core/statement.js";
import { isoUtc } from "../core/cairo.js";
import type { Manifest } from "../schema/documents.js";
import { assertListed, assertUnkeyed, loadKeys, signingKeyFrom, type SigningKey } from "../io/signing-key.js";
import { validateFile, validateItem } from "../feed/validate.js";
import { renderers } from "../render/renderers.js";
import { methodologyHtml as renderedMethodology } from "../render/pages/methodology-html.js";
import { acquireBuildLock, assertNotOlder, cleanPublishLeftovers } from "../io/build-lock.js";
import { loadChangelog } from "../io/changelog.js";
import { Planner } from "../incremental/planner.js";
import type { Decision } from "../incremental/decisions.js";
import { withDataLock } from "../io/data-lock.js";
import { readBuffer } from "../io/day-files.js";
import { assertInside } from "../io/links.js";
import { dataPaths } from "../core/data-layout.js";
import { assertFolderOrAbsent } from "../io/atomic-write.js";
import { assertTargetFolder, jsonSays } from "../io/target-folder.js";
import { nodeHashing } from "../io/hash.js";
import { programFingerprint } from "../incremental/fingerprint.js";
import { loadForBuild } from "../io/load-build.js";
import { loadState, writeState } from "../io/published-state.js";
import { loadEvents, loadPublishedEvents, writeEvents } from "../io/events-state.js";
import { startingRecord } from "../feed/events.js";
import { SiteFolder, writeReport } from "../io/site-writer.js";
import { loadProbation } from "../io/probation-state.js";
import { loadSourceRuns } from "../io/source-runs.js";
import { loadBuildOutcome, outcomeOf, refusalReason, writeBuildOutcome } from "../io/build-outcome.js";

/** The rulebook the docs page renders, from the package root (as CHANGELOG_FILE). */
export const METHODOLOGY_FILE = fileURLToPath(new URL("../../docs/methodology.md", import.meta.url));

/** What a build did: the site, where its report is, and what its plan kept and made, and why. */
export interface BuildResult {
  site: Site;
  reportFile: string;
  closedDaysUsed: number;
  archiveDaysKept: number;
  decisions: readonly Decision[];
  /** The id of the key that signed the build, or null for an unsigned build. */
  signedWith: string | null;
}

export interface BuildOptions {
  dataDir: string;
  outDir: string;
  nowMs: number;
  renderers?: readonly Renderer[];
  /** Publish even over a site built at a later instant (a rollback). */
  force?: boolean;
  /** How long to wait for another build into the same folder (build-lock.ts LOCK_WAIT_MS). */
  lockWaitMs?: number;
  /** false: read data/state/ (published.json, closed-days/) but do not rewrite it (a local build; the hourly job commits it). */
  saveState?: boolean;
  /** Where PRICE_FEED_SIGNING_KEY is read (io/signing-key.ts); the process's environment when not given. */
  env?: NodeJS.ProcessEnv;
  /**
   * Publish unsigned on purpose (`--unsigned`): no key is read. Without it, a build with no key
   * refuses when data/keys.json lists one valid at its instant (assertSignedWhenKeyed).
   */
  unsigned?: boolean;
}

/**
 * Under the output folder's lock (build-lock.ts), from loading to the report: two builds into one
 * folder run one after the other, the folder, the state and the report come from one build, and an
 * earlier --now never replaces a later one.
 */
export async function runBuild(o: BuildOptions): Promise<BuildResult> {
  // First, and outside what is recorded: a target the build did not make is refused touching nothing,
  // neither the folder, nor a lock beside it, nor data/state/build.json (a typo is not a build).
  await assertOutFolder(o.outDir, o.dataDir);
  let result: BuildResult;
  try {
    result = await buildLocked(o);
  } catch (e) {
    await recordOutcome(o, e);
    throw e;
  }
  await recordOutcome(o);
  return result;
}

/**
 * data/state/build.json, built or refused (src/io/build-outcome.ts), for `price-feed health`: the
 * one trace a refused build leaves. Never in the way of the build's own outcome: a record that
 * cannot be written is said on stderr, and the build succeeds or fails as it did.
 */
async function recordOutcome(o: BuildOptions, error?: unknown): Promise<void> {
  if (o.saveState === false || !existsSync(o.dataDir)) return;
  try {
    await withDataLock(o.dataDir, { command: "build", nowMs: o.nowMs, waitMs: 5_000 }, async () => {
      const prev = await loadBuildOutcome(o.dataDir).catch(() => null);
      await writeBuildOutcome(o.dataDir, outcomeOf(prev, o.nowMs, error));
    });
  } catch (e) {
    console.error(
      `price-feed: the build's outcome was not recorded in ${o.dataDir}/state/build.json: ${refusalReason(e)}`,
    );
  }
}

async function buildLocked(o: BuildOptions): Promise<BuildResult> {
  const release = await acquireBuildLock(o.outDir, o.nowMs, o.lockWaitMs);
  try {
    if (!o.force) await assertNotOlder(o.outDir, MANIFEST_FILE, o.nowMs);
    // What it put right comes first in the report's warnings: the report, made from the data, cannot know it.
    const leftovers = await cleanPublishLeftovers(o.outDir);
    return await buildUnlocked(o, leftovers);
  } finally {
    await release();
  }
}

/**
 * The build replaces its output folder whole: it refuses a file, the data folder or one that holds
 * it, a repository's root, and a non-empty folder without an earlier build's manifest
 * (src/io/target-folder.ts; docs/operating.md "What can go wrong").
 */
export async function assertOutFolder(outDir: string, dataDir: string): Promise<void> {
  await assertTargetFolder(outDir, {
    named: `--out ${outDir}`,
    makes: "a build",
    dataDirs: [dataDir],
    ownContents: (dir) => jsonSays(dir, MANIFEST_FILE, (m) => typeof m["generatedAt"] === "string"),
    hint: "pass a new or empty folder, or one an earlier build wrote (the default is public)",
  });
}

/** The folders of data/state/ a build writes into (src/core/data-layout.ts). */
const stateFolders = (dataDir: string) => {
  const p = dataPaths(dataDir);
  return [path.dirname(p.state), p.closedDays, p.archive];
};

async function buildUnlocked(o: BuildOptions, leftovers: readonly string[]): Promise<BuildResult> {
  const saveState = o.saveState !== false;
  // A state folder that is a plain file would stop the build after it published, or not at all
  // when nothing is written under it this hour: it stops here, before anything, saying what to do.
  if (saveState) for (const p of stateFolders(o.dataDir)) assertFolderOrAbsent(p);
  // One buffer that every day file of the build is read into (src/io/day-files.ts readBuffer).
  const into = readBuffer();
  // A key is checked before anything is made: a build that cannot sign what it publishes fails now.
  const [signer, keys] = await Promise.all([
    o.unsigned ? null : signingKeyFrom(o.env ?? process.env),
    loadKeys(o.dataDir),
  ]);
  if (signer) assertListed(keys, signer, o.nowMs, o.dataDir);
  else if (!o.unsigned) assertUnkeyed(keys, o.nowMs, o.dataDir);
  // Every keep-or-make of the build is asked of the planner (src/incremental/planner.ts). Before
  // the load: both list history/, and the first cleans what an interrupted write left there.
  const planner = await Planner.open({
    dataDir: o.dataDir,
    outDir: o.outDir,
    nowMs: o.nowMs,
    saveState,
    into,
    rasterizer: rasterizerId,
    // A signed build trusts the digests the site being replaced signed, for the pages it keeps.
    ...(signer && keys && { keys }),
  });
  const [dataset, changelog, previous, methodologyHtml, sourceRuns, recorded, probation] = await Promise.all([
    loadForBuild(o.dataDir, o.nowMs, into, planner),
    loadChangelog(),
    loadState(o.dataDir),
    fs.readFile(METHODOLOGY_FILE, "utf8").then(renderedMethodology),
    loadSourceRuns(o.dataDir),
    loadEvents(o.dataDir),
    loadProbation(o.dataDir),
  ]);
  // Where each new source stands (docs/methodology.md "New sources: probation"): the rules set apart
  // the quotes of a source on probation at their instant.
  dataset.probation = probation;
  // The record goes on from data/state/events.json or, when newer, from what the site being
  // replaced published (docs/methodology.md §12): a published event never vanishes.
  const start = startingRecord(
    recorded.state,
    await loadPublishedEvents(o.outDir),
    o.nowMs,
    recorded.problem !== undefined,
  );
  const events = start.record;
  const notes = [
    ...leftovers,
    ...(recorded.problem
      ? [
          `${recorded.problem}: the record is not read; ${start.note ? "it goes on from the published site" : "a new one starts with this build (no event is derived from it), and replaces it"}`,
        ]
      : []),
    ...(start.note ? [start.note] : []),
  ];
  // Every file's SHA-256 is kept only when the build signs (docs/performance.md "Signing").
  const folder = await SiteFolder.open(o.outDir, { file: validateFile, item: validateItem }, { digests: !!signer });
  const sink: SiteSink = {
    put: (f) => folder.put(f),
    keep: (p, from, sha256) => folder.keep(p, from, sha256),
    text: (p) => folder.text(p),
    openItems: (p, head, tail) => folder.openItems(p, head, tail),
    // A card the plan did not keep is drawn into the cache it names (card-images.ts).
    image: (f, to) => drawCard(f, to),
  };
  let site: Site;
  try {
    site = await composeSite(
      {
        dataset,
        changelog,
        nowMs: o.nowMs,
        previous,
        methodologyHtml,
        sourceRuns,
        reuse: planner,
        programKey: programFingerprint(),
        ...(events && { events }),
        publishedEvents: start.published,
        notes,
      },
      sink,
      // The keys a client pins to check the signed statement, when data/keys.json lists any (docs/deployment.md "Signed builds").
      [...(o.renderers ?? renderers), ...(keys?.keys.length ? [() => [jsonFile(files.keys, keys)]] : [])],
      nodeHashing,
    );
    site.manifest = signer
      ? await signedManifest(folder, site.manifest, signer, dataset.site.baseUrl ?? null, o.nowMs)
      : { ...site.manifest, signed: false };
    await folder.commit({ path: MANIFEST_FILE, body: canonical(site.manifest) });
  } catch (e) {
    await folder.abort();
    throw e;
  }
  // What the build made, for the next (src/incremental/): beside the site, and in data/state/.
  await planner.record(site.made);
  // What the plan kept and made, and why, counted (`build --explain` lists each).
  site.report = {
    ...site.report,
    plan: planner.decisions.counts(),
    // A past day's page remade because its bytes were not as made (src/incremental/published-pages.ts).
    warnings: [...site.report.warnings, ...planner.pageWarnings],
  };
  if (saveState)
    // data/state/ is written under the data folder's lock (src/io/data-lock.ts), as ingest and compact
    // write data/, and never through a folder that leaves it (docs/operating.md "What can go wrong").
    await withDataLock(o.dataDir, { command: "build", nowMs: o.nowMs }, async () => {
      await assertInside(o.dataDir, path.dirname(dataPaths(o.dataDir).state), "folder");
      await writeState(o.dataDir, site.state);
      // After published.json: the events were derived against the summary this replaces (§12).
      await writeEvents(o.dataDir, site.events);
    });
  const reportFile = await writeReport(o.outDir, site.report);
  return {
    site,
    reportFile,
    closedDaysUsed: planner.closedDaysUsed,
    archiveDaysKept: planner.archiveDaysKept,
    decisions: planner.decisions.list,
    signedWith: signer?.id ?? null,
  };
}

/**
 * Writes the signed statement of the build and its signature (docs/deployment.md "Signed builds"):
 * every file's SHA-256 as the folder kept it while writing (SiteFolder.digests), the feed's ETag and
 * the build instant; then the detached Ed25519 signature of the statement's exact bytes. Both are
 * listed in the manifest, so the edge serves them as any file (ETag, 304); neither is in the
 * statement, nor is the manifest, which lists them.
 */
async function signedManifest(
  folder: SiteFolder,
  manifest: Manifest,
  signer: SigningKey,
  site: string | null,
  nowMs: number,
): Promise<Manifest> {
  const feed = manifest.files[files.feed];
  if (!feed) throw new Error(`${files.feed} was not built: nothing to sign`);
  const digests = await folder.digests();
  // The statement lists what the manifest lists, no more and no less: a difference is this build's bug.
  const odd = Object.keys(digests).filter((p) => !manifest.files[p]);
  const unhashed = Object.keys(manifest.files).filter((p) => !digests[p]);
  if (odd.length || unhashed.length)
    throw new Error(
      `the statement would not list the manifest's files: ${[...odd, ...unhashed].slice(0, 3).join(", ")}`,
    );
  const statement = statementText({ generatedAt: manifest.generatedAt, feedEtag: feed.etag, site, files: digests });
  const signature = canonical({ alg: "Ed25519", keyId: signer.id, sig: signer.sign(utf8(statement)) });
  const lastModified = isoUtc(Math.floor(nowMs / 1000) * 1000);
  const entries: Manifest["files"] = {};
  for (const [path, body] of [
    [files.statement, statement],
    [files.statementSig, signature],
  ] as const) {
    folder.put({ path, body });
    entries[path] = {
      etag: nodeHashing.etag(body) as string,
      lastModified,
      contentType: JSON_TYPE,
      bytes: Buffer.byteLength(body),
    };
  }
  return { ...manifest, files: { ...manifest.files, ...entries }, signed: true };
}
