/**
 * The pages on a home that sends no headers (the mirror on GitHub Pages: docs/deployment.md "The
 * second home"), in Chromium: served as plain files under a path prefix, with no
 * Content-Security-Policy header, the policy comes from each page's own meta element
 * (src/core/csp.ts PAGE_CSP_META). The pages work under it (the asset page's script, a file of the
 * site, runs; nothing is refused), and it is in force (an inline script is refused).
 */
import { createServer, type Server } from "node:http";
import { existsSync, promises as fs } from "node:fs";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { chromium, type Browser } from "playwright-core";
import { builtSite } from "../helpers/site.js";

const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";
const PREFIX = "/price-feed";
const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".png": "image/png",
};

let browser: Browser;
let server: Server;
let base = "";

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(`No Chromium at ${CHROMIUM}: install Debian's chromium or set CHROMIUM_PATH.`);
  const { out } = await builtSite();
  // A static host: the file under the prefix, its type, and no other header (as GitHub Pages sends no CSP).
  server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    let rel = decodeURIComponent(url.pathname.slice(PREFIX.length));
    if (rel.endsWith("/")) rel += "index.html";
    const file = path.join(out, path.normalize(rel));
    if (!url.pathname.startsWith(`${PREFIX}/`) || !file.startsWith(out)) return void res.writeHead(404).end();
    fs.readFile(file).then(
      (body) =>
        res.writeHead(200, { "Content-Type": TYPES[path.extname(file)] ?? "application/octet-stream" }).end(body),
      () => res.writeHead(404).end(),
    );
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}${PREFIX}`;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu"] });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((r) => server?.close(r));
});

describe("the pages on a home that sends no headers", () => {
  test.each(["/assets/us-dollar/", "/ar/assets/us-dollar/", "/", "/docs/", "/days/"])(
    "%s works under its meta policy alone, which refuses an inline script",
    async (p) => {
      const context = await browser.newContext();
      const page = await context.newPage();
      const problems: string[] = [];
      page.on("console", (m) => m.type() === "error" && problems.push(`console: ${m.text()}`));
      page.on("pageerror", (e) => problems.push(`exception: ${e.message}`));
      page.on("requestfailed", (r) => problems.push(`failed: ${r.url()}`));
      await page.addInitScript(() => {
        const w = window as unknown as { violations: string[] };
        w.violations = [];
        document.addEventListener("securitypolicyviolation", (e) => w.violations.push(e.effectiveDirective));
      });
      const res = await page.goto(base + p);
      expect(res?.status()).toBe(200);
      expect(res?.headers()["content-security-policy"]).toBeUndefined();
      if (p.includes("/assets/")) {
        // The script ran (a file of the site, script-src 'self'): the field is there and answers.
        await page.locator("#amount-in").fill("100");
        const outputs = await page.$$eval("#amount-out output", (os) => os.map((o) => o.textContent!.trim()));
        expect(outputs.length).toBeGreaterThan(0);
        expect(outputs.some((o) => /\d/.test(o))).toBe(true);
      }
      expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual([]);
      expect(problems).toEqual([]);
      // The policy is in force: an inline script is refused and reported.
      const ran = await page.evaluate(async () => {
        const w = window as unknown as { violations: string[]; inlineRan?: boolean };
        const s = document.createElement("script");
        s.textContent = "window.inlineRan = true;";
        document.body.append(s);
        await new Promise((r) => setTimeout(r, 0));
        return { ran: w.inlineRan === true, violations: w.violations };
      });
      expect(ran).toEqual({ ran: false, violations: ["script-src-elem"] });
      await context.close();
    },
    60_000,
  );
});
