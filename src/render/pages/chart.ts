/**
 * The 30-day chart of an asset, drawn as inline SVG at build time: the band of prices sellers ask
 * (sellLo..sellHi, its lowest edge drawn strong: the day's best when you buy), the hatched band of
 * prices they pay (buyLo..buyHi, its highest edge strong), the central bank's official mid (dashed),
 * or for a reference asset the reference price's daily range. Days sit at their calendar position.
 *
 * Two drawings of each chart are written, one for phones and one for wider screens, and CSS shows
 * one: an SVG scales its text with its width, so one drawing cannot have readable text at 360 px and
 * at 1280 px. Each has axes with dates and prices, gridlines, the unit, and a <desc>; the legend
 * (chartLegend) names exactly the layers drawn, and chartTable gives the numbers as a table.
 */
import type { Asset, SeriesEntry } from "../../schema/outputs.js";
import type { PageLang } from "../../feed/paths.js";
import { html, join, type SafeHtml } from "./html.js";
import { fullDate, price, shortDate } from "./format.js";
import { unitWords } from "./words.js";
import { CHART_WORDS } from "./chart-words.js";
import { addDays } from "../../core/cairo.js";

const SIZES = {
  wide: { w: 760, h: 330, font: 14, maxLabels: 7 },
  narrow: { w: 340, h: 250, font: 12.5, maxLabels: 3 },
} as const;
type Size = keyof typeof SIZES;
type Layer = "sell" | "buy" | "ref" | "bench";
type Key = keyof SeriesEntry;
type Pt = [number, number];
const DAY_MS = 86_400_000;
/**
 * A coordinate rounded to a tenth, as text: the text of `Math.round(n * 10) / 10`, made from integers,
 * which V8 prints far faster than a fraction (docs/performance.md); test/render/chart.test.ts holds it
 * to the printed fraction.
 */
export function r1(n: number): string {
  const tenths = Math.round(n * 10);
  const abs = tenths < 0 ? -tenths : tenths;
  const r = abs % 10;
  const w = (abs - r) / 10;
  const text = r === 0 ? `${w}` : `${w}.${r}`;
  return tenths < 0 ? `-${text}` : text;
}
function pts(p: Pt[]): string {
  let out = "";
  for (let k = 0; k < p.length; k++) out += `${k ? " " : ""}${r1(p[k]![0])},${r1(p[k]![1])}`;
  return out;
}

/** Per series (by identity, so never across builds), its drawn layers per scale (seriesChart). */
const drawnLayersMemo = new WeakMap<readonly SeriesEntry[], Map<string, readonly SafeHtml[]>>();
function drawnOnce(s: readonly SeriesEntry[], key: string, draw: () => SafeHtml[]): readonly SafeHtml[] {
  let memo = drawnLayersMemo.get(s);
  if (!memo) drawnLayersMemo.set(s, (memo = new Map()));
  let d = memo.get(key);
  if (!d) memo.set(key, (d = draw()));
  return d;
}

/** The layers this asset's chart draws, in legend order. */
export function drawnLayers(asset: Asset): Layer[] {
  const s = asset.series;
  const has = (lo: Key, hi: Key) => s.some((e) => e[lo] !== null && e[hi] !== null);
  const out: Layer[] = [];
  if (asset.market === "reference") {
    if (has("sellLo", "sellHi")) out.push("ref");
  } else {
    if (has("sellLo", "sellHi")) out.push("sell");
    if (has("buyLo", "buyHi")) out.push("buy");
  }
  if (s.some((e) => e.bench !== null)) out.push("bench");
  return out;
}

/** Runs of days where both ends exist; absent days (weekends) are bridged, a present day without the value breaks the run. */
function runs(series: SeriesEntry[], lo: Key, hi: Key): SeriesEntry[][] {
  const out: SeriesEntry[][] = [];
  let run: SeriesEntry[] = [];
  for (const e of series) {
    if (e[lo] !== null && e[hi] !== null) run.push(e);
    else if (run.length) {
      out.push(run);
      run = [];
    }
  }
  if (run.length) out.push(run);
  return out;
}

/** A round step giving about `target` intervals over `range`, never finer than the asset's decimals. */
function niceStep(range: number, target: number, decimals: number): number {
  const raw = Math.max(range / target, 10 ** -decimals);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const f = raw / mag;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10) * mag;
}
const decimalsOf = (step: number) => {
  for (let d = 0; d < 8; d++) if (Math.abs(step * 10 ** d - Math.round(step * 10 ** d)) < 1e-6) return d;
  return 8;
};

