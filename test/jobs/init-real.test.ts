/**
 * A real deployment from one command: `price-feed init DIR`, every enabled seller and aggregator
 * source served on loopback from its fixture under test/fixtures/sellers/ (recorded where a body was
 * recorded, constructed from public code otherwise: each fixture's .provenance.txt says which),
 * `ingest`, then `build`. The feed's tables hold the real banks and gold dealers with their Arabic
 * names, the prices the bodies show, where and when each was seen, and each side's best.
 * The CBE and the global reference stay disabled here: this machine has no internet, and their own
 * tests (test/ingest/ingest.test.ts) serve their formats.
 */
import { promises as fs, readFileSync } from "node:fs";
import type { ServerResponse } from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { main } from "../../src/cli/main.js";
import { runBuild } from "../../src/jobs/build.js";
import { runIngest } from "../../src/jobs/ingest.js";
import { Feed, type Asset } from "../../src/schema/outputs.js";
import { BuildReport, SourceHealth } from "../../src/schema/documents.js";
import { tempDir } from "../helpers/dataset.js";
import { EGRATES_CURRENCIES } from "../helpers/egypt.js";
import { sourcesServer, type Seen } from "../helpers/sources-server.js";

const FIXTURES = path.resolve("test/fixtures/sellers");
const body = (file: string) => readFileSync(path.join(FIXTURES, file));
const answer = (type: string, file: string) => (_: Seen, res: ServerResponse) =>
  res.writeHead(200, { "content-type": type }).end(body(file));
const html = (file: string) => answer("text/html; charset=utf-8", file);
const json = (file: string) => answer("application/json; charset=utf-8", file);

/** The catalog's currencies, each read from its egrates page (examples/egypt/sources.json, egrates-<code>). */
const CURRENCIES = EGRATES_CURRENCIES;
/** Every enabled seller and aggregator source of init's sources file, and the fixture it is served. */
const FIXTURE_OF: Record<string, string> = {
  "banque-misr": "banquemisr-rates-2026-reduced-fixture.html",
  "cib-rates-api": "cib-rates-api-2026-constructed.json",
  "dahab-masr": "dahab-masr-prices-2026-constructed.json",
  "dahab-zaman": "dahab-zaman-prices-2026-constructed.json",
  "ta3weem-cib": "ta3weem-cib-2026-reduced-fixture.html",
  "ta3weem-nbe": "ta3weem-nbe-2026-constructed.html",
  ...Object.fromEntries(CURRENCIES.map((c) => [`egrates-${c}`, `egrates-currency-${c}-2026-constructed.html`])),
};
const NONCE = JSON.parse(body("dahab-masr-auth-2026-constructed.json").toString("utf8")) as { nonce: string };

let server: Awaited<ReturnType<typeof sourcesServer>>;
let data: string;
let initSources: Array<Record<string, unknown>>;

