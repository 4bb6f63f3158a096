/** The build report (src/schema/documents.ts BuildReport) of what the rules read, refused and said, but for its files. */
import type { AssetsResult } from "./assets.js";
import type { BuildReport } from "../schema/documents.js";

/**
 * The quotes of sources on probation the raw days set apart (docs/methodology.md "New sources:
 * probation"), the latest of each source, seller and asset per day: how many passed every rule and
 * how many a rule refused. Absent when there is none, so a report without probation keeps its shape.
 */
function probationCounts(r: AssetsResult): { probation?: BuildReport["probation"] } {
  let passed = 0;
  let refused = 0;
  const sources = new Set<string>();
  for (const list of r.probation.values())
    for (const q of list) {
      sources.add(q.source);
      if (q.passed) passed++;
      else refused++;
    }
  return passed + refused ? { probation: { sources: [...sources].sort(), passed, refused } } : {};
}

/** The build report but for its files, which composeSite adds once every file is made. */
export function buildReport(
  r: AssetsResult,
  generatedAt: string,
  notes: readonly string[],
): Omit<BuildReport, "files" | "changedFiles"> {
  const byReason: Record<string, number> = {};
  for (const x of r.rejections) byReason[x.reason] = (byReason[x.reason] ?? 0) + 1;
  return {
    generatedAt,
    rawDays: r.rawDays,
    compactedDays: r.compactedDays,
    quotes: { read: r.readCount, accepted: r.acceptedCount, rejected: r.rejections.length },
    rejectedByReason: byReason,
    ...probationCounts(r),
    rejections: r.rejections.map((x) => ({
      file: x.file,
      line: x.line,
      source: x.source,
      seller: x.seller,
      asset: x.asset,
      reason: x.reason,
    })),
    disagreements: r.disagreements.map((d) => ({
      date: d.date,
      asset: d.asset,
      seller: d.seller,
      sources: [...d.sources],
      side: d.side,
      diffPct: d.diffPct,
    })),
    warnings: [
      ...notes,
      ...r.warnings,
      // The archive's plan is asked as the archive is composed, after the assets.
      ...(r.plan?.archiveWarnings ?? []),
      ...r.refIssues.map((i) => `${i.file}:${i.line}: reference rate skipped (${i.reason})`),
    ],
  };
}
