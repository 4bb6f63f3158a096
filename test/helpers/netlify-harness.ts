/**
 * Netlify's side of the edge function, for tests; run by Deno, the runtime Netlify runs edge
 * functions in (test/netlify/deno.test.ts starts it):
 *
 *   deno run --allow-net=127.0.0.1 --allow-read=SITE,BUNDLE --allow-env=VARS \
 *     netlify-harness.ts BUNDLE SITE ROUTE...
 *
 * It plays the CDN of a deploy: requests whose path matches a ROUTE (netlify.toml's
 * [[edge_functions]] paths, `*` matching anything) go to the bundle's default export with a
 * `context` like Netlify's (`ip` is the client's address, `next()` answers the published file);
 * every other path is a static file of the SITE folder. `Netlify.env.get` reads the process's
 * environment, which the test sets (and which --allow-env limits to the names it allows: reading
 * any other throws, so a new variable the adapter needs cannot go unnoticed). Once listening it
 * prints one line of JSON, `{"listening": PORT}`. Static answers carry `X-Harness: static`, so a
 * test can tell them from the function's.
 *
 * Not type-checked by Deno (deno run does not check); tsc checks it with the project, hence the
 * small local description of the part of `Deno` used here.
 */

interface DenoLike {
  args: string[];
  env: {
    get(name: string): string | undefined;
    has(name: string): boolean;
    set(name: string, value: string): void;
    delete(name: string): void;
    toObject(): Record<string, string>;
  };
  readFile(path: string): Promise<Uint8Array<ArrayBuffer>>;
  stat(path: string): Promise<{ isDirectory: boolean }>;
  serve(
    options: { hostname: string; port: number; onListen(addr: { port: number }): void },
    handler: (request: Request, info: { remoteAddr: { hostname: string } }) => Promise<Response>,
  ): unknown;
  exit(code: number): never;
}
type EdgeFunction = (
  request: Request,
  context: unknown,
) => Promise<Response | URL | undefined | void> | Response | URL | undefined | void;

const deno: DenoLike = (globalThis as unknown as { Deno: DenoLike }).Deno;
const [bundle = "", site = "", ...routes] = deno.args;
if (!bundle || !site || !routes.length) {
  console.error("usage: netlify-harness.ts BUNDLE SITE ROUTE...");
  deno.exit(2);
}

// Netlify's global, as the edge runtime provides it, set before the function's module runs.
(globalThis as unknown as { Netlify: unknown }).Netlify = {
  context: null,
  env: {
    get: (name: string) => deno.env.get(name),
    has: (name: string) => deno.env.has(name),
    set: (name: string, value: string) => deno.env.set(name, value),
    delete: (name: string) => deno.env.delete(name),
    toObject: () => deno.env.toObject(),
  },
};
const edge = (
  (await import(new URL(`file://${bundle.split("/").map(encodeURIComponent).join("/")}`).href)) as {
    default: EdgeFunction;
  }
).default;

const routeRes = routes.map((r) => new RegExp(`^${r.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replaceAll("*", ".*")}$`));
const TYPES: Record<string, string> = {
  json: "application/json; charset=utf-8",
  html: "text/html; charset=utf-8",
  txt: "text/plain; charset=utf-8",
  xml: "application/xml; charset=utf-8",
  csv: "text/csv; charset=utf-8",
  svg: "image/svg+xml",
  css: "text/css; charset=utf-8",
  // As Netlify serves them: the pages' scripts, the web app's manifest and its icons.
  js: "application/javascript; charset=utf-8",
  webmanifest: "application/manifest+json",
  png: "image/png",
};

const notFound = () =>
  new Response("Not Found", {
    status: 404,
    headers: { "Content-Type": "text/plain; charset=utf-8", "X-Harness": "static" },
  });

/** The CDN: the published file at the request's path (a folder's index.html), or 404. */
async function serveStatic(request: Request): Promise<Response> {
  let rel: string;
  try {
    rel = decodeURIComponent(new URL(request.url).pathname);
  } catch {
    return notFound();
  }
  const parts = rel.split("/").filter((p) => p !== "");
  if (parts.some((p) => p === "." || p === ".." || p.includes("\\") || p.includes("\0"))) return notFound();
  let file = [site, ...parts].join("/");
  try {
    if (rel.endsWith("/") || (await deno.stat(file)).isDirectory) file += "/index.html";
    const bytes = await deno.readFile(file);
    const type = TYPES[file.slice(file.lastIndexOf(".") + 1)] ?? "application/octet-stream";
    return new Response(request.method === "HEAD" ? null : bytes, {
      headers: { "Content-Type": type, "X-Harness": "static" },
    });
  } catch {
    return notFound();
  }
}

async function handler(request: Request, info: { remoteAddr: { hostname: string } }): Promise<Response> {
  const url = new URL(request.url);
  if (!routeRes.some((re) => re.test(url.pathname))) return serveStatic(request);
  const context = {
    ip: info.remoteAddr.hostname,
    url,
    requestId: crypto.randomUUID(),
    params: {},
    geo: {},
    site: { id: "harness", name: "harness", url: url.origin },
    server: { region: "local" },
    deploy: { context: "dev", id: "harness", published: false },
    account: { id: "harness" },
    log: (...data: unknown[]) => console.log(...data),
    json: (input: unknown) => Response.json(input),
    waitUntil: (p: Promise<unknown>) => void p.catch((e: unknown) => console.error("waitUntil:", e)),
    next: (r?: Request | object) => serveStatic(r instanceof Request ? r : request),
  };
  try {
    const answer = await edge(request, context);
    if (answer === undefined) return serveStatic(request);
    if (answer instanceof URL) return serveStatic(new Request(answer, request)); // a rewrite
    return answer;
  } catch (e) {
    console.error(`edge function threw: ${(e as Error).stack ?? String(e)}`);
    return new Response("edge function threw", { status: 502, headers: { "X-Harness": "error" } });
  }
}

deno.serve(
  { hostname: "127.0.0.1", port: 0, onListen: ({ port }) => console.log(JSON.stringify({ listening: port })) },
  handler,
);
