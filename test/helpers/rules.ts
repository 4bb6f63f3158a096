/** What the unit tests of the acceptance rules share: a seller of the registry and an ordinary quote. */
import type { Quote, RegistrySeller } from "../../src/schema/inputs.js";

/** A bank licensed by the CBE for the currencies, named by its id; `o` overrides. */
export const bank = (id: string, o: Partial<RegistrySeller> = {}): RegistrySeller => ({
  id,
  name: id,
  nameAr: null,
  kind: "bank",
  licensedBy: "CBE",
  categories: ["currencies"],
  ...o,
});

/** Seller a's quote of USD-EGP from source s1, 47.5 / 47.6 at 10:00 UTC on 2026-11-19; `o` overrides. */
export const usdQuote = (o: Partial<Quote> = {}): Quote => ({
  source: "s1",
  seller: "a",
  asset: "USD-EGP",
  buy: 47.5,
  sell: 47.6,
  observedAt: "2026-11-19T10:00:00Z",
  ...o,
});
