/**
 * The registry's names are made once per registry (src/ingest/adapters/types.ts registryNamesOf): an
 * ingest run gives every source one registry, and init's aggregator has a source per currency.
 */
import { describe, expect, test } from "vitest";
import { registryNamesOf, type AdapterContext } from "../../src/ingest/adapters/types.js";
import { registry } from "../helpers/dataset.js";

const ctx = (r: AdapterContext["registry"]) => ({ registry: r }) as AdapterContext;

describe("registryNamesOf", () => {
  test("one registry, one set of names, whichever source asks", () => {
    const a = registryNamesOf(ctx(registry));
    expect(a?.ids.has("alpha")).toBe(true);
    expect(registryNamesOf(ctx(registry))).toBe(a);
  });

  test("another registry (the next run's, read again) gets its own names", () => {
    const edited = registry.map((s) => (s.id === "alpha" ? { ...s, aliases: ["Alpha Bank of Egypt"] } : s));
    const b = registryNamesOf(ctx(edited));
    expect(b).not.toBe(registryNamesOf(ctx(registry)));
    expect(b?.from.size).toBeGreaterThan(registryNamesOf(ctx(registry))!.from.size);
    expect(registryNamesOf(ctx(undefined))).toBeUndefined();
  });
});
