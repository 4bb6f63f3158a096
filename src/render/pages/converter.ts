/**
 * What an amount costs, without script: a small table of common amounts at the best price on each
 * side and at the central bank's official rate, worked out when the page is built. Each total is
 * the amount times the price shown on the page, rounded to the asset's decimals as every price is
 * (docs/methodology.md §3.1). Where script runs, amount-script.ts adds a field for any amount above
 * the table, from the prices its heads carry (`data-price`) and the words of a <template> here.
 */
import type { Asset } from "../../schema/outputs.js";
import type { PageLang } from "../../feed/paths.js";
import { roundHalfAway } from "../../core/round.js";
import { count, price } from "./format.js";
import { html, nameText, type SafeHtml } from "./html.js";
import { CONVERTER_WORDS } from "./converter-words.js";
import { sideLabel } from "./words.js";

/** Amounts people ask about, by the asset's unit: grams of gold, coins, or units of a currency. */
const AMOUNTS: Record<string, readonly number[]> = { g: [1, 5, 10], coin: [1, 2, 5] };
const CURRENCY_AMOUNTS = [100, 500, 1000, 5000] as const;

export const amountsOf = (a: Pick<Asset, "unit">): readonly number[] =>
  AMOUNTS[a.unit.split("/")[1] ?? ""] ?? CURRENCY_AMOUNTS;

/** The official mid of the asset's own business date, as its chart draws it; null on a day without one. */
export function officialMid(a: Pick<Asset, "series" | "asOf">): number | null {
  const last = a.series.at(-1);
  return last && last.date === a.asOf ? last.bench : null;
}

/** "500 USD", "10 g", "2 coins" / "500 دولار أمريكي", "10 جرام", "2 قطعة". */
function amountWords(a: Pick<Asset, "unit" | "nameAr">, n: number, lang: PageLang): string {
  const base = a.unit.split("/")[1] ?? a.unit;
  const u = CONVERTER_WORDS[lang].amountUnits;
  const unit = base === "g" ? u.g : base === "coin" ? (n === 1 ? u.coin : u.coins) : nameText(lang, base, a.nameAr);
  return `${count(n, lang)} ${unit}`;
}

/** The total of an amount at a price, or null when there is no price. */
export const totalOf = (n: number, v: number | null | undefined, decimals: number): number | null =>
  v === null || v === undefined ? null : roundHalfAway(n * v, decimals);

/**
 * The decimals a total needs: a price of 2 decimals times 100 is whole pounds, so "4,777" rather
 * than "4,777.00" (the total is exact either way; the zeros only widened a phone's table).
 */
export function totalDecimals(n: number, decimals: number): number {
  let zeros = 0;
  for (let m = n; m % 10 === 0 && m > 0; m /= 10) zeros++;
  return Math.max(0, decimals - zeros);
}

export function converter(a: Asset, lang: PageLang): SafeHtml | "" {
  const w = CONVERTER_WORDS[lang];
  const official = officialMid(a);
  const reference = a.market === "reference";
  const columns: Array<[string, number | null | undefined]> = reference
    ? [[w.atReference, a.global?.value ?? a.series.at(-1)?.bench]]
    : [
        [sideLabel("sell", lang), a.directions.sell.best?.value],
        [sideLabel("buy", lang), a.directions.buy.best?.value],
      ];
  if (!reference && official !== null) columns.push([w.official, official]);
  if (columns.every(([, v]) => v === null || v === undefined)) return "";
  const head = html`<tr><th scope="col">${w.amount}</th>${columns.map(([label, v]) => html`<th scope="col" class="n" data-price="${v ?? ""}">${label}</th>`)}</tr>`;
  const total = (n: number, v: number | null | undefined) =>
    html`<td class="n">${price(totalOf(n, v, a.decimals), totalDecimals(n, a.decimals), lang)}</td>`;
  const rows = amountsOf(a).map(
    (n) => html`<tr><th scope="row">${amountWords(a, n, lang)}</th>${columns.map(([, v]) => total(n, v))}</tr>`,
  );
  const caption = w.caption(official !== null, a.kind === "metal");
  return html`<section aria-labelledby="convert-h">
<h2 id="convert-h">${w.title}</h2>
${amountField(a, columns, lang)}
<table class="convert" data-decimals="${a.decimals}"><caption>${caption}</caption><thead>${head}</thead><tbody>${rows}</tbody></table>
</section>`;
}

/** What the amount is counted in, for the field's label: "USD", "grams", "coins" / "دولار أمريكي", "جرام", "قطعة". */
function unitOf(a: Pick<Asset, "unit" | "nameAr">, lang: PageLang): string {
  const base = a.unit.split("/")[1] ?? a.unit;
  const u = CONVERTER_WORDS[lang].fieldUnits;
  return base === "g" ? u.g : base === "coin" ? u.coin : nameText(lang, base, a.nameAr);
}

/**
 * The field for any amount, inert until the script (amount-script.ts) puts it in the page: its
 * label, then one total per column of the table, in EGP. A <template> is neither shown nor read
 * out without script.
 */
function amountField(a: Asset, columns: ReadonlyArray<[string, unknown]>, lang: PageLang): SafeHtml {
  const w = CONVERTER_WORDS[lang];
  return html`<template id="amount-tpl"><div class="amount"><label for="amount-in">${w.anyAmount(unitOf(a, lang))}</label>
<input id="amount-in" type="text" inputmode="decimal" autocomplete="off" spellcheck="false" dir="ltr" placeholder="${amountsOf(a)[0]!}" aria-describedby="amount-out">
<ul id="amount-out" aria-live="polite">${columns.map(([label]) => html`<li>${label}: <output>—</output> ${w.egp}</li>`)}</ul></div></template>`;
}
