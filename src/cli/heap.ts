/**
 * The V8 heap the build command runs on. V8 sizes an isolate's heap from its flags when it makes it:
 * `v8.setFlagsFromString` while the program runs changes the young generation of no heap already
 * made, and paces the collector only from its next full collection on (measured on Node 20 and 24;
 * docs/performance.md "Memory"). So the bin runs the command on a worker thread, whose heap is made
 * under these flags (src/cli/launch.ts runOnHeap): the same process, its output and exit status, a
 * worker's start more (the sample's whole build: 0.51 s → 0.55 s in the bench).
 *
 * - `--max-semi-space-size=8` (MB): Node 24's V8 grows the young generation to 64 MB semi-spaces by
 *   itself (Node 20's to 16 MB); the large hourly build then peaked at 400–450 MB of RSS, mostly
 *   young generation and the pages' large strings waiting for a full collection.
 * - `--heap-growing-percent`: after each full collection V8 lets the old generation grow to up to
 *   four times what survived before collecting again; with this, by the percentage given. The pages
 *   leave ~60 MB live but a stream of Arabic pages over 128 KB, each made in the old generation.
 *
 * - `--expose-gc`: when the archive's closed part is made, the build asks for one last-resort full
 *   collection (remakingArchive). Making it leaves ~100 MB live and V8's pool of freed pages at
 *   40–85 MB, which V8 hands back only after seconds of idleness; the pages that come next then
 *   grew the process on top of both (a large first build: 356–377 MB, 337–344 with it). And while
 *   it is made, a full collection whenever the heap has grown by REMAKING_COLLECT_AFTER_MB since the
 *   last (archiveDayMade).
 *
 * Pacing, not bounds: V8's own limits stand, so a larger dataset needs more collections, never fails
 * for them.
 */
import v8 from "node:v8";

/** The young generation's semi-space of a build, in MB. */
export const BUILD_SEMI_SPACE_MB = 8;
/** How much the old generation of a build may grow past what survived a full collection, in %. */
export const BUILD_HEAP_GROWING_PERCENT = 50;
/**
 * While the archive's closed part is made day by day (a first build, or the first after the code or a
 * closed day's inputs changed), V8's own pace is loosened so that the build's collections
 * (REMAKING_COLLECT_AFTER_MB) come first: one V8 starts meanwhile makes the build's next a second
 * full collection.
 */
export const REMAKING_HEAP_GROWING_PERCENT = 100;
/**
 * While the closed part is made, how far the heap may grow past what the last full collection left
 * before the build asks for another, in MB. Each day made promotes its working set (its entries and
 * its file's pieces outlive the 8 MB young generation) and leaves it as garbage in the old
 * generation; V8 collected it once the old generation had grown by its pace, and its concurrent
 * marking kept what was allocated meanwhile, so a collection left ~100 MB "live" where ~55 MB are
 * and the heap grew to ~180 MB between two. A large first build peaked at 317–336 MB; with these
 * two, at 254–266 MB, for 18 collections asked (~50 ms each) and 0.3–0.9 s more in all
 * (docs/performance.md "Memory").
 */
export const REMAKING_COLLECT_AFTER_MB = 40;

/** The V8 flags a command's heap is made with; none for a command that runs on the main thread. */
export function commandHeapFlags(command: string): string[] {
  return command === "build"
    ? [
        `--max-semi-space-size=${BUILD_SEMI_SPACE_MB}`,
        `--heap-growing-percent=${BUILD_HEAP_GROWING_PERCENT}`,
        "--expose-gc",
      ]
    : [];
}

export function setHeapFlags(flags: readonly string[]): void {
  for (const f of flags) v8.setFlagsFromString(f);
}

let remaking = false;
/** The heap used after the last collection asked for while remaking, in bytes. */
let usedAfterCollection = 0;
const collect = (o: object) => (globalThis as { gc?: (o: object) => void }).gc?.(o);
/**
 * BuildOptions `remakingArchive` for the command line: while the closed part is made, V8's looser pace
 * (read at its next full collection) and the build's own collections (archiveDayMade); when it is
 * made, one full collection that lets go of what making it held; the build's own pace afterwards
 * (the flags its code cache was made under, src/cli/launch.ts).
 */
export function remakingArchive(on: boolean): void {
  // `gc` is there on the build's worker (commandHeapFlags); "last-resort" is V8's collection that
  // also empties its pool of pages (the options of V8's gc extension: type, execution, flavor).
  if (remaking && !on) collect({ type: "major", flavor: "last-resort" });
  if (!remaking && on) usedAfterCollection = 0;
  remaking = on;
  v8.setFlagsFromString(`--heap-growing-percent=${on ? REMAKING_HEAP_GROWING_PERCENT : BUILD_HEAP_GROWING_PERCENT}`);
}

/**
 * BuildOptions `archiveDayMade`: told after each day of the archive is made. While the closed part
 * is made, a full collection once the heap has grown by REMAKING_COLLECT_AFTER_MB since the last.
 */
export function archiveDayMade(): void {
  if (!remaking) return;
  if (v8.getHeapStatistics().used_heap_size <= usedAfterCollection + REMAKING_COLLECT_AFTER_MB * 1048576) return;
  collect({ type: "major" });
  usedAfterCollection = v8.getHeapStatistics().used_heap_size;
}
