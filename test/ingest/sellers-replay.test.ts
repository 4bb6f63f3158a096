/**
 * The real deployment's sources (examples/egypt/sources.json) against the banks' and aggregators'
 * own recorded pages, replayed over loopback HTTP through `price-feed ingest` (runIngest): every
 * page yields the buy and sell it shows, at the time it shows, in UTC. Challenge pages, prices
 * drawn as images, a removed table and a renamed column each fail their source with its reason
 * while the other sources land. The recordings are cut-down copies in test/fixtures/sellers (each
 * with its .provenance.txt); when the project's shared/ folder is beside it, the full recordings
 * are replayed too. No test reaches the internet.
 */
import { afterEach, describe, expect, test } from "vitest";
import { existsSync, promises as fs, readFileSync } from "node:fs";
import path from "node:path";
import { runIngest } from "../../src/jobs/ingest.js";
import { Calendar, Catalog, Registry, Site, Sources } from "../../src/schema/inputs.js";
import { sourceKinds, type SourceConfig } from "../../src/schema/sources.js";
import { tempDir } from "../helpers/dataset.js";
import { sourcesServer } from "../helpers/sources-server.js";
import { EGRATES_CURRENCIES } from "../helpers/egypt.js";

const EXAMPLE = path.resolve("examples/egypt");
const CUT = path.resolve("test/fixtures/sellers");
const SHARED = path.resolve("../shared/fixtures/sellers");
/** Sunday 4 December 2016, 17:30 in Cairo (UTC+2: Egypt kept no daylight saving that year): after every 2016 recording of that day. */
const NOW = Date.parse("2016-12-04T15:30:00Z");
const NOW_ISO = new Date(NOW).toISOString();
const quiet = { retries: 0, backoffMs: 1, timeoutMs: 5000 };

interface Page {
  /** The source's id in examples/egypt/sources.json. */
  id: string;
  file: string;
  contentType: string;
  method?: "POST";
  seller: string;
  /** Asset → [buy, sell] as the page shows them (per one unit: the yen divided by 100 where the page quotes 100). */
  prices: Record<string, [number, number]>;
  /** The page's own time in UTC, or the run's instant when the page gives none (or only today's date). */
  observedAt: string;
}

