/**
 * src/jobs/ingest.ts refuses to send a contact that reaches nobody to real sites: `init`'s
 * placeholder, or any address at a domain reserved for examples (RFC 2606). It says which of the
 * two it is, what would have been sent where, and what to do; no request is made.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { PLACEHOLDER_CONTACT, runIngest, unreachableContact } from "../../src/jobs/ingest.js";
import { DataError } from "../../src/core/errors.js";
import { tempDir, writeDataset } from "../helpers/dataset.js";

describe("a contact that reaches nobody", () => {
  test.each([
    [PLACEHOLDER_CONTACT, `is still the placeholder "${PLACEHOLDER_CONTACT}" that init writes`],
    ["mailto:ops@acme.example", `"mailto:ops@acme.example" is at acme.example, a domain reserved for examples`],
    ["https://example.org/contact", `"https://example.org/contact" is at example.org, a domain reserved for examples`],
    ["ops@Mail.Example.COM.", `"ops@Mail.Example.COM." is at mail.example.com, a domain reserved for examples`],
  ])("%s", (contact, why) => {
    expect(unreachableContact(contact)).toContain(why);
  });

  test.each(["mailto:ops@price-feed.test", "https://rates.example-bank.com/", "mailto:me@notexample.com"])(
    "%s may be sent",
    (contact) => {
      expect(unreachableContact(contact)).toBeNull();
    },
  );

  test.each([
    [
      "mailto:ops@acme.example",
      /^"contact" "mailto:ops@acme\.example" is at acme\.example, a domain reserved for examples/,
    ],
    [
      PLACEHOLDER_CONTACT,
      /^"contact" is still the placeholder "mailto:operator@your-domain\.example" that init writes/,
    ],
  ])("ingest, dry or not, refuses %s before any request, saying what to do", async (contact, said) => {
    const data = await writeDataset(await tempDir(), { quotes: [], official: [], global: [] });
    const sourcesFile = path.join(data, "sources.json");
    const site = (id: string) => ({
      id,
      name: id,
      adapter: "global-rates",
      urls: [`http://127.0.0.1:9/${id}`],
      base: "usd",
      assets: [{ asset: "USD-EGP", currency: "usd" }],
    });
    await fs.writeFile(sourcesFile, JSON.stringify({ contact, sources: [site("alpha-site"), site("beta-site")] }));
    let requests = 0;
    const fetch = (() => {
      requests++;
      throw new Error("no request is made");
    }) as typeof globalThis.fetch;
    for (const dryRun of [false, true]) {
      const e = await runIngest({ dataDir: data, nowMs: Date.parse("2026-11-19T12:00:00Z"), fetch, dryRun }).catch(
        (x: unknown) => x,
      );
      expect(e).toBeInstanceOf(DataError);
      const { reason, hint } = e as DataError;
      expect(reason).toMatch(said);
      expect(reason).toContain(
        "2 enabled sources (alpha-site, beta-site) would send it to real sites in the User-Agent of every request",
      );
      expect(hint).toBe(
        `set "contact" in ${sourcesFile} to a URL or an e-mail address of your own, where the sites can reach you, then run ingest again (docs/operating.md "Configuring sources")`,
      );
    }
    expect(requests).toBe(0);
  });
});
