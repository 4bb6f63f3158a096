/**
 * A published event is never lost (issue 38, item 3; docs/methodology.md §12). When the build dies
 * after the site swap, or the hour's data/ commit is lost after the deploy, data/state/events.json
 * is older than the published events.json: the next build goes on from the published site. An event
 * id, once published, keeps its content, even through a --force rebuild of its hour. An unreadable
 * record does not stop every later build.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { runBuild } from "../../src/jobs/build.js";
import { Events } from "../../src/schema/events.js";
import { tempDir, writeDataset } from "../helpers/dataset.js";
import { smallRows } from "../helpers/rows.js";
import { BUILT_AT } from "../helpers/site.js";

const HOUR = 3_600_000;
const H1 = BUILT_AT; // 2026-11-19T11:30Z
const H2 = BUILT_AT + HOUR;
const H3 = BUILT_AT + 2 * HOUR;

async function dataset() {
  const data = await writeDataset(await tempDir(), smallRows());
  const out = path.join(await tempDir(), "public");
  const state = path.join(data, "state/events.json");
  const build = (nowMs: number, o: { force?: boolean; saveState?: boolean } = {}) =>
    runBuild({ dataDir: data, outDir: out, nowMs, ...o });
  /** A better dollar from Beta at `iso`: the best seller of the dollar's sell side moves to it. */
  const quote = (iso: string, sell: number) =>
    fs.appendFile(
      path.join(data, "quotes/2026-11-19.ndjson"),
      `${JSON.stringify({ source: "s1", seller: "beta", asset: "USD-EGP", buy: 49.2, sell, observedAt: iso })}\n`,
    );
  const published = async () =>
    Events.parse(JSON.parse(await fs.readFile(path.join(out, "api/v1/events.json"), "utf8"))).events;
  return { data, out, state, build, quote, published };
}

describe("the events a build starts from", () => {
  test("the hour's data/ commit lost after the deploy: the published events stay", async () => {
    const d = await dataset();
    await d.build(H1);
    const afterH1 = await fs.readFile(d.state, "utf8");
    await d.quote("2026-11-19T12:00:00Z", 49.4);
    await d.build(H2);
    const e2 = await d.published();
    expect(e2.some((e) => e.kind === "best-seller" && e.asset === "us-dollar")).toBe(true);
    // The commit of H2's data/ is lost: the state is H1's again (the quote itself stays in this test,
    // as a later ingest would log it again).
    await fs.writeFile(d.state, afterH1);
    const { site } = await d.build(H3);
    const e3 = await d.published();
    for (const e of e2) expect(e3, e.id).toContainEqual(e);
    // Nothing derived twice: the change at H2 is not found again at H3 under another id.
    expect(e3.filter((e) => e.kind === "best-seller" && e.asset === "us-dollar" && e.side === "sell")).toHaveLength(
      e2.filter((e) => e.kind === "best-seller" && e.asset === "us-dollar" && e.side === "sell").length,
    );
    expect(site.report.warnings.join("\n")).toMatch(/data\/state\/events\.json is older .* than the site it replaces/);
  });

  test("the build died after the swap (no state written): the same", async () => {
    const d = await dataset();
    await d.build(H1);
    await d.quote("2026-11-19T12:00:00Z", 49.4);
    await d.build(H2, { saveState: false }); // published, state not written: as a build killed after the swap
    const e2 = await d.published();
    expect(e2.some((e) => e.kind === "best-seller" && e.asset === "us-dollar")).toBe(true);
    await d.build(H3);
    const e3 = await d.published();
    for (const e of e2) expect(e3, e.id).toContainEqual(e);
  });

  test("a --force rebuild of an earlier hour does not rewrite a published event under its id", async () => {
    const d = await dataset();
    await d.build(H1);
    const afterH1 = await fs.readFile(d.state, "utf8");
    await d.quote("2026-11-19T12:00:00Z", 49.4);
    await d.build(H2);
    const e2 = await d.published();
    const moved = e2.find((e) => e.kind === "best-seller" && e.asset === "us-dollar" && e.side === "sell")!;
    // The hour is rebuilt from H1's record with other data: the same id would now say another after.
    await fs.writeFile(d.state, afterH1);
    await d.quote("2026-11-19T12:10:00Z", 49.3);
    await d.build(H2, { force: true });
    const again = (await d.published()).find((e) => e.id === moved.id);
    expect(again).toEqual(moved);
  });

  test("an unreadable record: the build goes on from the published site and says so; the next reads its own", async () => {
    const d = await dataset();
    await d.build(H1);
    await d.quote("2026-11-19T12:00:00Z", 49.4);
    await d.build(H2);
    const e2 = await d.published();
    await fs.writeFile(d.state, '{"summary": {"assets": '); // a write cut short, by hand or by a disk
    const { site } = await d.build(H3);
    expect(site.report.warnings.join("\n")).toMatch(
      /events\.json.*the record is not read; it goes on from the published site/,
    );
    const e3 = await d.published();
    for (const e of e2) expect(e3, e.id).toContainEqual(e);
    // The build replaced the record: the next one reads it without a word.
    const next = await d.build(H3 + HOUR);
    expect(next.site.report.warnings.join("\n")).not.toMatch(/events\.json/);
  });

  test("with no record at all (build --no-state) the site left in the folder is no record either", async () => {
    const d = await dataset();
    await d.build(H1, { saveState: false });
    await d.quote("2026-11-19T12:00:00Z", 49.4);
    const { site } = await d.build(H2, { saveState: false });
    // What a local build publishes does not depend on what an earlier local build left there.
    expect(await d.published()).toEqual([]);
    expect(site.report.warnings.join("\n")).not.toMatch(/events\.json/);
  });

  test("an unreadable record and no site: a new record starts, said once", async () => {
    const d = await dataset();
    await fs.mkdir(path.dirname(d.state), { recursive: true });
    await fs.writeFile(d.state, "not json");
    const { site } = await d.build(H1);
    expect(site.report.warnings.join("\n")).toMatch(/the record is not read; a new one starts with this build/);
  });
});
