/**
 * A compact killed after writing history/D and before removing quotes/D (issue 38, item 5): the
 * next compact finishes the day when the history is what the raw quotes give, and says so; when
 * they disagree it keeps both and says what to do. Until then every build says how to finish it.
 */
import { existsSync, promises as fs } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { runCompact } from "../../src/jobs/compact.js";
import { runBuild } from "../../src/jobs/build.js";
import { tempDir, writeDataset } from "../helpers/dataset.js";
import { smallRows } from "../helpers/rows.js";
import { BUILT_AT } from "../helpers/site.js";

/** Every file of a folder, by relative path, with its bytes. */
async function tree(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const e of await fs.readdir(dir, { recursive: true, withFileTypes: true }))
    if (e.isFile()) {
      const full = path.join(e.parentPath, e.name);
      out.set(path.relative(dir, full), await fs.readFile(full, "utf8"));
    }
  return out;
}

/** A dataset compacted at BUILT_AT, with the raw file of its first compacted day put back as a killed compact leaves it. */
async function interrupted() {
  const data = await writeDataset(await tempDir(), smallRows());
  const raw = new Map<string, string>();
  for (const f of await fs.readdir(path.join(data, "quotes")))
    raw.set(f, await fs.readFile(path.join(data, "quotes", f), "utf8"));
  const { days } = await runCompact(data, BUILT_AT, () => {});
  expect(days.length).toBeGreaterThan(0);
  const clean = await tree(data);
  const day = days[0]!.date;
  await fs.writeFile(path.join(data, "quotes", `${day}.ndjson`), raw.get(`${day}.ndjson`)!);
  return { data, day, clean };
}

describe("an interrupted compact", () => {
  test("a build says how to finish it; the next compact removes the raw file and says so", async () => {
    const { data, day, clean } = await interrupted();
    const { site } = await runBuild({
      dataDir: data,
      outDir: path.join(data, "public"),
      nowMs: BUILT_AT,
      saveState: false,
    });
    expect(site.report.warnings.join("\n")).toContain(
      `quotes/${day}.ndjson: raw quotes of a compacted day are ignored; its closes in history/ stand (a compact cut short: \`price-feed compact\` finishes it`,
    );
    await fs.rm(path.join(data, "public"), { recursive: true });
    await fs.rm(path.join(data, "public.build-report.json"), { force: true });
    await fs.rm(path.join(data, "public.archive-cache"), { recursive: true, force: true });
    const warnings: string[] = [];
    const r = await runCompact(data, BUILT_AT, (w) => warnings.push(w));
    expect(r.finished).toEqual([day]);
    expect(r.days).toEqual([]);
    expect(warnings).toEqual([]);
    expect(existsSync(path.join(data, "quotes", `${day}.ndjson`))).toBe(false);
    // The data folder is as a compact that was never cut short left it.
    const now = await tree(data);
    for (const [f, text] of clean) expect(now.get(f), f).toBe(text);
  });

  test("a history that is not what the raw quotes give: both kept, and the warning says what to do", async () => {
    const { data, day } = await interrupted();
    const history = path.join(data, "history", `${day}.ndjson`);
    const edited = (await fs.readFile(history, "utf8")).replace(/"sell":(\d)/, '"sell":9$1');
    await fs.writeFile(history, edited);
    const warnings: string[] = [];
    const r = await runCompact(data, BUILT_AT, (w) => warnings.push(w));
    expect(r.finished).toEqual([]);
    expect(existsSync(path.join(data, "quotes", `${day}.ndjson`))).toBe(true);
    expect(await fs.readFile(history, "utf8")).toBe(edited);
    expect(warnings).toEqual([
      expect.stringMatching(
        new RegExp(
          `quotes/${day}\\.ndjson: a raw day whose history .* is not what its quotes give: both kept.*remove the raw file`,
        ),
      ),
    ]);
  });
});
