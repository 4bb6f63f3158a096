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

/** BuildOptions `remakingArchive` for the command line: the pace above while the closed part is made. */
export function remakingArchive(on: boolean): void {
  v8.setFlagsFromString(`--heap-growing-percent=${on ? REMAKING_HEAP_GROWING_PERCENT : 0}`);
}
