/**
 * The glossary of the docs pages: each label the human pages show, and the API field it is. One
 * table, in English on /docs/ and in Arabic on /ar/docs/, built from the very words the pages use
 * (words.ts), so a label cannot change on the pages and not here.
 */
import type { PageLang } from "../../feed/paths.js";
import type { Verdict } from "../../schema/outputs.js";
import { html, join, type SafeHtml } from "./html.js";
import { shortVerdict, sideLabel, verdictLabel } from "./words.js";
import { GLOSSARY_WORDS } from "./glossary-words.js";

const VERDICTS: readonly Verdict[] = ["favorable", "ordinary", "weak", "mixed", "calibrating"];

export function glossary(lang: PageLang): SafeHtml {
  const w = GLOSSARY_WORDS[lang];
  const code = (c: string) => html`<code>${c}</code>`;
  const rows: Array<[string, SafeHtml, string]> = [
    [
      sideLabel("sell", lang),
      html`${code("directions.sell")}, ${code("sellers[].sell")}, ${code("series[].sellLo")}`,
      w.sell,
    ],
    [
      sideLabel("buy", lang),
      html`${code("directions.buy")}, ${code("sellers[].buy")}, ${code("series[].buyHi")}`,
      w.buy,
    ],
    [
      w.move,
      html`${code("directions.*.previous.change")}, ${code("changePct")}, ${code("sellers[].previous")}`,
      w.moveMeaning,
    ],
    ...(["sell", "buy"] as const).flatMap((side) =>
      VERDICTS.map((v): [string, SafeHtml, string] => [
        // The home page's few words for the two verdicts it shows, beside the full ones.
        v === "favorable" || v === "weak"
          ? `${verdictLabel(v, side, lang)} (${w.homePage}: ${shortVerdict(v, side, lang)})`
          : verdictLabel(v, side, lang),
        code(`directions.${side}.verdict = "${v}"`),
        w.verdict,
      ]),
    ),
    [w.official, html`${code("benchmark")}, ${code("series[].bench")}`, w.officialMeaning],
    [w.global, code("global"), w.globalMeaning],
  ];
  const body = rows.map(
    ([label, field, meaning]) =>
      html`<tr><th scope="row">${label}</th><td dir="ltr">${field}</td><td>${meaning}</td></tr>`,
  );
  return html`<div class="wrap"><table class="glossary"><thead><tr><th scope="col">${w.onPages}</th><th scope="col">${w.inApi}</th><th scope="col">${w.meaning}</th></tr></thead>
<tbody>${join(body, "\n")}</tbody></table></div>`;
}