/** Read off the pages by eye, not by the adapter: what each one says. */
const PAGES: Page[] = [
  // 10-09-2026 14:28:09 Cairo, summer time (UTC+3 since Egypt restored DST in 2023).
  {
    id: "banque-misr",
    file: "banquemisr-rates-2026-reduced-fixture.html",
    contentType: "text/html; charset=utf-8",
    seller: "banque-misr",
    prices: { "USD-EGP": [51.27, 51.37], "EUR-EGP": [59.586, 59.7998] },
    observedAt: "2026-09-10T11:28:09.000Z",
  },
  {
    id: "ta3weem-cib",
    file: "ta3weem-cib-2026-reduced-fixture.html",
    contentType: "text/html; charset=utf-8",
    seller: "commercial-international-bank",
    prices: { "USD-EGP": [51.34, 51.44] },
    observedAt: "2026-09-13T11:54:00.000Z",
  },
  {
    id: "national-bank-of-egypt",
    file: "nbe-rates-2016.html",
    contentType: "text/html; charset=utf-8",
    seller: "national-bank-of-egypt",
    prices: {
      "USD-EGP": [17.5, 17.75],
      "EUR-EGP": [18.5955, 18.973],
      "GBP-EGP": [21.9993, 22.6082],
      "JPY-EGP": [0.153227, 0.156595],
      "BHD-EGP": [46.4166, 47.086],
    },
    observedAt: "2016-12-04T06:31:20.000Z",
  },
  {
    id: "banque-misr-2016",
    file: "banquemisr-rates-2016.html",
    contentType: "text/html; charset=utf-8",
    seller: "banque-misr",
    prices: { "USD-EGP": [17.5, 17.75], "GBP-EGP": [21.9993, 22.5969], "JPY-EGP": [0.153227, 0.156516] },
    observedAt: "2016-12-04T07:24:54.000Z",
  },
  {
    id: "commercial-international-bank",
    file: "cib-rates-2016.json",
    contentType: "application/json; charset=utf-8",
    method: "POST",
    seller: "commercial-international-bank",
    prices: { "USD-EGP": [17.5, 17.75], "EUR-EGP": [18.5903, 18.973], "GBP-EGP": [21.9888, 22.6082] },
    observedAt: NOW_ISO,
  },
  {
    id: "arab-african-international-bank",
    file: "aaib-rates-2016.html",
    contentType: "text/html",
    seller: "arab-african-international-bank",
    prices: { "USD-EGP": [17.65, 17.92], "EUR-EGP": [18.7549, 19.1547], "GBP-EGP": [22.1878, 22.8247] },
    observedAt: NOW_ISO,
  },
  {
    id: "al-ahli-bank-of-kuwait-egypt",
    file: "abk-egypt-rates-2016.html",
    contentType: "text/html; charset=utf-8",
    seller: "al-ahli-bank-of-kuwait-egypt",
    prices: { "USD-EGP": [17.75, 18.05], "EUR-EGP": [18.9375, 19.2666], "JPY-EGP": [0.1562, 0.159] },
    observedAt: NOW_ISO,
  },
  // The home page of 31 December 2016 says "Last Modified on 29/12/2016 - 02:25 PM".
  {
    id: "abu-dhabi-islamic-bank-egypt",
    file: "adib-egypt-rates-2016.html",
    contentType: "text/html; charset=utf-8",
    seller: "abu-dhabi-islamic-bank-egypt",
    prices: { "USD-EGP": [18.1, 18.85], "GBP-EGP": [22.1019, 23.1365], "EUR-EGP": [18.8403, 19.7548] },
    observedAt: "2016-12-29T12:25:00.000Z",
  },
  {
    id: "bank-of-alexandria",
    file: "alexbank-rates-2016.html",
    contentType: "text/html; charset=utf-8",
    seller: "bank-of-alexandria",
    prices: { "USD-EGP": [17.62, 18.05], "GBP-EGP": [22.44788, 22.97765], "JPY-EGP": [0.1542772, 0.1592413] },
    observedAt: "2016-12-04T10:36:49.000Z",
  },
  {
    id: "credit-agricole-egypt",
    file: "credit-agricole-egypt-rates-2016.html",
    contentType: "text/html; charset=UTF-8",
    seller: "credit-agricole-egypt",
    prices: { "USD-EGP": [17.65, 18.1], "EUR-EGP": [18.7549, 19.3471], "GBP-EGP": [22.1878, 23.054] },
    observedAt: "2016-12-04T07:24:19.000Z",
  },
  {
    id: "eg-bank",
    file: "egbank-rates-2016.html",
    contentType: "text/html; charset=utf-8",
    seller: "eg-bank",
    prices: { "USD-EGP": [17.6, 18.15], "EUR-EGP": [18.6965, 19.4005], "JPY-EGP": [0.1541, 0.1602] },
    observedAt: "2016-12-04T11:10:37.000Z",
  },
  {
    id: "export-development-bank-of-egypt",
    file: "edbe-rates-2016.xml",
    contentType: "text/xml",
    seller: "export-development-bank-of-egypt",
    prices: { "USD-EGP": [17.72, 18], "EUR-EGP": [18.824, 19.2402], "JPY-EGP": [0.155153, 0.158884] },
    observedAt: NOW_ISO,
  },
  {
    id: "faisal-islamic-bank-of-egypt",
    file: "faisalbank-rates-2017.html",
    contentType: "text/html; charset=utf-8",
    seller: "faisal-islamic-bank-of-egypt",
    prices: { "USD-EGP": [15.65, 15.75], "SAR-EGP": [4.151, 4.2216], "GBP-EGP": [19.4796, 19.7899] },
    observedAt: NOW_ISO,
  },
  // Piastres on the page: 1775 is 17.75 pounds.
  {
    id: "societe-arabe-internationale-de-banque",
    file: "saib-rates-2016.html",
    contentType: "text/html; charset=UTF-8",
    seller: "societe-arabe-internationale-de-banque",
    prices: { "USD-EGP": [17.75, 18.15], "EUR-EGP": [18.91, 19.4], "KWD-EGP": [58.22, 59.5] },
    observedAt: NOW_ISO,
  },
  {
    id: "united-bank",
    file: "ube-rates-2016.html",
    contentType: "text/html; charset=UTF-8",
    seller: "united-bank",
    prices: { "USD-EGP": [17.7, 17.9], "EUR-EGP": [18.808, 19.1333], "AED-EGP": [4.8191, 4.8734] },
    observedAt: NOW_ISO,
  },
];

const servers: Array<{ close: () => Promise<void> }> = [];
afterEach(async () => {
  while (servers.length) await servers.pop()!.close();
});