function yTicks(
  values: number[],
  decimals: number,
): { lo: number; hi: number; ticks: number[]; labelDecimals: number } {
  const min = Math.min(...values);
  const max = Math.max(...values);
  const step = niceStep(max - min || Math.abs(min) * 0.01 || 1, 4, decimals);
  const lo = Math.floor(min / step) * step;
  let hi = Math.ceil(max / step) * step;
  if (hi <= lo) hi = lo + step;
  const ticks: number[] = [];
  for (let v = lo; v <= hi + step / 2; v += step) ticks.push(Math.round(v * 1e8) / 1e8);
  return { lo, hi, ticks, labelDecimals: Math.min(decimals, decimalsOf(step)) };
}

/** `weekly`: the series is one entry a week (periods.ts weeklyCloses), and the description says so. */
export function seriesChart(asset: Asset, id: string, size: Size, lang: PageLang, weekly = false): SafeHtml | "" {
  const s = asset.series;
  const layers = drawnLayers(asset);
  const values = s
    .flatMap((e) => [e.buyLo, e.buyHi, e.sellLo, e.sellHi, e.bench])
    .filter((v): v is number => v !== null);
  if (s.length === 0 || values.length === 0) return "";
  const { w, h, font, maxLabels } = SIZES[size];
  const y0 = yTicks(values, asset.decimals);
  const yLabels = y0.ticks.map((t) => price(t, y0.labelDecimals, lang));
  const left = Math.ceil(Math.max(...yLabels.map((l) => l.length)) * font * 0.62) + 12;
  const right = w - 14;
  const top = Math.round(font * 2.2);
  const bottom = h - Math.round(font * 2.2);
  const first = Date.parse(s[0]!.date);
  const span = Math.max(1, (Date.parse(s[s.length - 1]!.date) - first) / DAY_MS);
  const x = (date: string) => left + ((Date.parse(date) - first) / DAY_MS / span) * (right - left);
  const y = (v: number) => top + (1 - (v - y0.lo) / (y0.hi - y0.lo)) * (bottom - top);

  const parts: SafeHtml[] = [];
  // Gridlines and price labels.
  y0.ticks.forEach((t, i) => {
    parts.push(html`<line class="grid" x1="${left}" x2="${right}" y1="${r1(y(t))}" y2="${r1(y(t))}"/>`);
    parts.push(
      html`<text x="${left - 8}" y="${r1(y(t) + font * 0.35)}" text-anchor="end" font-size="${font}">${yLabels[i]!}</text>`,
    );
  });
  // Date labels: the first and the latest day always, and between them back from the latest in
  // whole weeks (the same weekday), as many as fit without touching the first's label. A week's
  // chart labels days; longer ones whole weeks.
  const fit = Math.max(2, Math.min(maxLabels, Math.floor((right - left) / (font * 5.5))));
  const stepDays =
    span <= 8 ? Math.max(1, Math.ceil(span / (fit - 1))) : Math.max(7, Math.ceil(span / (fit - 1) / 7) * 7);
  const firstDate = s[0]!.date;
  const lastDate = s[s.length - 1]!.date;
  const halfOf = (label: string) => (label.length * font * 0.55) / 2;
  const firstLabel = shortDate(firstDate, lang);
  const firstEnd = left + 2 * halfOf(firstLabel);
  const dates = [lastDate];
  for (let k = 1; k * stepDays < span; k++) {
    const date = addDays(lastDate, -k * stepDays);
    if (x(date) - halfOf(shortDate(date, lang)) > firstEnd + font * 0.5) dates.push(date);
  }
  if (firstDate !== lastDate) dates.push(firstDate);
  for (const date of dates) {
    const label = shortDate(date, lang);
    const half = halfOf(label);
    const at = Math.min(right - half, Math.max(left + half, x(date)));
    parts.push(html`<line class="grid" x1="${r1(x(date))}" x2="${r1(x(date))}" y1="${top}" y2="${bottom}"/>`);
    // The drawing runs left to right (time does), but an Arabic date reads right to left: "19 نوفمبر".
    parts.push(
      html`<text x="${r1(at)}" y="${bottom + Math.round(font * 1.5)}" text-anchor="middle" font-size="${font}"${lang === "ar" ? html` direction="rtl"` : ""}>${label}</text>`,
    );
  }
  parts.push(
    html`<line class="axis" x1="${left}" y1="${bottom}" x2="${right}" y2="${bottom}"/><line class="axis" x1="${left}" y1="${top}" x2="${left}" y2="${bottom}"/>`,
  );
  parts.push(
    html`<text x="${left}" y="${Math.round(font * 1.2)}" font-size="${font}" font-weight="600">${unitWords(asset, lang)}</text>`,
  );

  // Made only when the layers are drawn: the second language's page takes them from drawnOnce.
  let xOf: Map<string, number> | undefined;
  const xAt = (date: string) => (xOf ??= new Map(s.map((e) => [e.date, x(e.date)]))).get(date)!;
  const band = (lo: Key, hi: Key, cls: string, edge: Key | null, fill: SafeHtml | "" = "") =>
    runs(s, lo, hi).map((run) => {
      const upper: Pt[] = run.map((e) => [xAt(e.date), y(e[hi] as number)]);
      const lower: Pt[] = run.map((e): Pt => [xAt(e.date), y(e[lo] as number)]);
      if (run.length === 1) {
        upper.push([upper[0]![0] + 4, upper[0]![1]]);
        lower.push([lower[0]![0] + 4, lower[0]![1]]);
      }
      const strong =
        edge === null ? "" : html`<polyline class="${cls}-edge" points="${pts(edge === lo ? lower : upper)}"/>`;
      return html`<polygon class="${cls}"${fill} points="${pts([...upper, ...lower.reverse()])}"/>${strong}`;
    });
  const hatch = `${id}-${size}-hatch`;
  // The layers depend on the series and the scales only, not on the language: drawn once for both pages.
  const scale = `${size}|${id}|${left}|${y0.lo}|${y0.hi}|${layers.join()}`;
  parts.push(
    ...drawnOnce(s, scale, () => {
      const drawn: SafeHtml[] = [];
      if (layers.includes("ref")) drawn.push(html`${band("sellLo", "sellHi", "ref", null)}`);
      if (layers.includes("sell")) drawn.push(html`${band("sellLo", "sellHi", "sell", "sellLo")}`);
      if (layers.includes("buy"))
        drawn.push(html`${band("buyLo", "buyHi", "buy", "buyHi", html` fill="url(#${hatch})"`)}`);
      if (layers.includes("bench")) {
        const bench = runs(s, "bench", "bench").map((run) =>
          run.length === 1
            ? html`<circle class="bench" cx="${r1(xAt(run[0]!.date))}" cy="${r1(y(run[0]!.bench!))}" r="3"/>`
            : html`<polyline class="bench" points="${pts(run.map((e) => [xAt(e.date), y(e.bench!)]))}"/>`,
        );
        drawn.push(html`${bench}`);
      }
      return drawn;
    }),
  );
  const descId = `${id}-${size}-desc`;
  return html`<svg class="chart chart-${size}" viewBox="0 0 ${w} ${h}" role="img" aria-labelledby="${id} ${descId}">
<desc id="${descId}">${describe(asset, lang, weekly)}</desc>
<defs><pattern id="${hatch}" patternUnits="userSpaceOnUse" width="6" height="6" patternTransform="rotate(45)"><rect class="hatch" width="2.5" height="6"/></pattern></defs>
${join(parts, "\n")}
</svg>`;
}

