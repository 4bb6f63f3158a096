/**
 * The rehearsal's world (src/rehearse/world/): `price-feed init`'s own configuration served on
 * loopback, each source in its own format, read by the real ingest in-process (a dry run: every
 * source asked over HTTP, nothing written). What each reader reads is the world's own account of
 * the body it wrote; each network fault does what it says; the same seed and instant give the same
 * bytes.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { main } from "../../src/cli/main.js";
import { runIngest, type SourceReport } from "../../src/jobs/ingest.js";
import { startWorld, NET_FAULT_KINDS, type NetFaultKind, type World } from "../../src/rehearse/world/index.js";
import { tempDir } from "../helpers/dataset.js";

const SEED = "world-test";
/** Sunday 29 November 2026, 12:07 in Cairo: banks and dealers in session, the hourly job's minute. */
const SUNDAY = Date.parse("2026-11-29T10:07:00Z");
/** Friday 27 November and Saturday 28 November, 12:07 in Cairo: banks closed; gold dealers closed on Friday. */
const FRIDAY = Date.parse("2026-11-27T10:07:00Z");
const SATURDAY = Date.parse("2026-11-28T10:07:00Z");
const CONTACT = "mailto:ops@rehearsal.price-feed.dev";

let data: string;
let raw: { contact?: string; sources: Array<Record<string, unknown>> };
let world: World;

async function pointAt(w: World, dir: string, only?: readonly string[], src: typeof raw = raw) {
  const pointed = w.pointSources(src as never) as unknown as typeof raw;
  pointed.contact = CONTACT;
  if (only) pointed.sources = pointed.sources.filter((s) => only.includes(s["id"] as string));
  const file = path.join(dir, only ? `sources-${only.join("+")}.json` : "sources.json");
  await fs.writeFile(file, JSON.stringify(pointed));
  return file;
}

/** A dry run of ingest against the world at `nowMs` (no real waiting): every source's report. */
async function ask(
  nowMs: number,
  o: { only?: readonly string[]; w?: World; src?: typeof raw; save?: string; timeoutMs?: number } = {},
) {
  const sourcesFile =
    o.only || o.w ? await pointAt(o.w ?? world, await tempDir("pf-world-src-"), o.only, o.src) : undefined;
  const waits: number[] = [];
  const { reports } = await runIngest({
    dataDir: data,
    ...(sourcesFile ? { sourcesFile } : {}),
    nowMs,
    dryRun: true,
    // Loopback answers in milliseconds, but this machine may be busy: only the timeout fault is held.
    timeoutMs: o.timeoutMs ?? 10_000,
    retries: 1,
    backoffMs: 1,
    sleep: async (ms) => void waits.push(ms),
    ...(o.save ? { saveBodiesDir: o.save } : {}),
  });
  return { by: new Map(reports.map((r) => [r.id, r])), waits };
}

/** What a report read, as the world's `expected` says it. */
const observed = (r: SourceReport) => ({
  quotes: r.observed?.quotes ?? [],
  official: r.observed?.official ?? [],
  global: r.observed?.global ?? [],
  unknownSellers: r.unknownSellers ?? [],
});

beforeAll(async () => {
  data = path.join(await tempDir("pf-world-"), "data");
  expect(await main(["node", "price-feed", "init", data])).toBe(0);
  raw = JSON.parse(await fs.readFile(path.join(data, "sources.json"), "utf8")) as typeof raw;
  world = await startWorld({ seed: SEED, sources: raw as never, dataDir: data });
  await pointAt(world, data);
}, 60_000);
afterAll(() => world?.close());