const exampleSources = () => Sources.parse(JSON.parse(readFileSync(path.join(EXAMPLE, "sources.json"), "utf8")));
const rawExampleSources = () =>
  JSON.parse(readFileSync(path.join(EXAMPLE, "sources.json"), "utf8")) as {
    contact: string;
    sources: Array<Record<string, unknown>>;
  };

/** A data folder with the example's catalog, registry, calendar and site, and the given sources. */
async function dataset(sources: Array<Record<string, unknown>>): Promise<string> {
  const dir = await tempDir("pf-sellers-");
  for (const f of ["assets.json", "sellers.json", "calendar.json", "site.json"])
    await fs.copyFile(path.join(EXAMPLE, f), path.join(dir, f));
  await fs.writeFile(
    path.join(dir, "sources.json"),
    JSON.stringify({ contact: "mailto:ops@price-feed.test", sources }),
  );
  return dir;
}

async function loggedQuotes(dir: string): Promise<Array<Record<string, unknown>>> {
  const folder = path.join(dir, "quotes");
  if (!existsSync(folder)) return [];
  const files = (await fs.readdir(folder)).sort();
  const lines = await Promise.all(files.map((f) => fs.readFile(path.join(folder, f), "utf8")));
  return lines.flatMap((t) =>
    t
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>),
  );
}

/** Serves each page at /<id>; the CIB endpoint answers only the POST its page made. */
async function serve(pages: Array<{ id: string; body: Buffer; contentType: string; method?: "POST" }>) {
  const routes: Parameters<typeof sourcesServer>[0] = {};
  for (const p of pages)
    routes[`${p.method ?? "GET"} /${p.id}`] = (req, res) => {
      if (
        p.method === "POST" &&
        (req.body !== JSON.stringify({ lang: "en" }) ||
          !String(req.headers["content-type"]).startsWith("application/json"))
      )
        return void res.writeHead(400).end("bad request");
      res.writeHead(200, { "content-type": p.contentType }).end(p.body);
    };
  const s = await sourcesServer(routes);
  servers.push(s);
  return s;
}

/** The example's sources, each listed page enabled and pointed at the loopback server, the rest disabled. */
function pointed(url: string, ids: string[]): Array<Record<string, unknown>> {
  return rawExampleSources().sources.map((s) =>
    ids.includes(s["id"] as string)
      ? { ...s, enabled: true, url: `${url}/${s["id"] as string}` }
      : { ...s, enabled: false },
  );
}

async function replay(folder: string) {
  const s = await serve(
    PAGES.map((p) => ({
      id: p.id,
      body: readFileSync(path.join(folder, p.file)),
      contentType: p.contentType,
      ...(p.method ? { method: p.method } : {}),
    })),
  );
  const dir = await dataset(
    pointed(
      s.url,
      PAGES.map((p) => p.id),
    ),
  );
  const { reports } = await runIngest({ dataDir: dir, nowMs: NOW, ...quiet });
  return { reports, quotes: await loggedQuotes(dir), seen: s.seen };
}

function expectPages(
  reports: Awaited<ReturnType<typeof runIngest>>["reports"],
  quotes: Array<Record<string, unknown>>,
) {
  expect(reports.filter((r) => !r.ok).map((r) => `${r.id}: ${r.error}`)).toEqual([]);
  expect(reports.map((r) => r.id)).toEqual(
    exampleSources()
      .sources.filter((s) => PAGES.some((p) => p.id === s.id))
      .map((s) => s.id),
  );
  for (const p of PAGES) {
    const mine = quotes.filter((q) => q["source"] === p.id);
    for (const [asset, [buy, sell]] of Object.entries(p.prices))
      expect(
        mine.find((q) => q["asset"] === asset),
        `${p.id} ${asset}`,
      ).toEqual({ source: p.id, seller: p.seller, asset, buy, sell, observedAt: p.observedAt });
    expect(
      mine.every((q) => q["seller"] === p.seller && q["observedAt"] === p.observedAt),
      p.id,
    ).toBe(true);
  }
}

