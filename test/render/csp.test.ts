/**
 * The pages' policy on both homes (issue 42 item 7): every HTML page carries a
 * `<meta http-equiv="Content-Security-Policy">` (the mirror sends no headers), which is the
 * primary's header without frame-ancestors (CSP Level 3 §3.3: a meta element cannot deliver it),
 * derived from the one definition (src/core/csp.ts), so the two cannot drift. That the pages work
 * under the meta alone, in a browser: test/browser/csp.test.ts.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { HEADER_ONLY_DIRECTIVES, PAGE_CSP_META, metaPolicy } from "../../src/core/csp.js";
import { PAGE_CSP } from "../../src/edge/headers.js";
import { handle } from "../../src/edge/handler.js";
import { builtSite, depsFor } from "../helpers/site.js";

/** A policy's directives by name (CSP Level 3 §2.2.1 parsing, enough for ours: no duplicates). */
const directives = (policy: string) =>
  policy
    .split(";")
    .map((d) => d.trim())
    .filter(Boolean)
    .map((d) => d.split(/\s+/));

/** The header's policy with the named directives left out, written as the header writes it. */
const without = (policy: string, names: readonly string[]) =>
  directives(policy)
    .filter(([n]) => !names.includes(n!))
    .map((d) => d.join(" "))
    .join("; ");

/** Decodes the entities the pages' template writes in an attribute (src/render/pages/html.ts). */
const attribute = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

describe("metaPolicy: what a meta element may deliver of a policy", () => {
  // [policy's directives, the meta's policy]
  const cases: Array<[string[][], string]> = [
    [
      [
        ["default-src", "'none'"],
        ["frame-ancestors", "'none'"],
      ],
      "default-src 'none'",
    ],
    [
      [
        ["frame-ancestors", "'self'"],
        ["script-src", "'self'"],
        ["report-uri", "/csp"],
      ],
      "script-src 'self'",
    ],
    [[["sandbox"], ["img-src", "data:", "'self'"]], "img-src data: 'self'"],
    [
      [
        ["default-src", "'none'"],
        ["style-src", "'unsafe-inline'"],
      ],
      "default-src 'none'; style-src 'unsafe-inline'",
    ],
  ];
  test.each(cases)("%j → %s", (policy, meta) => {
    expect(metaPolicy(policy)).toBe(meta);
  });

  test("the pages' meta policy is the header's without frame-ancestors, and the header keeps it", () => {
    expect(directives(PAGE_CSP).map(([n]) => n)).toContain("frame-ancestors");
    expect(PAGE_CSP_META).toBe(without(PAGE_CSP, ["frame-ancestors"]));
    // Nothing else of the header is header-only: the meta is identical in effect otherwise.
    expect(directives(PAGE_CSP).filter(([n]) => HEADER_ONLY_DIRECTIVES.has(n!) && n !== "frame-ancestors")).toEqual([]);
  });
});

describe("every page of a build carries the policy", () => {
  let out = "";
  let pages: string[] = [];
  beforeAll(async () => {
    ({ out } = await builtSite());
    const all = (await fs.readdir(out, { recursive: true })) as string[];
    pages = all.filter((f) => f.endsWith(".html")).sort();
  });

  test("one meta element, first after the charset, whose policy is the header's without frame-ancestors", async () => {
    expect(pages.length).toBeGreaterThan(20);
    const wrong: string[] = [];
    for (const p of pages) {
      const text = await fs.readFile(path.join(out, p), "utf8");
      const metas = [...text.matchAll(/<meta http-equiv="Content-Security-Policy" content="([^"]*)">/gi)];
      // A meta policy governs only what follows it (CSP Level 3 §3.3): it must come before the styles and links.
      const head = text.slice(text.indexOf("<head>"), text.indexOf("<title>"));
      const first = /^<head>\n<meta charset="utf-8">\n<meta http-equiv="Content-Security-Policy" /.test(head);
      if (metas.length !== 1 || !first || attribute(metas[0]![1]!) !== without(PAGE_CSP, ["frame-ancestors"]))
        wrong.push(p);
    }
    expect(wrong).toEqual([]);
  });

  test("the primary sends the header with a page, frame-ancestors and all, as netlify.toml does", async () => {
    const res = await handle(new Request("http://x/assets/us-dollar/"), depsFor(out));
    expect(res.status).toBe(200);
    const header = res.headers.get("content-security-policy")!;
    expect(header).toBe(PAGE_CSP);
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(await res.text())![1]!;
    expect(attribute(meta)).toBe(without(header, ["frame-ancestors"]));
    const toml = await fs.readFile("netlify.toml", "utf8");
    expect([...toml.matchAll(/^\s*Content-Security-Policy = "([^"]+)"/gm)].map((m) => m[1])).toEqual([header]);
  });
});
