/**
 * The seller names a source gave that the registry does not know (rule 1 of docs/methodology.md:
 * never a seller), as ingest keeps them and the build publishes them: each with how many successful
 * runs in a row gave it and since when (issue 51), and bounded (issue 50, item 8) — at most
 * UNKNOWN_NAMES_LISTED names a source, each cut to UNKNOWN_NAME_CHARS characters, with how many more
 * there were. A page that lists ten thousand strangers, or one name of a megabyte, costs the state
 * file and sources.json a few kilobytes, not what the page chose.
 */

/** The most unknown names kept and published for one source; the rest are counted (`more`). */
export const UNKNOWN_NAMES_LISTED = 20;
/** The longest unknown name kept, in characters; a longer one is cut and ends with "…". */
export const UNKNOWN_NAME_CHARS = 120;

/** One unknown name: how many successful runs in a row gave it, the first and the latest. */
export interface UnknownName {
  name: string;
  runs: number;
  firstSeenAt: string;
  lastSeenAt: string;
}

/** The names a source's last successful run gave, as kept: at most UNKNOWN_NAMES_LISTED, and how many more. */
export interface UnknownNames {
  names: UnknownName[];
  more: number;
}

/** A name as kept: whole when short enough, else its first UNKNOWN_NAME_CHARS characters and "…" (code points, never half a pair). */
export function keptName(name: string): string {
  const chars = [...name];
  return chars.length <= UNKNOWN_NAME_CHARS ? name : `${chars.slice(0, UNKNOWN_NAME_CHARS).join("")}…`;
}

/** Most runs first, then the longest known, then by name: the names an operator most needs to see. */
function byWeight(a: UnknownName, b: UnknownName): number {
  return (
    b.runs - a.runs ||
    (a.firstSeenAt < b.firstSeenAt ? -1 : a.firstSeenAt > b.firstSeenAt ? 1 : 0) ||
    (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)
  );
}

/**
 * After a successful run at `at` that gave `names`: each name the run gave counts one more run when
 * the record had it, else starts at one; a name the run did not give leaves the list (the list is
 * the last successful run's). Bounded as the module says; `more` counts the distinct names past it.
 */
export function recordUnknown(before: UnknownNames | undefined, names: readonly string[], at: string): UnknownNames {
  const prior = new Map((before?.names ?? []).map((n) => [n.name, n]));
  const distinct = [...new Set(names.map(keptName))];
  const seen = distinct.map((name): UnknownName => {
    const p = prior.get(name);
    return p
      ? { name, runs: p.runs + 1, firstSeenAt: p.firstSeenAt, lastSeenAt: at }
      : { name, runs: 1, firstSeenAt: at, lastSeenAt: at };
  });
  seen.sort(byWeight);
  return { names: seen.slice(0, UNKNOWN_NAMES_LISTED), more: Math.max(0, seen.length - UNKNOWN_NAMES_LISTED) };
}

/**
 * A record's names as published, whatever wrote it: its counted names, or the bare list an older
 * ingest kept (each seen once, at its last success), bounded again so that no state file, however
 * written, publishes more than the bounds.
 */
export function publishedUnknown(run: {
  unknownNames?: UnknownName[] | undefined;
  unknownMore?: number | undefined;
  unknownSellers?: string[] | undefined;
  lastSuccessAt: string | null;
  lastRunAt: string;
}): UnknownNames {
  const at = run.lastSuccessAt ?? run.lastRunAt;
  const names =
    run.unknownNames ?? (run.unknownSellers ?? []).map((name) => ({ name, runs: 1, firstSeenAt: at, lastSeenAt: at }));
  const merged = new Map<string, UnknownName>();
  for (const n of names) {
    const name = keptName(n.name);
    if (!merged.has(name)) merged.set(name, { ...n, name });
  }
  const all = [...merged.values()].sort(byWeight);
  return {
    names: all.slice(0, UNKNOWN_NAMES_LISTED),
    more: (run.unknownMore ?? 0) + Math.max(0, all.length - UNKNOWN_NAMES_LISTED),
  };
}
