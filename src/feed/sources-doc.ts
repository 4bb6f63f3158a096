/**
 * /api/v1/sources.json: source health, an operator's and a user's first question when a number looks
 * wrong — which sources fed which assets, when each last succeeded and why it last failed, and how its
 * format is known. The feeding comes from the build's own closes and references; the runs from
 * ingest's record, which keeps a source's last success for good (so a null one was never had); the
 * evidence from the sources file. No failure reason is published with a URL's userinfo, query or
 * fragment (src/core/redact.ts), whatever state file it comes from: the OpenAPI examples and the
 * sources pages are made from this document.
 */
import type { SourceHealth, SourceRuns } from "../schema/documents.js";
import type { Registry } from "../schema/inputs.js";
import type { ProbationState, StandingChange } from "../schema/probation.js";
import { standingSummary, subjectSources } from "../rules/probation.js";
import { sourceKind, type SourceConfig } from "../schema/sources.js";
import { redactUrls } from "../core/redact.js";
import { publishedUnknown } from "../core/unknown-names.js";

/**
 * A graduation or return as published: each member named, so that what the record keeps for itself
 * never reaches the document unchecked (a graduation's `countsFrom` once did, and every build after
 * it refused its own output).
 */
function publishedChange(c: StandingChange | undefined) {
  if (!c) return null;
  return { at: c.at, standing: c.standing, reason: c.reason, countsFrom: c.countsFrom ?? null };
}

/** A run's unknown names as published: bounded whatever wrote the record (src/core/unknown-names.ts). */
function unknownOf(run: SourceRuns["sources"][string] | undefined) {
  const u = run ? publishedUnknown(run) : { names: [], more: 0 };
  return { unknownSellers: u.names.map((n) => n.name), unknownNames: u.names, unknownNamesMore: u.more };
}

export function buildSourceHealth(
  sources: readonly SourceConfig[],
  fedBy: ReadonlyMap<string, readonly string[]>,
  runs: SourceRuns,
  generatedAt: string,
  probation: ProbationState = { sources: {} },
  registry: Registry = [],
): SourceHealth {
  const subject = subjectSources(sources);
  const assetsOf = new Map<string, string[]>();
  for (const [asset, ids] of fedBy) for (const id of ids) assetsOf.set(id, [...(assetsOf.get(id) ?? []), asset]);
  return {
    generatedAt,
    sources: sources.map((s) => {
      const run = runs.sources[s.id];
      return {
        id: s.id,
        name: s.name,
        kind: sourceKind(s),
        enabled: s.enabled,
        assets: [...new Set(assetsOf.get(s.id) ?? [])].sort(),
        lastRunAt: run?.lastRunAt ?? null,
        lastSuccessAt: run?.lastSuccessAt ?? null,
        // A reason an older ingest stored with a URL's query or userinfo is published without them.
        lastFailure: run?.lastFailure ? { ...run.lastFailure, reason: redactUrls(run.lastFailure.reason) } : null,
        ...unknownOf(run),
        evidence: s.evidence ?? null,
        probation: {
          ...standingSummary(probation.sources[s.id], subject.has(s.id)),
          lastChange: subject.has(s.id) ? publishedChange(probation.sources[s.id]?.changes.at(-1)) : null,
        },
      };
    }),
    sellers: registry.map((r) => ({
      id: r.id,
      name: r.name,
      nameAr: r.nameAr ?? null,
      kind: r.kind,
      licensedBy: r.licensedBy,
      verified: r.verified ?? null,
    })),
  };
}
