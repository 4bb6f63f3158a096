/** `price-feed health`'s report as the operator reads it in a terminal or the job's log. */
import { logSafe } from "../core/redact.js";
import { humanAge } from "../feed/readiness.js";
import type { HealthReport } from "../feed/health.js";

const pad = (s: string, n: number) => (s.length >= n ? `${s} ` : s.padEnd(n));

export function healthText(r: HealthReport): string {
  const lines = [
    `price-feed health at ${r.checkedAt}: failures in a row count only hourly runs inside each source's trading sessions (a problem from --after ${r.afterHours})`,
  ];
  const idWidth = Math.max(8, ...r.sources.map((s) => s.id.length + 1));
  lines.push(
    `${pad("source", idWidth)}${pad("standing", 11)}${pad("last success", 26)}${pad("failing", 8)}last reason`,
  );
  for (const s of r.sources) {
    lines.push(
      logSafe(
        `${pad(s.id, idWidth)}${pad(s.standing, 11)}${pad(s.lastSuccessAt ?? (s.lastRunAt ? "never" : "not run yet"), 26)}${pad(String(s.failuresInRow), 8)}${s.lastReason ?? "-"}`,
      ),
    );
    if (s.unknownNames.length)
      lines.push(
        logSafe(
          `${" ".repeat(idWidth)}names the registry does not know: ${s.unknownNames.map((n) => `«${n.name}» (${n.runs} run${n.runs === 1 ? "" : "s"})`).join(", ")}`,
        ),
      );
  }
  const f = r.feed;
  lines.push(
    f.status === "no-build"
      ? "feed: no published build (no manifest)"
      : f.status === "ready"
        ? `feed: ready (/readyz 200; build ${humanAge(f.buildAgeSeconds ?? 0)} old)`
        : `feed: not ready (/readyz 503; build ${humanAge(f.buildAgeSeconds ?? 0)} old${f.staleAssets.length ? `; stale: ${f.staleAssets.join(", ")}` : ""})`,
  );
  const b = r.build;
  lines.push(
    logSafe(
      b === null
        ? "last build: none recorded (data/state/build.json)"
        : b.outcome === "built"
          ? `last build: built at ${b.at}`
          : `last build: refused at ${b.at}: ${b.reason ?? "no reason recorded"}`,
    ),
  );
  if (!r.problems.length) lines.push("all well: nothing needs the operator");
  else {
    lines.push(`${r.problems.length} problem${r.problems.length === 1 ? "" : "s"} need the operator:`);
    for (const p of r.problems) lines.push(logSafe(`  ${p.key}: ${p.title}`), logSafe(`    what to do: ${p.action}`));
  }
  return lines.join("\n");
}
