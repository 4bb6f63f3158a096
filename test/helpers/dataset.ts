/** Writes small datasets for tests, in the input formats of data/, validated by the same schemas. */
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  Calendar,
  Catalog,
  Registry,
  Site,
  Sources,
  type GlobalRate,
  type OfficialRate,
  type Quote,
} from "../../src/schema/inputs.js";

export async function tempDir(prefix = "pf-"): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), prefix));
}

export const catalog = Catalog.parse([
  {
    id: "USD-EGP",
    slug: "us-dollar",
    category: "currencies",
    kind: "currency",
    market: "competitive",
    unit: "EGP/USD",
    decimals: 2,
    defaultSide: "sell",
    name: "US Dollar",
    nameAr: "دولار أمريكي",
  },
  {
    id: "OMR-EGP",
    slug: "omani-riyal",
    category: "currencies",
    kind: "currency",
    market: "sole",
    unit: "EGP/OMR",
    decimals: 2,
    defaultSide: "sell",
    name: "Omani Riyal",
    nameAr: "ريال عماني",
  },
  {
    id: "CNY-EGP",
    slug: "chinese-yuan",
    category: "currencies",
    kind: "currency",
    market: "reference",
    unit: "EGP/CNY",
    decimals: 4,
    defaultSide: "sell",
    name: "Chinese Yuan",
    nameAr: "يوان صيني",
  },
  {
    id: "XAU24K-EGP",
    slug: "gold-24k",
    category: "metals",
    kind: "metal",
    market: "competitive",
    unit: "EGP/g",
    decimals: 0,
    defaultSide: "sell",
    name: "Gold 24 karat",
    nameAr: "ذهب عيار ٢٤",
  },
]);

export const registry = Registry.parse([
  { id: "alpha", name: "Alpha Bank", nameAr: "بنك ألفا", kind: "bank", licensedBy: "CBE", categories: ["currencies"] },
  { id: "beta", name: "Beta Bank", nameAr: "بنك بيتا", kind: "bank", licensedBy: "CBE", categories: ["currencies"] },
  {
    id: "gamma",
    name: "Gamma Exchange",
    nameAr: null,
    kind: "exchange-house",
    licensedBy: "CBE",
    categories: ["currencies"],
  },
  {
    id: "dahab",
    name: "Dahab Gold",
    nameAr: "ذهب",
    kind: "gold-dealer",
    licensedBy: "Chamber",
    categories: ["metals"],
  },
  {
    id: "sagha",
    name: "Sagha Gold",
    nameAr: "صاغة",
    kind: "gold-dealer",
    licensedBy: "Chamber",
    categories: ["metals"],
  },
]);

export const calendar = Calendar.parse({
  timezone: "Africa/Cairo",
  categories: {
    currencies: {
      sessions: [{ days: ["sun", "mon", "tue", "wed", "thu"], open: "09:00", close: "17:00" }],
      holidays: [],
    },
    metals: {
      sessions: [{ days: ["sat", "sun", "mon", "tue", "wed", "thu"], open: "10:00", close: "22:00" }],
      holidays: [],
    },
  },
});

export const site = Site.parse({
  about: "Test feed (simulated).",
  disclaimer: "Information only.",
  license: "CC BY 4.0",
  simulated: true,
});
export const sources = Sources.parse({
  // Not on probation (docs/methodology.md "New sources: probation"): these tests are about the other rules.
  sources: ["s1", "s2", "s3", "cbe", "glob"].map((id) => ({ id, name: id, adapter: "demo", probation: false })),
});

export interface Rows {
  quotes: Quote[];
  official: OfficialRate[];
  global: GlobalRate[];
}

const cairoDate = (iso: string) => new Date(Date.parse(iso) + 2 * 3_600_000).toISOString().slice(0, 10); // November: UTC+2

export async function writeDataset(dir: string, rows: Rows): Promise<string> {
  const w = async (name: string, text: string) => {
    await fs.mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await fs.writeFile(path.join(dir, name), text);
  };
  await w("assets.json", JSON.stringify(catalog));
  await w("sellers.json", JSON.stringify(registry));
  await w("calendar.json", JSON.stringify(calendar));
  await w("site.json", JSON.stringify(site));
  await w("sources.json", JSON.stringify(sources));
  for (const [folder, list] of [
    ["quotes", rows.quotes],
    ["official", rows.official],
    ["global", rows.global],
  ] as const) {
    const byDay = new Map<string, string>();
    for (const r of list)
      byDay.set(cairoDate(r.observedAt), (byDay.get(cairoDate(r.observedAt)) ?? "") + `${JSON.stringify(r)}\n`);
    for (const [d, text] of byDay) await w(`${folder}/${d}.ndjson`, text);
  }
  return dir;
}

/** Every file below a folder, path → content. */
export async function snapshot(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  async function walk(d: string) {
    for (const e of await fs.readdir(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else out.set(path.relative(dir, p), await fs.readFile(p, "utf8"));
    }
  }
  await walk(dir);
  return out;
}