describe("the world serves init's configuration", () => {
  test("every enabled network source, the CBE and the global reference included, each real host at an address of its own", async () => {
    const enabled = raw.sources.filter((s) => s["enabled"] !== false).map((s) => s["id"]);
    expect([...world.served].sort()).toEqual([...enabled].sort());
    expect(world.unserved).toEqual([]);
    expect(world.served).toEqual(expect.arrayContaining(["cbe-official", "global-mid", "dahab-masr", "egrates-jpy"]));
    const pointed = JSON.parse(await fs.readFile(path.join(data, "sources.json"), "utf8")) as typeof raw;
    const origin = (id: string, k = "url") => new URL(pointed.sources.find((s) => s["id"] === id)![k] as string).origin;
    // Every URL now on loopback; egrates' 18 pages on one host, as on the internet; the others apart.
    for (const s of pointed.sources.filter((x) => x["enabled"] !== false))
      for (const u of [s["url"], s["pageUrl"], ...((s["urls"] as string[]) ?? [])].filter(Boolean))
        expect(new URL(u as string).hostname).toMatch(/^127\.0\.0\.\d+$/);
    expect(origin("egrates-usd")).toBe(origin("egrates-sek"));
    expect(origin("ta3weem-cib")).toBe(origin("ta3weem-nbe"));
    expect(
      new Set([origin("egrates-usd"), origin("banque-misr"), origin("ta3weem-cib"), origin("dahab-masr")]).size,
    ).toBe(4);
    // The world's index names the sites and what it serves.
    const index = (await (await fetch(world.url)).json()) as { served: string[]; sites: Record<string, string> };
    expect(index.served).toEqual(world.served);
    expect(Object.keys(index.sites)).toEqual(
      expect.arrayContaining(["egrates.com", "www.cbe.org.eg", "dahabmasr.com"]),
    );
  });

  test("in a session, every real reader reads from the world's body exactly the world's prices", async () => {
    world.setHour(SUNDAY, []);
    const { by } = await ask(SUNDAY);
    for (const id of world.served) {
      const r = by.get(id)!;
      expect(r.ok, `${id}: ${r.error ?? ""}`).toBe(true);
      expect(observed(r), id).toEqual(await world.expected(id));
    }
    const quotes = (id: string) => by.get(id)!.observed!.quotes;
    // Dahab Masr stamps its record a few minutes before the request; Banque Misr its page a few
    // minutes after the top of the hour; egrates, CIB's service and Dahab Zaman write no time.
    for (const q of quotes("dahab-masr")) {
      const before = SUNDAY - Date.parse(q.observedAt);
      expect(before).toBeGreaterThanOrEqual(3 * 60_000);
      expect(before).toBeLessThanOrEqual(8 * 60_000);
    }
    expect(
      quotes("dahab-masr")
        .map((q) => q.asset)
        .sort(),
    ).toEqual(["XAU18K-EGP", "XAU21K-EGP", "XAU24K-EGP"]);
    const bm = Date.parse(quotes("banque-misr")[0]!.observedAt);
    expect(bm - Date.parse("2026-11-29T10:00:00Z")).toBeGreaterThanOrEqual(0);
    expect(bm - Date.parse("2026-11-29T10:00:00Z")).toBeLessThan(5 * 60_000);
    for (const id of ["egrates-usd", "cib-rates-api", "dahab-zaman"])
      for (const q of quotes(id)) expect(q.observedAt).toBe(new Date(SUNDAY).toISOString());
    // Dahab Zaman gives the price it buys at only, below what Dahab Masr sells at.
    for (const q of quotes("dahab-zaman")) expect(q.sell).toBeNull();
    // egrates: every bank of the registry its page lists, named in Arabic as the site writes it,
    // each matched to its registry id; the banks the source does not take are on the page but skipped.
    const usd = quotes("egrates-usd").map((q) => q.seller);
    expect(usd).toEqual(
      expect.arrayContaining(["national-bank-of-egypt", "banque-misr", "commercial-international-bank"]),
    );
    expect(usd).not.toContain("midbank");
    expect(by.get("egrates-usd")!.skipped).toMatchObject({ "seller not taken from this source": 6 });
    // Prices near the sample market's levels, buy below sell.
    const usdMid = quotes("egrates-usd").map((q) => (q.buy! + q.sell!) / 2);
    for (const m of usdMid) expect(Math.abs(m / 47.55 - 1)).toBeLessThan(0.1);
    for (const id of world.served)
      for (const q of quotes(id)) if (q.buy !== null && q.sell !== null) expect(q.buy).toBeLessThanOrEqual(q.sell);
    // The yen: per 100 on Banque Misr's page, per 1 on egrates' and CIB's: per yen in the catalog either way.
    expect(by.get("banque-misr")!.observed).toBeDefined();
    const yen = world.served.flatMap((id) => quotes(id).filter((q) => q.asset === "JPY-EGP"));
    expect(yen.length).toBeGreaterThan(10);
    for (const q of yen) expect(Math.abs(q.buy! / 0.317 - 1), q.source).toBeLessThan(0.1);
    // The CBE: a week's business days (Sunday to Thursday) up to today, whose fixing is out by 11:00.
    const days = new Set(by.get("cbe-official")!.observed!.official.map((o) => o.observedAt));
    expect([...days].sort()).toEqual(
      ["2026-11-22", "2026-11-23", "2026-11-24", "2026-11-25", "2026-11-28"].map((d) => `${d}T22:00:00Z`),
    );
    // The global reference: every asset of its configuration, gold per gram from the ounce.
    const global = new Map(by.get("global-mid")!.observed!.global.map((g) => [g.asset, g.value]));
    expect(global.size).toBe(22);
    expect(global.get("XAU21K-EGP")! / global.get("XAU24K-EGP")!).toBeCloseTo(0.875 / 0.999, 6);
  });

  test("outside the sessions the pages still answer, with their last prices and stamps", async () => {
    world.setHour(FRIDAY, []);
    const friday = (await ask(FRIDAY)).by;
    world.setHour(SATURDAY, []);
    const saturday = (await ask(SATURDAY)).by;
    for (const id of world.served) {
      expect(friday.get(id)!.ok, id).toBe(true);
      expect(saturday.get(id)!.ok, id).toBe(true);
    }
    // Banque Misr's page is Thursday's last, 16:0x in Cairo, on Friday and on Saturday alike.
    const bm = (by: Map<string, SourceReport>) => by.get("banque-misr")!.observed!.quotes;
    expect(bm(saturday)).toEqual(bm(friday));
    expect(bm(friday)[0]!.observedAt).toMatch(/^2026-11-26T14:0\d:\d\d\.000Z$/);
    // egrates writes no time: the run's instant, with Thursday's prices.
    const values = (by: Map<string, SourceReport>, id: string) =>
      by.get(id)!.observed!.quotes.map((q) => [q.seller, q.asset, q.buy, q.sell]);
    expect(values(saturday, "egrates-eur")).toEqual(values(friday, "egrates-eur"));
    // Gold dealers trade on Saturday, not on Friday: Friday shows Thursday evening's board.
    const dm = (by: Map<string, SourceReport>) => by.get("dahab-masr")!.observed!.quotes[0]!.observedAt;
    expect(dm(friday)).toMatch(/^2026-11-26T19:5\d:\d\d\.000Z$/);
    expect(SATURDAY - Date.parse(dm(saturday))).toBeLessThanOrEqual(8 * 60_000);
    // The CBE's workbook has no Friday or Saturday.
    const days = new Set(saturday.get("cbe-official")!.observed!.official.map((o) => o.observedAt.slice(0, 10)));
    expect([...days].sort()).toEqual(["2026-11-21", "2026-11-22", "2026-11-23", "2026-11-24", "2026-11-25"]);
  });

  test("the pages are printed as the sites print theirs: what the readers must look past is there", async () => {
    world.setHour(SUNDAY, []);
    const pointed = JSON.parse(await fs.readFile(path.join(data, "sources.json"), "utf8")) as typeof raw;
    const page = async (id: string) =>
      (await fetch(pointed.sources.find((s) => s["id"] === id)!["url"] as string)).text();
    // Ta3weem: the day's change in a second span beside each price ("span" must pick the first).
    expect(await page("ta3weem-cib")).toMatch(/<td><span>\d+\.\d+<\/span><span>\d\.\d{3}%<\/span><\/td>/);
    // egrates: the price in <i data-value> and again as a link; the banks' names as links, in Arabic.
    expect(await page("egrates-usd")).toMatch(/<i data-value="(\d+\.\d+)"><\/i> <a href="#">\1<\/a>/);
    expect(await page("egrates-usd")).toContain('<td><a href="#">بنك مصر</a></td>');
    // Banque Misr: a flag and a line break before each currency's name, the two-row header.
    const bm = await page("banque-misr");
    expect(bm).toMatch(/<td><img class="img-flag" src="[^"]+"><br>US Dollar<\/td>/);
    expect(bm).toContain('<th colspan="2">Notes</th>');
  });

  test("Dahab Masr's prices only with a fresh nonce and its session cookie, each nonce once", async () => {
    world.setHour(SUNDAY, []);
    const pointed = JSON.parse(await fs.readFile(path.join(data, "sources.json"), "utf8")) as typeof raw;
    const dm = pointed.sources.find((s) => s["id"] === "dahab-masr")!;
    const token = dm["token"] as { url: string; header: string };
    expect((await fetch(dm["url"] as string, { method: "POST" })).status).toBe(403);
    const auth = await fetch(token.url);
    const { nonce } = (await auth.json()) as { nonce: string };
    const cookie = auth.headers.getSetCookie()[0]!.split(";")[0]!;
    expect(cookie).toMatch(/^PHPSESSID=/);
    const post = (headers: Record<string, string>) => fetch(dm["url"] as string, { method: "POST", headers });
    expect((await post({ [token.header]: nonce })).status).toBe(403); // no cookie
    expect((await post({ [token.header]: nonce, cookie })).status).toBe(200);
    expect((await post({ [token.header]: nonce, cookie })).status).toBe(403); // used
  });
});

