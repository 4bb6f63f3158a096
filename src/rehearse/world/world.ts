/**
 * The rehearsal's internet: every enabled network source of a sources file answered on loopback in
 * its own format, with the world market's prices at the virtual instant the driver sets, and the
 * network's faults of the hour.
 *
 * Each real host (www.banquemisr.com, egrates.com, dahabmasr.com, www.cbe.org.eg, …) gets an address
 * of its own on the loopback network (127.0.0.2, 127.0.0.3, …; Linux routes all of 127.0.0.0/8 to
 * the machine): ingest asks one host at a time and several hosts at once (src/jobs/ingest-schedule.ts
 * hostLanes), so one address for every source would ask all of them in one lane. Where the system
 * has only 127.0.0.1, every host is served there under a path of its own (`/<host>/…`), one lane.
 *
 * Before serving a source the world writes its body at a check instant and reads it with the real
 * reader (src/ingest/adapters): a source whose body does not read back as the world's own account
 * is not served, with the reason (`unserved`).
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { dataPaths } from "../../core/data-layout.js";
import { readJson } from "../../io/json-file.js";
import { sellerNamesOf } from "../../ingest/document/names.js";
import {
  Calendar,
  Catalog,
  Registry,
  Sources,
  type GlobalRate,
  type OfficialRate,
  type Quote,
} from "../../schema/inputs.js";
import { uniform } from "../../sample/random.js";
import { WorldMarket } from "./market.js";
import { CHALLENGE, portsOf, serve } from "./net.js";
import { CHECK_MS, planSources, renderDocument, urlsOf, usesNetwork, type Plan } from "./plan.js";
import { documentFaults, expectedQuotes, publish, unknownNames, type DocumentPlan } from "./publish.js";
import {
  CBE_FORM_ACTION,
  cbeCurrencies,
  cbePage,
  cbeWorkbook,
  expectedGlobal,
  expectedOfficial,
  globalDocument,
} from "./official.js";
import {
  NET_FAULT_KINDS,
  NETWORK_FAULTS,
  type NetFault,
  type NetFaultKind,
  type SourcesFile,
  type WorldOptions,
} from "./types.js";

/** What a source's reader should read in the current hour: the world's own account of its body. */
export interface Expected {
  quotes: Quote[];
  official: OfficialRate[];
  global: GlobalRate[];
  unknownSellers: string[];
}

export interface World {
  /** The world's index, http://127.0.0.1:PORT (which host is where, which sources are served). */
  readonly url: string;
  /** The copy's sources file with every enabled network source's URL(s) pointed at the world. */
  pointSources(file: SourcesFile): SourcesFile;
  /** What every request answers until the next call: the virtual instant and this hour's faults. */
  setHour(nowMs: number, faults: readonly NetFault[]): void;
  /** Which sources the world can serve, and which it cannot (and why), for the summary. */
  readonly served: readonly string[];
  readonly unserved: ReadonlyArray<{ id: string; why: string }>;
  /** The served sources a fault kind can hit (a value fault only where it means something: per ounce on gold). */
  faultTargets(kind: NetFaultKind): string[];
  /** What the source's reader should read this hour; null when this hour's faults make it fail. */
  expected(sourceId: string): Promise<Expected | null>;
  /** Requests answered since the world started, by source id (a token or form step counts). */
  readonly requests: ReadonlyMap<string, number>;
  close(): Promise<void>;
}

const CONTENT: Record<DocumentPlan["format"], string> = {
  html: "text/html; charset=utf-8",
  json: "application/json; charset=utf-8",
  csv: "text/csv; charset=utf-8",
  xml: "application/xml; charset=utf-8",
};
const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** A site: one real host, where the world answers it. */
interface Site {
  host: string;
  /** Where its URLs now point: http://127.0.0.N:PORT, or http://127.0.0.1:PORT/<host> as a fallback. */
  origin: string;
  /** The path prefix requests carry in the fallback ("" otherwise). */
  prefix: string;
}

interface Route {
  source: string;
  step: "document" | "token" | "cbe-page" | "cbe-form" | "global";
}

const hex = (key: string) =>
  Array.from({ length: 4 }, (_, i) =>
    Math.floor(uniform(`${key}#${i}`) * 0x10000)
      .toString(16)
      .padStart(4, "0"),
  ).join("");