beforeAll(async () => {
  server = await sourcesServer({
    "GET /banque-misr": html(FIXTURE_OF["banque-misr"]!),
    "GET /cib-rates-api": json(FIXTURE_OF["cib-rates-api"]!),
    // Dahab Masr's two steps: a nonce (and a session cookie), then the prices only with both.
    "GET /dahab-masr/auth": (_, res) =>
      res
        .writeHead(200, { "content-type": "application/json", "set-cookie": "PHPSESSID=s-81; path=/; HttpOnly" })
        .end(body("dahab-masr-auth-2026-constructed.json")),
    "POST /dahab-masr": (req, res) =>
      req.headers["x-price-nonce"] === NONCE.nonce && req.headers["cookie"] === "PHPSESSID=s-81"
        ? json(FIXTURE_OF["dahab-masr"]!)(req, res)
        : res.writeHead(403, { "content-type": "application/json" }).end('{"error":"bad nonce"}'),
    "GET /dahab-zaman": json(FIXTURE_OF["dahab-zaman"]!),
    "GET /ta3weem-cib": html(FIXTURE_OF["ta3weem-cib"]!),
    "GET /ta3weem-nbe": html(FIXTURE_OF["ta3weem-nbe"]!),
    // egrates: one page per currency, every bank a row.
    ...Object.fromEntries(CURRENCIES.map((c) => [`GET /egrates-${c}`, html(FIXTURE_OF[`egrates-${c}`]!)])),
  });
  data = path.join(await tempDir("pf-init-"), "data");
  expect(await main(["node", "price-feed", "init", data])).toBe(0);
  const file = path.join(data, "sources.json");
  const cfg = JSON.parse(await fs.readFile(file, "utf8")) as { sources: Array<Record<string, unknown>> };
  initSources = cfg.sources;
  // Every enabled seller and aggregator source points at loopback; the CBE and the global reference
  // are disabled (no internet here).
  cfg.sources = cfg.sources.map((s) => {
    const id = s["id"] as string;
    if (s["enabled"] === false || (s["kind"] !== "seller" && s["kind"] !== "aggregator"))
      return { ...s, enabled: false };
    // Counted from the first run, as the operator may say (METHODOLOGY "New sources: probation"): this
    // test checks what the tables make of every body; probation has tests of its own.
    const moved: Record<string, unknown> = { ...s, url: `${server.url}/${id}`, probation: false };
    if (s["token"] !== undefined) moved["token"] = { ...(s["token"] as object), url: `${server.url}/${id}/auth` };
    return moved;
  });
  // A real contact: ingest refuses to send init's placeholder to real sources (docs/operating.md).
  (cfg as Record<string, unknown>)["contact"] = "mailto:ops@price-feed.test";
  await fs.writeFile(file, JSON.stringify(cfg));
});
afterAll(() => server.close());

async function buildAt(iso: string) {
  const nowMs = Date.parse(iso);
  const out = path.join(await tempDir("pf-init-out-"), "public");
  await runBuild({ dataDir: data, outDir: out, nowMs, renderers: [] });
  const read = async (f: string) => JSON.parse(await fs.readFile(path.join(out, f), "utf8")) as unknown;
  return {
    feed: Feed.parse(await read("api/v1/feed.json")),
    health: SourceHealth.parse(await read("api/v1/sources.json")),
    report: BuildReport.parse(JSON.parse(await fs.readFile(`${out}.build-report.json`, "utf8"))),
  };
}

/** A table as [seller id, buy, sell, source], and each side's best seller (by name, as published). */
const table = (a: Asset) => a.sellers.map((s) => [s.id, s.buy, s.sell, s.source]);
const best = (a: Asset) => [a.directions.buy.best?.seller ?? null, a.directions.sell.best?.seller ?? null];

