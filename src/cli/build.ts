/** `price-feed build`: data/ → public/, then a summary of the build report. */
import type { Command } from "commander";
import { nowOption } from "./options.js";
import { EVENTS_RETENTION_DAYS } from "../core/methodology.js";

export function buildCommand(program: Command): void {
  program
    .command("build")
    .description("build public/ from data/: feed, variants, index, changelog, OpenAPI, pages, manifest")
    .option("--data <dir>", "the input dataset", "data")
    .option(
      "--out <dir>",
      "the output folder, replaced atomically: new, empty or an earlier build (never a file, the data folder, a repository's root or a folder of other files)",
      "public",
    )
    .addOption(nowOption())
    .option("--force", "publish even over a site built at a later --now (a rollback)", false)
    .option(
      "--no-state",
      "read <data>/state/ (the ETags and Last-Modified last published, the raw days already closed, the events) but do not rewrite it: a local build that leaves data/ as it was (npm run build)",
    )
    .option(
      "--unsigned",
      "publish unsigned on purpose, reading no key: without it a build with no PRICE_FEED_SIGNING_KEY refuses while data/keys.json lists a key valid at its instant",
      false,
    )
    .option(
      "--explain",
      "after the summary, list what the build kept of the builds before and what it made, each with the reason (the report's `plan` counts them)",
      false,
    )
    .action(
      async (o: {
        data: string;
        out: string;
        now?: number;
        force: boolean;
        state: boolean;
        explain: boolean;
        unsigned: boolean;
      }) => {
        const { runBuild } = await import("../jobs/build.js"); // loaded only when the command runs: a fast start
        const { explainLine } = await import("../incremental/decisions.js");
        const { site, reportFile, closedDaysUsed, archiveDaysKept, decisions, signedWith } = await runBuild({
          dataDir: o.data,
          outDir: o.out,
          nowMs: o.now ?? Date.now(),
          force: o.force,
          saveState: o.state,
          unsigned: o.unsigned,
        });
        const r = site.report;
        const reasons = Object.entries(r.rejectedByReason).map(([k, v]) => `${k} ${v}`);
        console.log(
          `built ${r.files} files into ${o.out} (${r.changedFiles.length} changed) at ${r.generatedAt}, ${signedWith ? `signed with key ${signedWith}` : `unsigned (${o.unsigned ? "--unsigned" : "PRICE_FEED_SIGNING_KEY is not set"})`}\n` +
            `quotes: ${r.quotes.read} read on ${r.rawDays.length} raw days, ${r.quotes.accepted} accepted, ${r.quotes.rejected} rejected` +
            `${reasons.length ? ` (${reasons.join(", ")})` : ""}; ${r.compactedDays} compacted days` +
            (closedDaysUsed
              ? `\nclosed raw days: ${closedDaysUsed} taken as an earlier build closed them (${o.data}/state/closed-days)`
              : "") +
            `\narchive: ${r.compactedDays} compacted days, ${archiveDaysKept} kept as published (their inputs unchanged)` +
            `\nevents: ${site.events.events.filter((e) => e.at === r.generatedAt).length} new, ${site.events.events.length} in the last ${EVENTS_RETENTION_DAYS} days` +
            (o.state ? "" : ` (--no-state: ${o.data}/state/events.json left as it was)`),
        );
        for (const d of r.disagreements.slice(-5))
          console.log(
            `disagreement: ${d.date} ${d.asset} ${d.seller}: ${d.sources.join(" vs ")} ${d.side} ${d.diffPct}%`,
          );
        for (const w of r.warnings) console.log(`warning: ${w}`);
        const counts = Object.entries(r.plan ?? {}).map(([what, c]) => `${what} ${c.keep} kept, ${c.make} made`);
        if (counts.length)
          console.log(`plan: ${counts.join("; ")}${o.explain ? "" : " (--explain lists each, with its reason)"}`);
        if (o.explain) for (const d of decisions) console.log(explainLine(d));
        console.log(`report: ${reportFile}`);
      },
    );
}