/** The legend: exactly the layers drawn, each with a swatch that differs by more than colour. */
export function chartLegend(asset: Asset, lang: PageLang): SafeHtml | "" {
  const items = drawnLayers(asset).map(
    (l) => html`<li><span class="key ${l}" aria-hidden="true"></span>${CHART_WORDS[lang].legend[l]}</li>`,
  );
  return items.length ? html`<ul class="legend">${items}</ul>` : "";
}

function describe(asset: Asset, lang: PageLang, weekly: boolean): string {
  const w = CHART_WORDS[lang];
  const s = asset.series;
  const last = s[s.length - 1]!;
  const p = (v: number | null) => price(v, asset.decimals, lang);
  const [from, to] = [fullDate(s[0]!.date, lang), fullDate(last.date, lang)];
  const span = weekly ? w.weeks(s.length) : w.tradingDays(s.length);
  const bench = last.bench === null ? "" : w.bench(p(last.bench));
  const unit = unitWords(asset, lang);
  return asset.market === "reference"
    ? w.reference(span, from, to, unit, p(last.sellLo), p(last.sellHi), bench)
    : w.sides(span, from, to, unit, p(last.sellLo), p(last.buyHi), bench);
}

/** The chart's numbers as a table, newest day first, folded away by default. */
export function chartTable(asset: Asset, lang: PageLang, weekly = false): SafeHtml | "" {
  if (asset.series.length === 0) return "";
  const w = CHART_WORDS[lang];
  const ref = asset.market === "reference";
  const p = (v: number | null) => price(v, asset.decimals, lang);
  const head = ref
    ? [w.date, w.referenceLow, w.referenceHigh, w.referenceOfficial]
    : [w.date, w.sellBest, w.buyBest, w.official];
  const rows = [...asset.series]
    .reverse()
    .map(
      (e) =>
        html`<tr><th scope="row">${shortDate(e.date, lang)}</th><td class="n">${p(e.sellLo)}</td><td class="n">${p(ref ? e.sellHi : e.buyHi)}</td><td class="n">${p(e.bench)}</td></tr>`,
    );
  const what = weekly ? w.weeklyTable : w.table;
  const heads = head.map((x, i) => html`<th scope="col"${i ? html` class="n"` : ""}>${x}</th>`);
  return html`<details><summary>${what}</summary>
<table><thead><tr>${heads}</tr></thead><tbody>${rows}</tbody></table></details>`;
}