describe("price-feed init, then the hourly loop on every enabled source", () => {
  test("init refuses a folder that is not empty", async () => {
    expect(await main(["node", "price-feed", "init", data])).toBe(1);
  });

  test("every enabled seller or aggregator source has a fixture here, and says how its format is known", () => {
    const enabled = initSources.filter(
      (s) => s["enabled"] !== false && (s["kind"] === "seller" || s["kind"] === "aggregator"),
    );
    expect(enabled.map((s) => s["id"]).sort()).toEqual(Object.keys(FIXTURE_OF).sort());
    for (const s of enabled) {
      const evidence = s["evidence"] as { kind: string; where: string[] } | undefined;
      expect(evidence, `${s["id"] as string}: evidence`).toBeDefined();
      // Its body here is among the evidence, and one never seen live says so in its note.
      expect(evidence!.where.some((w) => w.endsWith(FIXTURE_OF[s["id"] as string]!))).toBe(true);
      if (evidence!.kind !== "recorded") expect(s["note"]).toMatch(/not yet seen live/i);
    }
  });

  test("gold is sold by registered dealers: competitive in the catalog; registration required, not verified here", async () => {
    const assets = JSON.parse(await fs.readFile(path.join(data, "assets.json"), "utf8")) as Array<{
      category: string;
      market: string;
    }>;
    expect(assets.filter((a) => a.category === "metals").map((a) => a.market)).toEqual(Array(4).fill("competitive"));
    const sellers = JSON.parse(await fs.readFile(path.join(data, "sellers.json"), "utf8")) as Array<{
      id: string;
      kind: string;
      licensedBy: string;
      categories: string[];
      verified?: unknown;
    }>;
    const dealers = sellers.filter((s) => s.kind === "gold-dealer");
    expect(dealers.map((d) => d.id)).toEqual(["dahab-masr", "dahab-zaman"]);
    for (const d of dealers) {
      expect(d.categories).toEqual(["metals"]);
      // Registered, not licensed (Ministry of Supply decision 149 of 2023); nobody here has checked
      // that these two are on the authority's register: null says so.
      expect(d.licensedBy).toMatch(/Assay and Weights Authority.*registration.*decision 149 of 2023/);
      expect(d.licensedBy).not.toMatch(/licen[cs]/i);
      expect(d.verified).toBeNull();
    }
  });

  test("ingest reads every source; the build's tables hold every seller row and each side's best", async () => {
    const { reports } = await runIngest({
      dataDir: data,
      nowMs: Date.parse("2026-09-13T12:30:00Z"),
      retries: 0,
      backoffMs: 1,
      timeoutMs: 5000,
    });
    expect(reports.map((r) => [r.id, r.ok])).toEqual(
      initSources.filter((s) => (s["id"] as string) in FIXTURE_OF).map((s) => [s["id"], true]),
    );
    // Dahab Masr was asked for its nonce first, and the prices carried it.
    const asked = server.seen.filter((s) => s.path.startsWith("/dahab-masr")).map((s) => `${s.method} ${s.path}`);
    expect(asked).toEqual(["GET /dahab-masr/auth", "POST /dahab-masr"]);

    // 10 September, after Banque Misr's 14:28 update (Cairo, UTC+3): its recorded page alone.
    const sep10 = await buildAt("2026-09-10T12:00:00Z");
    const usd10 = sep10.feed.assets.find((a) => a.id === "USD-EGP")!;
    expect(usd10.asOf).toBe("2026-09-10");
    expect(usd10.sellers).toEqual([
      {
        id: "banque-misr",
        seller: "Banque Misr",
        sellerAr: "بنك مصر",
        buy: 51.27,
        sell: 51.37,
        observedAt: "2026-09-10T11:28:09Z",
        source: "banque-misr",
        sources: ["banque-misr"],
        previous: null, // the first day the feed has: no previous close
      },
    ]);

    // 13 September: the banks' own services, the relays, and the gold dealers.
    const sep13 = await buildAt("2026-09-13T12:30:00Z");
    const asset = (id: string) => sep13.feed.assets.find((a) => a.id === id)!;
    const usd = asset("USD-EGP");
    expect(usd.asOf).toBe("2026-09-13");
    // Sorted by the dollar's default side (sell), best first, then by name. CIB's own service
    // outranks both relays of it (METHODOLOGY, a seller's close); NBE comes through the relays only
    // (its .asmx service is disabled), egrates' page the later of the two (no time: the run's instant).
    // Banque Misr's own page is of 10 September: on the 13th its relay counts.
    expect(table(usd)).toEqual([
      ["banque-misr", 51.3, 51.4, "egrates-usd"],
      ["banque-du-caire", 51.3, 51.4, "egrates-usd"],
      ["bank-of-alexandria", 51.31, 51.41, "egrates-usd"],
      ["national-bank-of-egypt", 51.32, 51.42, "egrates-usd"],
      ["arab-african-international-bank", 51.33, 51.43, "egrates-usd"],
      ["commercial-international-bank", 51.35, 51.45, "cib-rates-api"],
    ]);
    expect(usd.sellers.find((s) => s.id === "national-bank-of-egypt")!.sources.sort()).toEqual(
      ["egrates-usd", "ta3weem-nbe"].sort(),
    );
    expect(usd.sellers.find((s) => s.id === "commercial-international-bank")).toMatchObject({
      sellerAr: "البنك التجاري الدولي",
      observedAt: "2026-09-13T12:30:00Z", // CIB's answer has no time: the run's instant
    });
    expect(usd.sellers.find((s) => s.id === "commercial-international-bank")!.sources.sort()).toEqual(
      ["cib-rates-api", "egrates-usd", "ta3weem-cib"].sort(),
    );
    expect(best(usd)).toEqual(["Commercial International Bank (CIB)", "Banque Misr"]);
    // Neither the bank egrates names that the registry does not list, nor the ones not taken from it.
    for (const id of ["abu-dhabi-islamic-bank-egypt", "midbank"])
      expect(usd.sellers.map((s) => s.id)).not.toContain(id);

    const eur = asset("EUR-EGP");
    expect(table(eur)).toEqual([
      ["al-ahli-bank-of-kuwait-egypt", 60, 60.26, "egrates-eur"], // «البنك الأهلي الكويتي»: «- مصر» is a suffix (issue 51)
      ["banque-du-caire", 60.02, 60.28, "egrates-eur"],
      ["banque-misr", 60.04, 60.29, "egrates-eur"],
      ["national-bank-of-egypt", 60.05, 60.3, "egrates-eur"],
      ["commercial-international-bank", 60.1, 60.35, "cib-rates-api"],
    ]);
    expect(best(eur)).toEqual(["Commercial International Bank (CIB)", "Al Ahli Bank of Kuwait – Egypt (ABK)"]);
    expect(table(asset("GBP-EGP"))).toEqual([
      ["banque-misr", 69.12, 69.48, "egrates-gbp"],
      ["national-bank-of-egypt", 69.15, 69.5, "egrates-gbp"],
      ["commercial-international-bank", 69.2, 69.55, "cib-rates-api"],
    ]);
    expect(table(asset("KWD-EGP"))).toEqual([
      ["banque-misr", 167.4, 168.3, "egrates-kwd"],
      ["national-bank-of-egypt", 167.6, 168.5, "egrates-kwd"],
      ["commercial-international-bank", 167.8, 168.6, "cib-rates-api"],
    ]);
    // egrates quotes the yen per 1, as the catalog does: not divided.
    expect(table(asset("JPY-EGP"))).toEqual([
      ["national-bank-of-egypt", 0.342, 0.344, "egrates-jpy"],
      ["banque-misr", 0.3418, 0.3442, "egrates-jpy"],
    ]);
    // Every currency of the catalog has its banks from its egrates page.
    for (const c of CURRENCIES)
      expect(
        asset(`${c.toUpperCase()}-EGP`).sellers.map((s) => s.id),
        c,
      ).toEqual(expect.arrayContaining(["national-bank-of-egypt", "banque-misr"]));

    // Gold: Dahab Masr's one record gives every karat, each side from its own member; Dahab Zaman
    // gives the price it buys at only. 24 karat's best buyer is Dahab Zaman, its best seller Dahab Masr.
    const g24 = asset("XAU24K-EGP");
    expect(g24.market).toBe("competitive");
    expect(table(g24)).toEqual([
      ["dahab-masr", 5560, 5600, "dahab-masr"],
      ["dahab-zaman", 5565, null, "dahab-zaman"],
    ]);
    expect(g24.sellers[0]).toMatchObject({ sellerAr: "دهب مصر", observedAt: "2026-09-13T12:05:00Z" });
    expect(best(g24)).toEqual(["Dahab Zaman", "Dahab Masr"]);
    expect(table(asset("XAU21K-EGP"))).toEqual([
      ["dahab-masr", 4865, 4900, "dahab-masr"],
      ["dahab-zaman", 4870, null, "dahab-zaman"],
    ]);
    expect(best(asset("XAU21K-EGP"))).toEqual(["Dahab Zaman", "Dahab Masr"]);
    expect(table(asset("XAU18K-EGP"))).toEqual([
      ["dahab-masr", 4170, 4200, "dahab-masr"],
      ["dahab-zaman", 4172, null, "dahab-zaman"],
    ]);
    // No source gives the gold pound yet: an empty table, never a derived price.
    expect(table(asset("GOLDPOUND-EGP"))).toEqual([]);
    expect(best(asset("GOLDPOUND-EGP"))).toEqual([null, null]);

    expect(sep13.report.quotes.rejected).toBe(0);
    const health = new Map(sep13.health.sources.map((s) => [s.id, s]));
    expect(health.get("dahab-masr")).toMatchObject({
      kind: "seller",
      assets: ["XAU18K-EGP", "XAU21K-EGP", "XAU24K-EGP"],
      lastSuccessAt: "2026-09-13T12:30:00.000Z",
      lastFailure: null,
    });
    expect(health.get("egrates-usd")).toMatchObject({ kind: "aggregator", lastFailure: null });
  });

  test("a dry run's observations: every egrates page read, each name matched to the registry, unknown and lagging banks left out", async () => {
    // At the observations, before any rule or probation: what each page gave, as ingest --dry-run reports it.
    const nowMs = Date.parse("2026-09-13T12:30:00Z");
    const { reports } = await runIngest({
      dataDir: data,
      nowMs,
      dryRun: true,
      retries: 0,
      backoffMs: 1,
      timeoutMs: 5000,
    });
    const by = new Map(reports.map((r) => [r.id, r]));
    const at = "2026-09-13T12:30:00.000Z"; // no time on the pages: the run's instant
    const rows = (id: string) =>
      by.get(id)!.observed!.quotes.map((q) => [q.seller, q.asset, q.buy, q.sell, q.observedAt]);
    expect(rows("egrates-usd")).toEqual([
      ["national-bank-of-egypt", "USD-EGP", 51.32, 51.42, at], // «البنك الأهلى المصرى»
      ["banque-misr", "USD-EGP", 51.3, 51.4, at],
      ["commercial-international-bank", "USD-EGP", 51.34, 51.44, at], // «البنك التجاري الدولي (CIB)»
      ["banque-du-caire", "USD-EGP", 51.3, 51.4, at],
      ["bank-of-alexandria", "USD-EGP", 51.31, 51.41, at],
      ["arab-african-international-bank", "USD-EGP", 51.33, 51.43, at], // «البنك العربى الأفريقى الدولى»
    ]);
    // «بنك مصر إيران للتنمية» is not Banque Misr: it is MIDBANK's former name (issue 51), and MIDBANK
    // and ADIB are not taken from egrates (the public reader's stale banks).
    expect(by.get("egrates-usd")).toMatchObject({
      ok: true,
      fetched: 9,
      skipped: { "seller not taken from this source": 3 },
    });
    expect(by.get("egrates-usd")!.unknownSellers ?? []).toEqual([]);
    expect(rows("egrates-eur")).toEqual([
      ["national-bank-of-egypt", "EUR-EGP", 60.05, 60.3, at],
      ["commercial-international-bank", "EUR-EGP", 60.08, 60.33, at],
      ["banque-du-caire", "EUR-EGP", 60.02, 60.28, at],
      ["banque-misr", "EUR-EGP", 60.04, 60.29, at],
      ["al-ahli-bank-of-kuwait-egypt", "EUR-EGP", 60, 60.26, at],
    ]);
    // ABK written without the registry's «- مصر»: the country suffix is folded away (issue 51).
    expect(by.get("egrates-eur")).toMatchObject({ ok: true });
    expect(by.get("egrates-eur")!.unknownSellers ?? []).toEqual([]);
    // Spelling variants: «بنك القاهره» (ه), «البنك التجارى الدولى (CIB)» (ى).
    expect(rows("egrates-sar")).toEqual([
      ["national-bank-of-egypt", "SAR-EGP", 13.66, 13.7, at],
      ["banque-misr", "SAR-EGP", 13.65, 13.7, at],
      ["banque-du-caire", "SAR-EGP", 13.64, 13.69, at],
      ["commercial-international-bank", "SAR-EGP", 13.66, 13.71, at],
    ]);
    // The yen per 1, as the catalog's JPY-EGP: not divided.
    expect(rows("egrates-jpy")).toEqual([
      ["national-bank-of-egypt", "JPY-EGP", 0.342, 0.344, at],
      ["banque-misr", "JPY-EGP", 0.3418, 0.3442, at],
    ]);
    // Every other currency's page: NBE and Banque Misr, on the asset of its page.
    for (const c of CURRENCIES.filter((x) => !["usd", "eur", "sar", "jpy"].includes(x))) {
      const quotes = by.get(`egrates-${c}`)!.observed!.quotes;
      expect(
        quotes.map((q) => [q.seller, q.asset]),
        c,
      ).toEqual([
        ["national-bank-of-egypt", `${c.toUpperCase()}-EGP`],
        ["banque-misr", `${c.toUpperCase()}-EGP`],
      ]);
      for (const q of quotes) expect(q.buy! < q.sell!, `${c} ${q.seller}`).toBe(true);
    }
  });

  test("a dealer's quote for gold the catalog still marks reference is rejected, named, never dropped", async () => {
    const file = path.join(data, "assets.json");
    const before = await fs.readFile(file, "utf8");
    const assets = JSON.parse(before) as Array<{ id: string; market: string }>;
    await fs.writeFile(
      file,
      JSON.stringify(assets.map((a) => (a.id === "XAU24K-EGP" ? { ...a, market: "reference" } : a))),
    );
    try {
      const { feed, report } = await buildAt("2026-09-13T12:30:00Z");
      expect(feed.assets.find((a) => a.id === "XAU24K-EGP")!.sellers).toEqual([]);
      expect(report.rejectedByReason).toMatchObject({ "reference-asset": 2 });
    } finally {
      await fs.writeFile(file, before);
    }
  });

  test("as init writes them, every seller and aggregator source starts on probation: checked, listed apart, counted in nothing", async () => {
    // init's own sources file says nothing of probation (docs/methodology.md §2.4): every one is subject.
    for (const s of initSources)
      if (s["kind"] === "seller" || s["kind"] === "aggregator")
        expect(s["probation"], s["id"] as string).toBeUndefined();
    // The same bodies, read by a fresh deployment whose sources keep init's word.
    const fresh = path.join(await tempDir("pf-init-probation-"), "data");
    expect(await main(["node", "price-feed", "init", fresh])).toBe(0);
    const file = path.join(fresh, "sources.json");
    const cfg = JSON.parse(await fs.readFile(file, "utf8")) as { sources: Array<Record<string, unknown>> };
    const mine = JSON.parse(await fs.readFile(path.join(data, "sources.json"), "utf8")) as typeof cfg;
    cfg.sources = mine.sources.map(({ probation: _, ...s }) => s);
    (cfg as Record<string, unknown>)["contact"] = "mailto:ops@price-feed.test";
    await fs.writeFile(file, JSON.stringify(cfg));
    const nowMs = Date.parse("2026-09-13T12:30:00Z");
    await runIngest({ dataDir: fresh, nowMs, retries: 0, backoffMs: 1, timeoutMs: 5000 });
    const out = path.join(await tempDir("pf-init-probation-out-"), "public");
    await runBuild({ dataDir: fresh, outDir: out, nowMs: nowMs + 60_000, renderers: [] });
    const feed = Feed.parse(JSON.parse(await fs.readFile(path.join(out, "api/v1/feed.json"), "utf8")));
    const health = SourceHealth.parse(JSON.parse(await fs.readFile(path.join(out, "api/v1/sources.json"), "utf8")));
    for (const a of feed.assets) {
      expect(a.sellers, a.id).toEqual([]);
      expect(a.directions.sell.best, a.id).toBeNull();
      expect(a.directions.buy.best, a.id).toBeNull();
    }
    // What the bodies gave is there, apart, each with the rules' verdict.
    const usd = feed.assets.find((a) => a.id === "USD-EGP")!;
    expect(usd.probation?.map((p) => p.source)).toEqual(expect.arrayContaining(["cib-rates-api", "egrates-usd"]));
    expect(usd.probation?.every((p) => p.passed)).toBe(true);
    const gold = feed.assets.find((a) => a.id === "XAU21K-EGP")!;
    expect(gold.probation?.map((p) => p.id).sort()).toEqual(["dahab-masr", "dahab-zaman"]);
    const standing = health.sources.filter((x) => x.enabled && (x.kind === "seller" || x.kind === "aggregator"));
    for (const x of standing)
      expect(x.probation, x.id).toMatchObject({ standing: "probation", runs: 1, runsNeeded: 24 });
    // The registry's dealers: registered, and not verified.
    expect(health.sellers.filter((r) => r.kind === "gold-dealer").map((r) => [r.id, r.verified])).toEqual([
      ["dahab-masr", null],
      ["dahab-zaman", null],
    ]);
  });
});
