/**
 * The glossary of the docs pages: each label the human pages show, and the API field it is. One
 * table, in English on /docs/ and in Arabic on /ar/docs/, built from the very words the pages use
 * (words.ts), so a label cannot change on the pages and not here.
 */
import type { PageLang } from "../../feed/paths.js";
import type { Verdict } from "../../schema/outputs.js";
import { html, join, type SafeHtml } from "./html.js";
import { SIDE_WORDS, VERDICT_WORDS, shortVerdict } from "./words.js";

const VERDICTS: readonly Verdict[] = ["favorable", "ordinary", "weak", "mixed", "calibrating"];

export function glossary(lang: PageLang): SafeHtml {
  const ar = lang === "ar";
  const i = ar ? 1 : 0;
  const code = (c: string) => html`<code>${c}</code>`;
  const rows: Array<[string, SafeHtml, string]> = [
    [
      SIDE_WORDS.sell[i],
      html`${code("directions.sell")}, ${code("sellers[].sell")}, ${code("series[].sellLo")}`,
      ar
        ? "ما تطلبه الجهة حين تشتري منها؛ الأقل أفضل لك. البنوك تسميه «سعر البيع»."
        : "What a seller asks when you buy from it; lower is better for you. Banks head this column “selling price”.",
    ],
    [
      SIDE_WORDS.buy[i],
      html`${code("directions.buy")}, ${code("sellers[].buy")}, ${code("series[].buyHi")}`,
      ar
        ? "ما تدفعه لك الجهة حين تبيع لها؛ الأعلى أفضل لك. البنوك تسميه «سعر الشراء»."
        : "What a seller pays when you sell to it; higher is better for you. Banks head this column “buying price”.",
    ],
    [
      ar ? "▲▼ التغير" : "▲▼ the move",
      html`${code("directions.*.previous.change")}, ${code("changePct")}, ${code("sellers[].previous")}`,
      ar
        ? "الفرق عن الإغلاق السابق، بالقروش تحت الجنيه وبالجنيه فوقه."
        : "The difference from the previous close, in piastres under a pound, in pounds above.",
    ],
    ...(["sell", "buy"] as const).flatMap((side) =>
      VERDICTS.map((v): [string, SafeHtml, string] => [
        // The home page's few words for the two verdicts it shows, beside the full ones.
        v === "favorable" || v === "weak"
          ? `${VERDICT_WORDS[side][v][i]} (${ar ? "في الرئيسية" : "home page"}: ${shortVerdict(v, side, lang)})`
          : VERDICT_WORDS[side][v][i],
        code(`directions.${side}.verdict = "${v}"`),
        ar ? "وصف لليوم مقارنةً بالأيام السابقة، وليس توقعًا." : "Today against the days before; never a forecast.",
      ]),
    ),
    [
      ar ? "السعر الرسمي" : "Official rate",
      html`${code("benchmark")}, ${code("series[].bench")}`,
      ar ? "سعر البنك المركزي المصري." : "The Central Bank of Egypt's rate.",
    ],
    [
      ar ? "السعر العالمي" : "Global mid-market rate",
      code("global"),
      ar ? "سعر السوق العالمي، للمقارنة فقط." : "The world market's mid rate, for comparison only.",
    ],
  ];
  const body = rows.map(
    ([label, field, meaning]) =>
      html`<tr><th scope="row">${label}</th><td dir="ltr">${field}</td><td>${meaning}</td></tr>`,
  );
  return html`<div class="wrap"><table class="glossary"><thead><tr><th scope="col">${ar ? "على الصفحات" : "On the pages"}</th><th scope="col">${ar ? "في الواجهة البرمجية" : "In the API"}</th><th scope="col">${ar ? "المعنى" : "Meaning"}</th></tr></thead>
<tbody>${join(body, "\n")}</tbody></table></div>`;
}
