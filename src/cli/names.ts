/**
 * `price-feed names "…"`: how a seller's name folds and which seller of the registry it resolves to
 * (src/ingest/document/seller-names.ts explainSeller), or none and the registry's nearest keys, so that the
 * operator who sees a name in sources.json's `unknownNames` can add it as an alias in one line
 * (docs/operating.md "How a seller's name is matched"). It reads the registry only; it writes nothing.
 */
import type { Command } from "commander";
import type { SellerNames, SellerResolution } from "../ingest/document/names.js";
import type { RegistrySeller } from "../schema/inputs.js";

/** A name as printed: in quotes, escaped as JSON (a control or bidi character shows as \u…, never acts). */
const q = (s: string) =>
  JSON.stringify(s).replace(
    /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );

/** What one name does, as lines: its folds, its key, the seller or why none, and what to do. */
export function namesText(
  name: string,
  r: SellerResolution,
  names: SellerNames,
  registry: readonly RegistrySeller[],
  near: ReadonlyArray<{ key: string; ids: readonly string[]; distance: number }>,
  file: string,
): string[] {
  const label = (id: string) => {
    const s = registry.find((x) => x.id === id);
    return s ? `${id} (${s.name})` : id;
  };
  const from = (key: string) => (names.from.get(key) ?? []).map(q).join(", ");
  const lines = [q(name)];
  if (r.fold.steps.length) lines.push(`  folds: ${r.fold.steps.map((s) => `${s.rule} ${q(s.result)}`).join(" → ")}`);
  else lines.push(`  folds: none (longer than a name: never looked up)`);
  lines.push(`  key: ${q(r.fold.key)}`);
  if (r.parts)
    lines.push(
      `  parts: ${r.parts.map((p) => `${q(p.part)} → ${p.ids.length ? p.ids.join(" and ") : "no seller"}`).join("; ")}`,
    );
  if ("seller" in r.result) {
    const how =
      r.via === "key"
        ? `the key of ${from(r.fold.key)}`
        : r.via === "two parts"
          ? "its two parts, each a name of it,"
          : r.via === "registry id"
            ? "its registry id"
            : "the source's sellers map";
    lines.push(`  seller: ${label(r.result.seller)}, through ${how} in ${file}`);
    return lines;
  }
  if ("ambiguous" in r.result) {
    lines.push(
      `  seller: none: the name could be ${r.result.ambiguous.map(label).join(" or ")}, and a choice between banks is never made`,
    );
    const bracketed = r.fold.bracketed.length > 0 && (names.keys.get(r.fold.key)?.length ?? 0) === 1;
    lines.push(
      bracketed
        ? `  to fix: the name and its bracketed part name different sellers; map the page's name in the source's "sellers" to the one it means`
        : `  to fix: make their names or aliases in ${file} differ, or map the page's name in the source's "sellers" to the one it means`,
    );
    return lines;
  }
  lines.push("  seller: none (a name the registry does not give is never a seller: docs/methodology.md §2.1, test 1)");
  if (near.length)
    lines.push(
      `  nearest keys: ${near.map((n) => `${q(n.key)} (${n.ids.join(", ")}; from ${from(n.key)}; ${n.distance} apart)`).join("; ")}`,
    );
  const target = near[0]?.ids.length === 1 ? near[0].ids[0]! : "<seller id>";
  lines.push(
    `  to make it a seller: if it is ${target === "<seller id>" ? "a bank of the registry" : target}, add ${q(name)} to that seller's "aliases" in ${file}; if it is a bank the registry lacks, add the bank (docs/operating.md)`,
  );
  return lines;
}

export function namesCommand(program: Command): void {
  program
    .command("names")
    .description(
      "show how each seller name folds and which seller of the registry it resolves to, or none and the nearest keys (an alias to add is one line in sellers.json)",
    )
    .argument("<name...>", "seller names as a page writes them (quote each)")
    .option("--data <dir>", "the data folder, whose sellers.json is read", "data")
    .action(async (given: string[], o: { data: string }) => {
      const { readJson } = await import("../io/json-file.js");
      const { dataPaths } = await import("../core/data-layout.js");
      const { Registry } = await import("../schema/inputs.js");
      const { explainSeller, nearestSellerKeys, sellerNamesOf } = await import("../ingest/document/names.js");
      const file = dataPaths(o.data).registry;
      const registry = await readJson(file, Registry, o.data);
      const names = sellerNamesOf(registry);
      for (const [i, name] of given.entries()) {
        const r = explainSeller(name, names);
        const near = "seller" in r.result || !r.fold.key ? [] : nearestSellerKeys(r.fold.key, names);
        if (i > 0) console.log("");
        for (const line of namesText(name, r, names, registry, near, file)) console.log(line);
      }
    });
}