describe("examples/egypt: a real deployment", () => {
  test("every file is valid by the project's schemas, and the sources name only registered sellers and catalog assets", () => {
    const read = (f: string) => JSON.parse(readFileSync(path.join(EXAMPLE, f), "utf8")) as unknown;
    const catalog = Catalog.parse(read("assets.json"));
    const registry = Registry.parse(read("sellers.json"));
    Calendar.parse(read("calendar.json"));
    expect(Site.parse(read("site.json")).simulated).toBe(false);
    const sources = Sources.parse(read("sources.json"));

    const assets = new Set(catalog.map((a) => a.id));
    for (const code of [
      "USD",
      "EUR",
      "GBP",
      "SAR",
      "AED",
      "KWD",
      "QAR",
      "CHF",
      "JPY",
      "CNY",
      "XAU24K",
      "XAU21K",
      "XAU18K",
      "GOLDPOUND",
    ])
      expect(assets.has(`${code}-EGP`), code).toBe(true);
    expect(catalog.find((a) => a.id === "JPY-EGP")).toMatchObject({ unit: "EGP/JPY", category: "currencies" });
    // Banks licensed by the CBE; gold dealers registered with the Assay and Weights Authority, for metals only.
    for (const s of registry) {
      expect(s.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      if (s.kind === "bank") expect([s.licensedBy, s.categories]).toEqual(["CBE", ["currencies"]]);
      else
        expect([s.kind, s.licensedBy, s.categories]).toEqual([
          "gold-dealer",
          expect.stringMatching(/^Assay and Weights Authority/),
          ["metals"],
        ]);
    }
    const sellers = new Set(registry.map((s) => s.id));
    for (const p of PAGES) expect(sellers.has(p.seller), p.seller).toBe(true);
    for (const s of sources.sources) {
      if ("seller" in s && s.seller !== undefined) expect(sellers.has(s.seller), `${s.id}: ${s.seller}`).toBe(true);
      if ("assets" in s && !Array.isArray(s.assets))
        for (const a of Object.values(s.assets)) expect(assets.has(a), `${s.id}: ${a}`).toBe(true);
      if (s.adapter === "cbe")
        for (const m of Object.values(s.currencies)) expect(assets.has(typeof m === "string" ? m : m.asset)).toBe(true);
      if (s.adapter === "global-rates") for (const a of s.assets) expect(assets.has(a.asset)).toBe(true);
    }
    // One entry per recorded page whose prices are text, one per endpoint the public record shows
    // today (test/jobs/init-real.test.ts serves each), plus the central bank and the global reference.
    expect(sources.sources.map((s) => s.id).sort()).toEqual(
      [...PAGES.map((p) => p.id), ...MODERN, "cbe-official", "global-mid"].sort(),
    );
    expect(Object.fromEntries(sourceKinds(sources))).toMatchObject({
      "banque-misr": "seller",
      "ta3weem-cib": "aggregator",
      "cbe-official": "official",
      "global-mid": "reference",
      "export-development-bank-of-egypt": "seller",
    });
    // The URLs are the pages' own, as recorded.
    const urls = Object.fromEntries(
      sources.sources.map((s) => [s.id, "url" in s ? s.url : "pageUrl" in s ? s.pageUrl : null]),
    );
    expect(urls["banque-misr"]).toBe(
      "https://www.banquemisr.com/en/CAPITAL-MARKETS/Exchange-Rates-and-Currencies?sc_lang=en",
    );
    expect(urls["national-bank-of-egypt"]).toBe("http://www.nbe.com.eg/en/ExchangeRate.aspx");
    expect(urls["ta3weem-cib"]).toBe("https://ta3weem.com/en/banks/commercial-international-bank-cib");
  });

  test("the pages still published today are enabled; the historical ones are disabled with a note saying why", () => {
    const sources = exampleSources().sources;
    const enabled = sources.filter((s) => s.enabled).map((s) => s.id);
    // Banks' and dealers' own publications first, then the relays: the order of trust.
    expect(enabled).toEqual([
      "banque-misr",
      "cib-rates-api",
      "dahab-masr",
      "dahab-zaman",
      "ta3weem-cib",
      "ta3weem-nbe",
      ...EGRATES,
      "cbe-official",
      "global-mid",
    ]);
    // Disabled: the historical pages (2016–17), NBE's .asmx service (probably not real), and egrates'
    // per-bank pages (replaced by its currency pages); each note says why.
    for (const s of sources.filter((x) => !x.enabled))
      expect(s.note, s.id).toMatch(
        /20(16|17)|^Disabled: probably not a real endpoint|^Disabled: replaced by egrates' currency pages/,
      );
  });
});

/** The endpoints of today enabled from the public record's evidence (constructed fixtures, test/jobs/init-real.test.ts). */
/** egrates' currency pages, one per currency of the catalog, in its order. */
const EGRATES = EGRATES_CURRENCIES.map((c) => `egrates-${c}`);
const MODERN = [
  "cib-rates-api",
  "nbe-prices-service",
  "dahab-masr",
  "dahab-zaman",
  "ta3weem-nbe",
  "egrates-nbe",
  "egrates-banque-du-caire",
  ...EGRATES,
];

describe("replaying the recorded pages through ingest", () => {
  test("each page yields the exact buy and sell it shows, at its own time in UTC", async () => {
    const { reports, quotes, seen } = await replay(CUT);
    expectPages(reports, quotes);
    // Every request is polite: our User-Agent with the contact, an Accept for what the adapter reads.
    expect(seen.every((r) => String(r.headers["user-agent"]).includes("mailto:ops@price-feed.test"))).toBe(true);
    expect(seen.find((r) => r.path === "/national-bank-of-egypt")!.headers["accept"]).toContain("text/html");
    expect(seen.find((r) => r.path === "/commercial-international-bank")).toMatchObject({
      method: "POST",
      body: '{"lang":"en"}',
    });
    expect(seen.find((r) => r.path === "/export-development-bank-of-egypt")!.headers["accept"]).toContain("xml");
    // What the pages show that the catalog does not list, or that the bank does not deal, is skipped with its reason.
    const byId = Object.fromEntries(reports.map((r) => [r.id, r]));
    expect(byId["banque-misr-2016"]).toMatchObject({
      fetched: 18,
      appended: 17,
      skipped: { "asset not in the catalog": 1 },
    });
    expect(byId["bank-of-alexandria"]!.skipped).toEqual({ "not dealt (cash)": 4 });
    expect(byId["national-bank-of-egypt"]).toMatchObject({ fetched: 17, appended: 17, skipped: {} });
  });

  test("running the same hour twice appends nothing twice", async () => {
    const s = await serve([
      { id: "eg-bank", body: readFileSync(path.join(CUT, "egbank-rates-2016.html")), contentType: "text/html" },
    ]);
    const dir = await dataset(pointed(s.url, ["eg-bank"]));
    const first = await runIngest({ dataDir: dir, nowMs: NOW, ...quiet });
    const second = await runIngest({ dataDir: dir, nowMs: NOW, ...quiet });
    expect(first.reports[0]).toMatchObject({ ok: true, appended: 17 });
    expect(second.reports[0]).toMatchObject({ ok: true, appended: 0, duplicates: 17 });
  });

  test("challenge pages, prices drawn as images, a removed table and a renamed column each fail their source with its reason; the others land", async () => {
    const cfg = Object.fromEntries(rawExampleSources().sources.map((s) => [s["id"] as string, s]));
    const broken: Array<{
      id: string;
      like: string;
      file: string;
      contentType?: string;
      method?: "POST";
      error: RegExp;
    }> = [
      {
        id: "bm-table-removed",
        like: "banque-misr",
        file: "broken-banquemisr-no-table.html",
        error: /^no rows match "section#generic-table\.exchange-rates table tbody tr": the page has changed shape$/,
      },
      {
        id: "nbe-column-renamed",
        like: "national-bank-of-egypt",
        file: "broken-nbe-renamed-column.html",
        error:
          /^no column headed "Buy Price" \(the headers are "Currency", "Code", "Cash Buy", "Cash Sell", "Transfers\/Buy Price", "Transfers\/Sell Price"\)$/,
      },
      {
        id: "saib-images",
        like: "societe-arabe-internationale-de-banque",
        file: "broken-saib-image-prices.html",
        error:
          /^the prices are drawn as images \(6 rows show a picture and no number where the prices should be\): they cannot be read as text$/,
      },
      {
        id: "bm-cloudflare",
        like: "banque-misr",
        file: "challenge-cloudflare.html",
        error:
          /bot challenge or firewall page \(Cloudflare challenge \("Just a moment\.\.\."\)\) with status 200, not its rates/,
      },
      {
        id: "nbe-incapsula",
        like: "national-bank-of-egypt",
        file: "challenge-incapsula.html",
        error: /bot challenge or firewall page \(Imperva\/Incapsula block/,
      },
      {
        id: "cib-access-denied",
        like: "commercial-international-bank",
        file: "challenge-access-denied.html",
        method: "POST",
        error: /bot challenge or firewall page \(firewall refusal \("Access Denied"\)\)/,
      },
      {
        id: "alex-captcha",
        like: "bank-of-alexandria",
        file: "challenge-captcha.html",
        error: /bot challenge or firewall page \(captcha page\)/,
      },
      {
        id: "edbe-cloudflare",
        like: "export-development-bank-of-egypt",
        file: "challenge-cloudflare.html",
        error: /Cloudflare challenge/,
      },
    ];
    const good = ["eg-bank", "united-bank"];
    const s = await serve([
      ...broken.map((b) => ({
        id: b.id,
        body: readFileSync(path.join(CUT, b.file)),
        contentType: b.contentType ?? "text/html; charset=utf-8",
        ...(b.method ? { method: b.method } : {}),
      })),
      ...good.map((id) => ({
        id,
        body: readFileSync(path.join(CUT, PAGES.find((p) => p.id === id)!.file)),
        contentType: "text/html",
      })),
    ]);
    const dir = await dataset([
      ...broken.map((b) => ({ ...cfg[b.like], id: b.id, enabled: true, url: `${s.url}/${b.id}` })),
      ...good.map((id) => ({ ...cfg[id], enabled: true, url: `${s.url}/${id}` })),
    ]);
    const { reports } = await runIngest({ dataDir: dir, nowMs: NOW, ...quiet });
    for (const b of broken)
      expect(
        reports.find((r) => r.id === b.id),
        b.id,
      ).toMatchObject({ ok: false, appended: 0, error: expect.stringMatching(b.error) });
    for (const id of good)
      expect(
        reports.find((r) => r.id === id),
        id,
      ).toMatchObject({ ok: true, appended: expect.any(Number) });
    const quotes = await loggedQuotes(dir);
    expect(new Set(quotes.map((q) => q["source"]))).toEqual(new Set(good));
    expect(quotes.find((q) => q["source"] === "eg-bank" && q["asset"] === "USD-EGP")).toMatchObject({
      buy: 17.6,
      sell: 18.15,
    });
  });
});

describe.skipIf(!existsSync(SHARED))("replaying the full recordings in shared/fixtures/sellers", () => {
  test("the whole pages, as recorded, give the same prices and times", async () => {
    const { reports, quotes } = await replay(SHARED);
    expectPages(reports, quotes);
  });
});

test("the demo keeps its market's roles, and every adapter has a default kind", () => {
  // A sources file written before kinds existed: the demo's sources keep the roles they play in the simulated market.
  const demo = Sources.parse({
    sources: ["bank-sites", "dealers-board", "rates-aggregator", "market-watch", "cbe-official", "global-mid"].map(
      (id) => ({ id, name: id, adapter: "demo" }),
    ),
  });
  expect(Object.fromEntries(sourceKinds(demo))).toEqual({
    "bank-sites": "seller",
    "dealers-board": "seller",
    "rates-aggregator": "aggregator",
    "market-watch": "aggregator",
    "cbe-official": "official",
    "global-mid": "reference",
  });
  const parsed = Sources.parse({
    sources: [
      { id: "c", name: "c", adapter: "cbe", pageUrl: "https://cbe.example/x", currencies: {} },
      {
        id: "g",
        name: "g",
        adapter: "global-rates",
        urls: ["https://g.example/usd.json"],
        base: "usd",
        assets: [{ asset: "USD-EGP", currency: "usd" }],
      },
      {
        id: "h",
        name: "h",
        adapter: "html",
        url: "https://h.example/",
        seller: "h",
        rows: "tr",
        fields: { asset: { cell: 0 }, buy: { cell: 1 }, sell: { cell: 2 } },
      },
      {
        id: "x",
        name: "x",
        adapter: "xml",
        url: "https://x.example/r.xml",
        seller: "x",
        records: "r",
        fields: { asset: "@c", buy: "@b", sell: "@s" },
      },
      {
        id: "d",
        name: "d",
        adapter: "seller-document",
        path: "d.json",
        format: "json",
        fields: { seller: "s", asset: "a", buy: "b", sell: "s" },
      },
      {
        id: "a",
        name: "a",
        adapter: "html",
        kind: "aggregator",
        url: "https://a.example/",
        rows: "tr",
        fields: { seller: { cell: 0 }, asset: { cell: 1 }, buy: { cell: 2 }, sell: { cell: 3 } },
      },
      { id: "other-demo", name: "o", adapter: "demo" },
      { id: "my-demo", name: "m", adapter: "demo", kind: "seller" },
    ],
  });
  expect([...sourceKinds(parsed.sources as SourceConfig[])]).toEqual([
    ["c", "official"],
    ["g", "reference"],
    ["h", "seller"],
    ["x", "seller"],
    ["d", "seller"],
    ["a", "aggregator"],
    ["other-demo", "aggregator"],
    ["my-demo", "seller"],
  ]);
});