export async function startWorld(o: WorldOptions): Promise<World> {
  const files = dataPaths(o.dataDir);
  const [catalog, registry, calendar] = await Promise.all([
    readJson(files.catalog, Catalog, o.dataDir),
    readJson(files.registry, Registry, o.dataDir),
    readJson(files.calendar, Calendar, o.dataDir),
  ]);
  const market = new WorldMarket(o.seed, { catalog, registry, calendar });
  const names = sellerNamesOf(registry);
  const known = new Set(catalog.map((a) => a.id));
  const parsed = Sources.parse(o.sources);

  const { plans, unserved } = await planSources(parsed, market, names, known);

  // The sites: every host an enabled network source names, served or not (an unserved source's
  // requests reach the world too, and are answered 404 with the reason: never the real site).
  const hosts = [
    ...new Set(
      parsed.sources.filter((s) => s.enabled && usesNetwork(s)).flatMap((s) => urlsOf(s).map((u) => new URL(u).host)),
    ),
  ].sort();
  const ports = portsOf(o.seed);
  const index = await serve((req, res) => void answer(null, req, res), "127.0.0.1", ports);
  if (index === null) throw new Error("the rehearsal's world cannot listen on 127.0.0.1");
  const indexUrl = `http://127.0.0.1:${index.port}`;
  const servers: Server[] = [index.server];
  const sites = new Map<string, Site>();
  let fallback = o.oneAddress === true;
  for (const [i, host] of hosts.entries()) {
    const address = `127.0.0.${i + 2}`;
    // Every host at the index's port when it is free there: one port to read in the sources file.
    const site =
      fallback || i + 2 >= 255
        ? null
        : await serve((req, res) => void answer(host, req, res), address, [index.port, ...ports]);
    if (site) {
      servers.push(site.server);
      sites.set(host, { host, origin: `http://${address}:${site.port}`, prefix: "" });
    } else {
      fallback = true;
      sites.set(host, { host, origin: `${indexUrl}/${host}`, prefix: `/${host}` });
    }
  }

  // Routes: per host, `METHOD path?query` → the source and the step of its exchange.
  const routes = new Map<string, Map<string, Route>>();
  const route = (url: string, method: string, r: Route) => {
    const u = new URL(url);
    const table = routes.get(u.host) ?? new Map<string, Route>();
    routes.set(u.host, table);
    const key = `${method} ${u.pathname}${u.search}`;
    const taken = table.get(key);
    if (taken && taken.source !== r.source) return `it asks ${method} ${url}, as ${taken.source} does`;
    table.set(key, r);
    return null;
  };
  for (const p of [...plans.values()]) {
    const steps: Array<[string, string, Route["step"]]> =
      p.type === "document"
        ? [
            [p.cfg.url!, p.cfg.method ?? "GET", "document"],
            ...(p.cfg.token
              ? [[p.cfg.token.url, p.cfg.token.method ?? "GET", "token"] as [string, string, Route["step"]]]
              : []),
          ]
        : p.type === "cbe"
          ? [
              [p.cfg.pageUrl, "GET", "cbe-page"],
              [new URL(CBE_FORM_ACTION, p.cfg.pageUrl).href, "POST", "cbe-form"],
            ]
          : p.cfg.urls.map((u): [string, string, Route["step"]] => [u, "GET", "global"]);
    for (const [url, method, step] of steps) {
      const clash = route(url, method, { source: p.id, step });
      if (clash !== null) {
        plans.delete(p.id);
        unserved.push({ id: p.id, why: clash });
        break;
      }
    }
  }
  const unservedWhy = new Map(unserved.map((u) => [u.id, u.why]));

  // The hour: its instant, its faults, and what it has handed out (nonces, sessions) and rendered.
  let nowMs = CHECK_MS;
  let faultsOf = new Map<string, Set<NetFaultKind>>();
  let issued = new Map<string, Set<string>>();
  /** Requests per source this hour: a source's requests come one after another, so its tokens are the same every run. */
  let counters = new Map<string, number>();
  let bodies = new Map<string, { bytes: Buffer; type: string }>();
  const requests = new Map<string, number>();
  const held = new Set<ServerResponse>();

  const targets = (kind: NetFaultKind): string[] =>
    [...plans.values()]
      .filter((p) => {
        if (NETWORK_FAULTS.has(kind)) return true;
        if (kind === "reference-down") return p.type === "global";
        if (p.type === "global") return kind === "stale-stamp";
        if (p.type === "document") return documentFaults(p.doc, market).includes(kind);
        return false;
      })
      .map((p) => p.id);
  const faultTargets = new Map(NET_FAULT_KINDS.map((k) => [k, targets(k)]));

  const valueFaults = (id: string) => {
    const f = faultsOf.get(id) ?? new Set<NetFaultKind>();
    return new Set([...f].filter((k) => !NETWORK_FAULTS.has(k) && k !== "reference-down"));
  };

  /** The body of a document source this hour (rendered once an hour). */
  const documentBody = (p: Extract<Plan, { type: "document" }>) => {
    let b = bodies.get(p.id);
    if (!b) {
      const pub = publish(p.doc, market, names, nowMs, valueFaults(p.id));
      const r = renderDocument(p.doc, pub, p.doc.dressed);
      b = { bytes: Buffer.from("why" in r ? r.why : r.body, "utf8"), type: CONTENT[p.doc.format] };
      bodies.set(p.id, b);
    }
    return b;
  };

  const send = (
    res: ServerResponse,
    status: number,
    type: string,
    body: string | Buffer,
    headers: Record<string, string | string[]> = {},
  ) => res.writeHead(status, { "content-type": type, "cache-control": "no-store", ...headers }).end(body);

  async function answer(siteHost: string | null, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", "http://world");
    let host = siteHost;
    let pathname = url.pathname;
    if (host === null) {
      // The index: the fallback's `/<host>/…`, or the world's own page.
      const first = pathname.split("/")[1] ?? "";
      const site = sites.get(decodeURIComponent(first));
      if (site && site.prefix !== "") {
        host = site.host;
        pathname = pathname.slice(site.prefix.length) || "/";
      } else
        return void send(
          res,
          200,
          "application/json; charset=utf-8",
          `${JSON.stringify({ served: [...plans.keys()], unserved, sites: Object.fromEntries([...sites].map(([h, s]) => [h, s.origin])) }, null, 2)}\n`,
        );
    }
    const method = req.method ?? "GET";
    const table = routes.get(host);
    const r = table?.get(`${method} ${pathname}${url.search}`) ?? table?.get(`${method} ${pathname}`);
    if (!r) {
      const who = parsed.sources.find((s) => urlsOf(s).some((u) => new URL(u).host === host && unservedWhy.has(s.id)));
      return void send(
        res,
        404,
        "text/plain; charset=utf-8",
        who ? `the rehearsal's world does not serve ${who.id}: ${unservedWhy.get(who.id)!}\n` : "not found\n",
      );
    }
    requests.set(r.source, (requests.get(r.source) ?? 0) + 1);
    const plan = plans.get(r.source)!;
    const f = faultsOf.get(r.source) ?? new Set<NetFaultKind>();
    if (f.has("outage") || (f.has("reference-down") && plan.type === "global")) return void req.socket.destroy();
    if (f.has("timeout")) {
      // Never answered: the reader's own timeout ends the request (and the world's close, the socket).
      held.add(res);
      res.on("close", () => held.delete(res));
      return;
    }
    if (f.has("rate-limited"))
      return void send(res, 429, "text/plain; charset=utf-8", "Too Many Requests\n", { "retry-after": "120" });
    if (f.has("unavailable"))
      return void send(res, 503, "text/plain; charset=utf-8", "Service Unavailable\n", { "retry-after": "1" });
    if (f.has("challenge")) return void send(res, 200, "text/html; charset=UTF-8", CHALLENGE);

    const n = counters.get(plan.id) ?? 0;
    counters.set(plan.id, n + 1);
    const key = `${o.seed}:${plan.id}:${nowMs}:${n}`;
    const cookieOf = (name: string) =>
      (req.headers.cookie ?? "")
        .split(";")
        .map((c) => c.trim())
        .find((c) => c.startsWith(`${name}=`))
        ?.slice(name.length + 1);
    const spend = (token: string | undefined, sid: string | undefined) => {
      const set = issued.get(plan.id);
      if (token === undefined || sid === undefined || !set?.has(`${token}|${sid}`)) return false;
      set.delete(`${token}|${sid}`);
      return true;
    };
    const issue = (token: string, sid: string) => {
      const set = issued.get(plan.id) ?? new Set<string>();
      issued.set(plan.id, set.add(`${token}|${sid}`));
    };

    if (r.step === "token" && plan.type === "document") {
      // A nonce for one use, with the session its cookie carries.
      const nonce = hex(`nonce:${key}`);
      const sid = hex(`sid:${key}`);
      issue(nonce, sid);
      return void send(
        res,
        200,
        "application/json; charset=utf-8",
        JSON.stringify({ nonce, exp: Math.floor(nowMs / 1000) + 600 }),
        {
          "set-cookie": `PHPSESSID=${sid}; path=/; HttpOnly`,
        },
      );
    }
    if (r.step === "document" && plan.type === "document") {
      const token = plan.cfg.token;
      if (token && !spend(req.headers[token.header.toLowerCase()] as string | undefined, cookieOf("PHPSESSID")))
        return void send(res, 403, "application/json; charset=utf-8", '{"error":"bad nonce"}');
      const b = documentBody(plan);
      return void send(res, 200, b.type, b.bytes);
    }
    if (r.step === "cbe-page" && plan.type === "cbe") {
      const token = hex(`token:${key}`);
      const sid = hex(`sid:${key}`);
      issue(token, sid);
      const site = sites.get(host)!;
      return void send(
        res,
        200,
        "text/html; charset=utf-8",
        cbePage(
          token,
          cbeCurrencies(plan.cfg, market).map((c) => c.name),
          `${site.prefix}${CBE_FORM_ACTION}`,
        ),
        { "set-cookie": [`ASP.NET_SessionId=${sid}; path=/; HttpOnly; SameSite=Lax`] },
      );
    }
    if (r.step === "cbe-form" && plan.type === "cbe") {
      const form = new URLSearchParams(body);
      if (!spend(form.get("__RequestVerificationToken") ?? undefined, cookieOf("ASP.NET_SessionId")))
        return void send(res, 400, "text/html; charset=utf-8", "<html><body><h1>Bad Request</h1></body></html>\n");
      const w = cbeWorkbook(plan.cfg, market, form, nowMs);
      if ("why" in w) return void send(res, 400, "text/plain; charset=utf-8", `${w.why}\n`);
      return void send(res, 200, XLSX, w.bytes, {
        "content-disposition": 'attachment; filename="HistoricalData.xlsx"',
      });
    }
    if (r.step === "global" && plan.type === "global") {
      const doc = globalDocument(plan.cfg, market, nowMs, f.has("stale-stamp"));
      return void send(res, 200, "application/json; charset=utf-8", JSON.stringify(doc));
    }
    send(res, 500, "text/plain; charset=utf-8", "the world has no answer for this step\n");
  }

  const origins = (u: string) => {
    const url = new URL(u);
    const site = sites.get(url.host);
    return site ? `${site.origin}${url.pathname}${url.search}` : u;
  };

  return {
    url: indexUrl,
    served: [...plans.keys()],
    unserved,
    requests,
    faultTargets: (kind) => [...(faultTargets.get(kind) ?? [])],
    pointSources(file) {
      const copy = JSON.parse(JSON.stringify(file)) as { sources: Array<Record<string, unknown>> };
      for (const s of copy.sources) {
        if (s["enabled"] === false) continue;
        for (const k of ["url", "pageUrl"]) if (typeof s[k] === "string" && /^https?:/.test(s[k])) s[k] = origins(s[k]);
        if (Array.isArray(s["urls"])) s["urls"] = (s["urls"] as string[]).map(origins);
        const token = s["token"] as Record<string, unknown> | undefined;
        if (token && typeof token["url"] === "string") s["token"] = { ...token, url: origins(token["url"]) };
      }
      return copy as unknown as SourcesFile;
    },
    setHour(ms, faults) {
      nowMs = ms;
      faultsOf = new Map();
      for (const f of faults)
        for (const id of f.source === "*" ? (faultTargets.get(f.kind) ?? []) : [f.source]) {
          if (!(faultTargets.get(f.kind) ?? []).includes(id)) continue;
          faultsOf.set(id, (faultsOf.get(id) ?? new Set()).add(f.kind));
        }
      issued = new Map();
      counters = new Map();
      bodies = new Map();
    },
    async expected(id) {
      const p = plans.get(id);
      if (!p) return null;
      const f = faultsOf.get(id) ?? new Set<NetFaultKind>();
      if ([...f].some((k) => NETWORK_FAULTS.has(k) || k === "reference-down")) return null;
      const none = { quotes: [], official: [], global: [], unknownSellers: [] };
      if (p.type === "cbe") return { ...none, official: expectedOfficial(p.cfg, market, nowMs) };
      if (p.type === "global")
        return {
          ...none,
          global: expectedGlobal(p.cfg, globalDocument(p.cfg, market, nowMs, f.has("stale-stamp")), nowMs),
        };
      const pub = publish(p.doc, market, names, nowMs, valueFaults(id));
      return { ...none, quotes: expectedQuotes(p.doc, pub, nowMs), unknownSellers: unknownNames(pub) };
    },
    close: async () => {
      for (const res of held) res.destroy();
      await Promise.all(servers.map((s) => new Promise<void>((r) => (s.close(() => r()), s.closeAllConnections()))));
    },
  };
}
