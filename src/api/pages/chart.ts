/**
 * The 30-day chart of an asset's series, drawn as inline SVG at build time: the sell band
 * (sellLo..sellHi), the buy band (buyLo..buyHi) and the official line (bench). Days sit at their
 * calendar position, so the x axis is true time.
 */
import type { Asset, SeriesEntry } from "../../schema/outputs.js";
import { esc, num } from "./html.js";

const W = 480;
const H = 180;
const PAD = { left: 70, right: 14, top: 14, bottom: 30 };
const DAY_MS = 86_400_000;

type Pt = [number, number];

const fmt = (n: number) => (Math.round(n * 10) / 10).toString();
const path = (pts: Pt[]) => pts.map(([x, y]) => `${fmt(x)},${fmt(y)}`).join(" ");

/**
 * Runs of entries where both ends of a band exist. Days absent from the series (a weekend, a
 * holiday) are bridged: the market was shut, not unknown. A present day without the value breaks it.
 */
function bandRuns(series: SeriesEntry[], lo: keyof SeriesEntry, hi: keyof SeriesEntry): SeriesEntry[][] {
  const runs: SeriesEntry[][] = [];
  let run: SeriesEntry[] = [];
  for (const e of series) {
    if (e[lo] !== null && e[hi] !== null) run.push(e);
    else if (run.length) {
      runs.push(run);
      run = [];
    }
  }
  if (run.length) runs.push(run);
  return runs;
}

export function seriesChart(asset: Asset, titleId: string): string {
  const s = asset.series;
  if (s.length === 0) return `<p class="muted">No history yet.</p>`;
  const values = s.flatMap((e) => [e.buyLo, e.buyHi, e.sellLo, e.sellHi, e.bench]).filter((v): v is number => v !== null);
  if (values.length === 0) return `<p class="muted">No values in the window.</p>`;
  let min = Math.min(...values);
  let max = Math.max(...values);
  if (max === min) {
    const pad = Math.abs(min) * 0.005 || 1;
    min -= pad;
    max += pad;
  }
  const first = Date.parse(s[0]!.date);
  const last = Date.parse(s[s.length - 1]!.date);
  const span = Math.max(1, (last - first) / DAY_MS);
  const x = (date: string) => PAD.left + ((Date.parse(date) - first) / DAY_MS / span) * (W - PAD.left - PAD.right);
  const y = (v: number) => PAD.top + (1 - (v - min) / (max - min)) * (H - PAD.top - PAD.bottom);

  const band = (lo: keyof SeriesEntry, hi: keyof SeriesEntry, cls: string) =>
    bandRuns(s, lo, hi)
      .map((run) => {
        const top: Pt[] = run.map((e) => [x(e.date), y(e[hi] as number)]);
        const bottom: Pt[] = run.map((e): Pt => [x(e.date), y(e[lo] as number)]).reverse();
        // A single day is a vertical tick: widen it to a sliver so it stays visible.
        if (run.length === 1) {
          top.push([top[0]![0] + 3, top[0]![1]]);
          bottom.unshift([bottom[0]![0] + 3, bottom[0]![1]]);
        }
        return `<polygon class="${cls}" points="${path([...top, ...bottom])}"/>`;
      })
      .join("");
  const benchRuns = bandRuns(s, "bench", "bench")
    .map((run) => (run.length === 1 ? `<circle class="bench" cx="${fmt(x(run[0]!.date))}" cy="${fmt(y(run[0]!.bench!))}" r="2"/>` : `<polyline class="bench" points="${path(run.map((e) => [x(e.date), y(e.bench!)]))}"/>`))
    .join("");

  const d = asset.decimals;
  const latest = s[s.length - 1]!;
  const desc = `${s.length} days from ${s[0]!.date} to ${latest.date}. Range ${num(min, d)} to ${num(max, d)} ${asset.unit}. Latest day: sell ${num(latest.sellLo, d)}–${num(latest.sellHi, d)}, buy ${num(latest.buyLo, d)}–${num(latest.buyHi, d)}, official mid ${num(latest.bench, d)}.`;
  const descId = `${titleId}-desc`;
  return `<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="${titleId} ${descId}">
<desc id="${descId}">${esc(desc)}</desc>
<style>.sell{fill:#a33b00;fill-opacity:.35;stroke:#a33b00;stroke-width:1}.buy{fill:#1a6b36;fill-opacity:.35;stroke:#1a6b36;stroke-width:1}.bench{fill:none;stroke:#333;stroke-width:1.5;stroke-dasharray:4 3}circle.bench{fill:#333}.axis{stroke:#8a949e;stroke-width:1}.lbl{font:14px system-ui,sans-serif;fill:#4a5560}</style>
<line class="axis" x1="${PAD.left}" y1="${H - PAD.bottom}" x2="${W - PAD.right}" y2="${H - PAD.bottom}"/>
<line class="axis" x1="${PAD.left}" y1="${PAD.top}" x2="${PAD.left}" y2="${H - PAD.bottom}"/>
<text class="lbl" x="${PAD.left - 6}" y="${PAD.top + 5}" text-anchor="end">${esc(num(max, d))}</text>
<text class="lbl" x="${PAD.left - 6}" y="${H - PAD.bottom}" text-anchor="end">${esc(num(min, d))}</text>
<text class="lbl" x="${PAD.left}" y="${H - 6}">${esc(s[0]!.date)}</text>
<text class="lbl" x="${W - PAD.right}" y="${H - 6}" text-anchor="end">${esc(latest.date)}</text>
${band("sellLo", "sellHi", "sell")}${band("buyLo", "buyHi", "buy")}${benchRuns}
</svg>`;
}
