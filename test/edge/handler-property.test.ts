import { beforeAll, describe, expect, test } from "vitest";
import fc from "fast-check";
import { handle } from "../../src/edge/handler.js";
import { Problem } from "../../src/schema/documents.js";
import { builtSite, depsFor } from "../helpers/site.js";

let out: string;
beforeAll(async () => {
  ({ out } = await builtSite());
});

const segment = fc.oneof(
  fc.constantFrom(
    "api",
    "v1",
    "feed.json",
    "feed",
    "asset",
    "category",
    "..",
    ".",
    "%2e%2e",
    "%2f",
    "readyz",
    "docs",
    "_manifest.json",
    "",
  ),
  fc.string({ maxLength: 12 }),
  fc.webSegment(),
);
const path = fc.array(segment, { maxLength: 6 }).map((s) => `/${s.join("/")}`);
const param = fc.tuple(
  fc.oneof(fc.constantFrom("asset", "category", "x"), fc.string({ maxLength: 8 })),
  fc.oneof(
    fc.constantFrom("us-dollar", "metals", "USD-EGP", "", ","),
    fc.string({ maxLength: 20 }),
    fc.string({ unit: "binary", maxLength: 8 }),
  ),
);
const query = fc
  .array(param, { maxLength: 10 })
  .map((ps) => (ps.length ? `?${new URLSearchParams(ps).toString()}` : ""));
const header = fc.tuple(
  fc.constantFrom("if-none-match", "if-modified-since", "x-contact", "x-forwarded-for", "origin", "accept"),
  fc.string({ maxLength: 40 }).map((s) => s.replace(/[^\x20-\x7e]/g, "")),
);
const method = fc.constantFrom("GET", "HEAD", "OPTIONS", "POST", "PUT", "DELETE", "PATCH");

describe("random requests", () => {
  test("never a 5xx; every 4xx is a valid problem+json, or a page's address's page that says it has none", async () => {
    await fc.assert(
      fc.asyncProperty(method, path, query, fc.array(header, { maxLength: 4 }), async (m, p, q, hs) => {
        let request: Request;
        try {
          request = new Request(`https://feed.example${p}${q}`, { method: m, headers: hs });
        } catch {
          return; // not a request a client could send
        }
        const res = await handle(request, depsFor(out));
        expect(res.status).toBeLessThan(500);
        expect(res.headers.get("access-control-allow-origin")).toBe("*");
        // A page's address with no page: the page that says so (src/edge/pages.ts), never under /api/.
        if (res.headers.get("content-type") === "text/html; charset=utf-8" && res.status >= 400) {
          expect(new URL(request.url).pathname).not.toMatch(/^\/api(\/|$)|^\/readyz$/);
          expect([400, 404]).toContain(res.status);
          if (m !== "HEAD")
            expect(await res.text()).toMatch(/<h1>(No page at this address|لا توجد صفحة بهذا العنوان)<\/h1>/);
        } else if (res.status >= 400 && m !== "HEAD") {
          expect(res.headers.get("content-type")).toBe("application/problem+json");
          const body = Problem.parse(await res.json());
          expect(body.status).toBe(res.status);
        }
      }),
      { numRuns: 400, seed: 20261121 },
    );
  });
});