describe("the network's faults", () => {
  /** The source each fault is tried on, and what its reader must then say. */
  const CASES: Array<
    [NetFaultKind, string, (r: SourceReport, base: SourceReport, waits: number[], asked: number) => void]
  > = [
    [
      "outage",
      "banque-misr",
      (r, _, __, asked) => {
        expect(r.error).toMatch(/network error/);
        expect(asked).toBe(2); // reset, asked again once (retries: 1), reset
      },
    ],
    [
      "timeout",
      "cib-rates-api",
      (r, _, __, asked) => {
        expect(r.error).toMatch(/timed out after 300 ms/);
        expect(asked).toBe(2);
      },
    ],
    [
      "rate-limited",
      "egrates-usd",
      (r) => expect(r.error).toMatch(/HTTP 429.*retry after 120 s, more than the 30 s we wait/),
    ],
    [
      "unavailable",
      "ta3weem-cib",
      (r, _, waits, asked) => {
        expect(r.error).toMatch(/HTTP 503/);
        expect(waits).toEqual([1000]); // Retry-After: 1 honoured before the one retry
        expect(asked).toBe(2);
      },
    ],
    ["challenge", "dahab-masr", (r) => expect(r.error).toMatch(/bot challenge.*Cloudflare/)],
    ["challenge", "cbe-official", (r) => expect(r.error).toMatch(/no form#historicalDataForm|challenge/)],
    [
      "unit-per-ounce",
      "dahab-masr",
      (r, base) => {
        const ratio = r.observed!.quotes[0]!.sell! / base.observed!.quotes[0]!.sell!;
        expect(ratio).toBeCloseTo(31.1035, 2);
      },
    ],
    [
      "unit-per-100",
      "egrates-jpy",
      (r, base) => {
        for (const [i, q] of r.observed!.quotes.entries())
          expect(q.buy! / base.observed!.quotes[i]!.buy!).toBeCloseTo(100, 6);
      },
    ],
    [
      "sides-swapped",
      "cib-rates-api",
      (r) => {
        for (const q of r.observed!.quotes) expect(q.buy!).toBeGreaterThan(q.sell!);
      },
    ],
    [
      "stale-stamp",
      "banque-misr",
      (r, base) => {
        const back = Date.parse(base.observed!.quotes[0]!.observedAt) - Date.parse(r.observed!.quotes[0]!.observedAt);
        expect(back).toBeGreaterThan(49 * 3_600_000);
      },
    ],
    ["stale-stamp", "global-mid", (r) => expect(r.observed!.global[0]!.observedAt).toBe("2026-11-26T00:00:00.000Z")],
    [
      "clock-ahead",
      "dahab-masr",
      (r) => expect(Date.parse(r.observed!.quotes[0]!.observedAt) - SUNDAY).toBeGreaterThan(2.5 * 3_600_000),
    ],
    [
      "unknown-bank",
      "egrates-usd",
      (r, base) => {
        // One bank more on the page, which the registry does not give: named, its row left out.
        expect(r.unknownSellers).toHaveLength(1);
        expect(r.fetched).toBe(base.fetched + 1);
        expect(r.observed!.quotes).toEqual(base.observed!.quotes);
      },
    ],
    [
      "renamed-bank",
      "egrates-usd",
      (r, base) => {
        // One bank of the page under a name the registry does not give: named, and missing from the quotes.
        expect(r.unknownSellers).toHaveLength(1);
        const before = new Set(base.observed!.quotes.map((q) => q.seller));
        const after = new Set(r.observed!.quotes.map((q) => q.seller));
        expect([...before].filter((s) => !after.has(s))).toHaveLength(1);
        expect(after.size).toBe(before.size - 1);
      },
    ],
    ["reference-down", "global-mid", (r) => expect(r.error).toMatch(/every URL failed.*network error/)],
  ];

  test("every fault kind has a case here, and the sources it can hit", () => {
    expect(new Set(CASES.map(([k]) => k))).toEqual(new Set(NET_FAULT_KINDS));
    expect(world.faultTargets("unit-per-ounce").sort()).toEqual(["dahab-masr", "dahab-zaman"]);
    expect(world.faultTargets("reference-down")).toEqual(["global-mid"]);
    expect(world.faultTargets("renamed-bank")).toHaveLength(18);
    expect(world.faultTargets("clock-ahead").sort()).toEqual([
      "banque-misr",
      "dahab-masr",
      "ta3weem-cib",
      "ta3weem-nbe",
    ]);
    expect(world.faultTargets("sides-swapped")).not.toContain("dahab-zaman"); // one side only: nothing to swap
    expect(world.faultTargets("outage")).toEqual(world.served);
  });

  test.each(CASES)("%s on %s does what it says, and the reader reads what the world wrote", async (kind, id, check) => {
    world.setHour(SUNDAY, []);
    const base = (await ask(SUNDAY, { only: [id] })).by.get(id)!;
    expect(base.ok, base.error).toBe(true);
    world.setHour(SUNDAY, [{ kind, source: id }]);
    const before = world.requests.get(id) ?? 0;
    const { by, waits } = await ask(SUNDAY, { only: [id], ...(kind === "timeout" ? { timeoutMs: 300 } : {}) });
    const asked = (world.requests.get(id) ?? 0) - before;
    const r = by.get(id)!;
    const expected = await world.expected(id);
    if (expected === null) expect(r.ok).toBe(false);
    else {
      expect(r.ok, r.error).toBe(true);
      expect(observed(r)).toEqual(expected);
    }
    check(r, base, waits, asked);
    // The fault is the hour's: the next hour without it reads as before.
    world.setHour(SUNDAY, []);
    expect(observed((await ask(SUNDAY, { only: [id] })).by.get(id)!)).toEqual(observed(base));
  });

  test('"*" hits every source the kind can hit, and no other', async () => {
    world.setHour(SUNDAY, [{ kind: "unit-per-ounce", source: "*" }]);
    const { by } = await ask(SUNDAY, { only: ["dahab-zaman", "cib-rates-api"] });
    expect(observed(by.get("dahab-zaman")!)).toEqual(await world.expected("dahab-zaman"));
    expect(by.get("dahab-zaman")!.observed!.quotes[0]!.buy!).toBeGreaterThan(100_000);
    world.setHour(SUNDAY, []);
    expect(observed(by.get("cib-rates-api")!)).toEqual(await world.expected("cib-rates-api"));
  });
});

describe("determinism", () => {
  const bodies = async (dir: string) => {
    const out = new Map<string, string>();
    const walk = async (d: string) => {
      for (const e of await fs.readdir(d, { withFileTypes: true }))
        if (e.isDirectory()) await walk(path.join(d, e.name));
        else if (e.name.endsWith(".body"))
          out.set(
            path.relative(dir, path.join(d, e.name)),
            (await fs.readFile(path.join(d, e.name))).toString("base64"),
          );
    };
    await walk(dir);
    return out;
  };

  test("the same seed and instant give the same bytes; another seed, other prices", async () => {
    const faults = [
      { kind: "renamed-bank" as const, source: "egrates-gbp" },
      { kind: "clock-ahead" as const, source: "ta3weem-nbe" },
    ];
    const run = async (seed: string) => {
      const w = await startWorld({ seed, sources: raw as never, dataDir: data });
      try {
        w.setHour(SUNDAY, faults);
        const save = path.join(await tempDir("pf-world-bodies-"), "bodies");
        const { by } = await ask(SUNDAY, { w, save });
        for (const r of by.values()) expect(r.ok, `${r.id}: ${r.error ?? ""}`).toBe(true);
        // The addresses too: ingest's reasons quote them, and the site publishes the reasons.
        return { bodies: await bodies(save), pointed: JSON.stringify(w.pointSources(raw as never)) };
      } finally {
        await w.close();
      }
    };
    const { bodies: a, pointed: pa } = await run(SEED);
    const { bodies: b, pointed: pb } = await run(SEED);
    const { bodies: c } = await run("another-seed");
    // Every source's answers, the CBE's page (its token) and workbook and Dahab Masr's two steps among them.
    expect(a.size).toBeGreaterThanOrEqual(world.served.length + 2);
    expect(b).toEqual(a);
    expect(pb).toBe(pa);
    const differ = [...a.keys()].filter((k) => c.get(k) !== a.get(k));
    expect(differ.length).toBeGreaterThan(world.served.length - 2);
  });
});

describe("an operator's configuration", () => {
  /** Every source of init's file, the disabled ones (2016 layouts, the NBE's service, egrates' bank pages) enabled. */
  const everySource = () => ({ ...raw, sources: raw.sources.map(({ enabled: _, ...x }) => x) });

  test("every source of init's file, its disabled layouts enabled: html, XML, JSON by POST, each read back by its reader", async () => {
    const src = everySource();
    const w = await startWorld({ seed: SEED, sources: src as never, dataDir: data });
    try {
      expect(w.unserved).toEqual([]);
      expect(w.served).toHaveLength(src.sources.length);
      w.setHour(SUNDAY, []);
      const { by } = await ask(SUNDAY, { w, src });
      for (const id of w.served) {
        const r = by.get(id)!;
        expect(r.ok, `${id}: ${r.error ?? ""}`).toBe(true);
        expect(observed(r), id).toEqual(await w.expected(id));
      }
      // A date without a time (the EDBE's file, ABK's page): today's rates, observed at the run.
      for (const q of by.get("export-development-bank-of-egypt")!.observed!.quotes)
        expect(q.observedAt).toBe(new Date(SUNDAY).toISOString());
      // SAIB writes piastres (divideBy 100): back in pounds.
      const saib = by
        .get("societe-arabe-internationale-de-banque")!
        .observed!.quotes.find((q) => q.asset === "USD-EGP")!;
      expect(Math.abs(saib.buy! / 47.55 - 1)).toBeLessThan(0.1);
    } finally {
      await w.close();
    }
  });

  test("where 127.0.0.x cannot be had: every host on 127.0.0.1 under its own path, read the same", async () => {
    const w = await startWorld({ seed: SEED, sources: raw as never, dataDir: data, oneAddress: true });
    try {
      const pointed = w.pointSources(raw as never) as unknown as typeof raw;
      for (const x of pointed.sources.filter((y) => y["enabled"] !== false))
        expect(new URL((x["url"] ?? x["pageUrl"] ?? (x["urls"] as string[])[0]) as string).host).toBe(
          new URL(w.url).host,
        );
      w.setHour(SUNDAY, []);
      const { by } = await ask(SUNDAY, { w });
      for (const id of w.served) {
        expect(by.get(id)!.ok, `${id}: ${by.get(id)!.error ?? ""}`).toBe(true);
        expect(observed(by.get(id)!), id).toEqual(await w.expected(id));
      }
    } finally {
      await w.close();
    }
  });

  test("a dealer's CSV is served; what the world cannot serve is named with the reason", async () => {
    const src = {
      contact: CONTACT,
      sources: [
        {
          id: "gold-csv",
          name: "A dealer's CSV",
          adapter: "seller-document",
          kind: "seller",
          format: "csv",
          url: "https://gold.example.net/prices.csv",
          seller: "dahab-zaman",
          fields: { asset: "Karat", buy: "Buy", sell: "Sell", time: "Updated", unit: "Unit" },
          rowUnits: { ounce: 31.1034768, gram: 1 },
          time: { format: "yyyy-MM-dd HH:mm" },
        },
        {
          id: "gold-page",
          name: "A dealer's page, each row with its unit",
          adapter: "html",
          kind: "seller",
          url: "https://gold.example.net/ar/prices",
          seller: "dahab-masr",
          rows: "table.prices tbody tr",
          fields: { asset: { cell: 0 }, unit: { cell: 1 }, buy: { cell: 2 }, sell: { cell: 3 } },
          rowUnits: { "10 جرام": 10 },
        },
        {
          id: "local-file",
          name: "A file of the data folder",
          adapter: "seller-document",
          kind: "seller",
          format: "json",
          path: "prices.json",
          seller: "banque-misr",
          fields: { asset: "a", buy: "b", sell: "c" },
        },
        {
          id: "stranger",
          name: "A bank the registry does not list",
          adapter: "html",
          kind: "seller",
          url: "https://stranger.example.org/rates",
          seller: "no-such-bank",
          rows: "table tr",
          fields: { asset: { cell: 0 }, buy: { cell: 1 }, sell: { cell: 2 } },
        },
        {
          id: "siblings",
          name: "A page whose rows the world cannot build",
          adapter: "html",
          kind: "seller",
          url: "https://siblings.example.org/rates",
          seller: "banque-misr",
          rows: "h2 ~ table tr",
          fields: { asset: { cell: 0 }, buy: { cell: 1 }, sell: { cell: 2 } },
        },
      ],
    };
    const w = await startWorld({ seed: SEED, sources: src as never, dataDir: data });
    try {
      expect(w.served).toEqual(["gold-csv", "gold-page"]);
      expect(w.unserved).toEqual([
        { id: "local-file", why: "not a network source: ingest reads it without the world" },
        { id: "stranger", why: 'its seller "no-such-bank" is not in the registry' },
        { id: "siblings", why: 'its rows selector "h2 ~ table tr" is not one the world can build' },
      ]);
      w.setHour(SUNDAY, []);
      const { by } = await ask(SUNDAY, { w, src: src as never, only: ["gold-csv", "gold-page"] });
      expect(observed(by.get("gold-csv")!)).toEqual(await w.expected("gold-csv"));
      // A page priced per 10 grams, its unit on every row: per gram in the catalog.
      expect(observed(by.get("gold-page")!)).toEqual(await w.expected("gold-page"));
      const g24 = (id: string) => by.get(id)!.observed!.quotes.find((q) => q.asset === "XAU24K-EGP")!.buy!;
      expect(g24("gold-page") / g24("gold-csv")).toBeCloseTo(1, 1);
      expect(
        by
          .get("gold-csv")!
          .observed!.quotes.map((q) => q.asset)
          .sort(),
      ).toEqual(["GOLDPOUND-EGP", "XAU18K-EGP", "XAU21K-EGP", "XAU24K-EGP"]);
      // An unserved source's address is the world's too: it answers 404 with the reason, never the real site.
      const pointed = w.pointSources(src as never) as unknown as typeof raw;
      const stranger = await fetch(pointed.sources.find((x) => x["id"] === "stranger")!["url"] as string);
      expect(stranger.status).toBe(404);
      expect(await stranger.text()).toMatch(
        /does not serve stranger: its seller "no-such-bank" is not in the registry/,
      );
    } finally {
      await w.close();
    }
  });
});
