/**
 * How the build command paces V8's garbage collector while it makes the archive's closed part day by
 * day (a first build, or the first after the code or a closed day's inputs changed: every by-day
 * file and history entry made anew; docs/performance.md "Memory").
 *
 * After each full collection V8 lets the old generation grow to up to four times what survived it
 * before collecting again. Making 336 days leaves ~85 MB live but a steady stream of short-lived
 * tables that outlive the young generation, so the heap grew to ~470 MB before each collection. With
 * `--heap-growing-percent=30` it grows by 30 % instead: the large first build peaked at 255–278 MB
 * instead of 470–476, for ~1.1 s more (13.7 s against 12.5, alternating runs). It is a pace, not a
 * bound: V8's own limits stand, so a larger archive needs more collections, never fails for it. The
 * hourly build, which keeps the closed part, runs without it (with it, 0.1 s slower for nothing).
 * The flag is set back to V8's default afterwards, before the bin writes its code cache: V8 refuses
 * a cache made under other flags (src/cli/launch.ts).
 */
import v8 from "node:v8";

export const REMAKING_HEAP_GROWING_PERCENT = 30;

/**
 * The young generation's semi-space, in MB, for the whole build. Node 24's V8 sizes it well beyond
 * Node 20's 16 MB by itself: on Node 24 the large first build peaked at 413–431 MB of RSS with a
 * heap of at most ~145 MB after each full collection, the rest mostly young generation and pooled
 * pages; with 8 MB, at 237–270 MB in the same time (13.3–14.0 s). The hourly build's peak moved
 * less (248–302 MB against 263–303, same time). V8 reads it as the young generation grows, so
 * setting it when the command starts takes; it too is set back before the code cache is written.
 */
export const BUILD_SEMI_SPACE_MB = 8;

/** The build command's young generation (above) while it runs; V8's default again afterwards. */
export function buildHeap(on: boolean): void {
  v8.setFlagsFromString(`--max-semi-space-size=${on ? BUILD_SEMI_SPACE_MB : 0}`);
}

/** BuildOptions `remakingArchive` for the command line: the pace above while the closed part is made. */
export function remakingArchive(on: boolean): void {
  v8.setFlagsFromString(`--heap-growing-percent=${on ? REMAKING_HEAP_GROWING_PERCENT : 0}`);
}
