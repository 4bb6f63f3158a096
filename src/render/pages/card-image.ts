/**
 * Each asset's card as a picture, for a link shared in a chat (og:image): its names in English and
 * Arabic, the best price on each side with its move, the last month of best prices drawn, the day
 * and the time; and the home page's, the market at a glance (the headline assets' best prices). One
 * picture serves both languages' pages. The pages draw it as SVG, here; the build
 * makes the PNG the protocol's readers take (src/jobs/card-images.ts, with resvg and the DejaVu fonts
 * of node_modules), and keeps the PNG of an SVG it has made before: a picture is a function of its
 * SVG alone, so an asset whose card did not change is not drawn again.
 */
import { assetPagePath, type PageLang } from "../../feed/paths.js";
import type { ImageFile } from "../../feed/site.js";
import type { Site } from "../../schema/inputs.js";
import type { Asset } from "../../schema/outputs.js";
import { changeAmount, shownDirection } from "./change.js";
import { CHANGE_WORDS } from "./change-words.js";
import { cairoClock, cairoDay, longDate, price, westernDigits } from "./format.js";
import { html, join, nameText, type SafeHtml } from "./html.js";
import { headlineOf, pageOrder } from "./lineup.js";
import { SIDE_WORDS, sideLabel } from "./words.js";
import { CARD_IMAGE_WORDS } from "./card-image-words.js";

/** The size Open Graph readers show large (1.91:1; Facebook's and WhatsApp's advice is 1200 × 630). */
export const CARD = { width: 1200, height: 630 } as const;
/** The one family the card is set in: the fonts the build loads have Latin and Arabic, ▲ and ▼. */
export const CARD_FONT = "DejaVu Sans";

/** The card's site path, beside its asset's English page. */
export const cardPath = (slug: string) => `${assetPagePath(slug)}card.png`;

/** The card's words for the picture's text alternative (og:image:alt), in a page's language. */
export function cardAlt(a: Asset, lang: PageLang): string {
  const w = CARD_IMAGE_WORDS[lang];
  const name = nameText(lang, a.name, a.nameAr);
  if (a.market === "reference") return w.reference(name, price(a.global?.value, a.decimals, lang));
  const side = (s: "sell" | "buy") => `${sideLabel(s, lang)} ${price(a.directions[s].best?.value, a.decimals, lang)}`;
  return `${name}: ${side("sell")}, ${side("buy")} ${w.egp}`;
}

const INK = "#1b1f24";
const MUTED = "#4a5560";
const COLOUR = { sell: "#a33b00", buy: "#1a6b36", up: "#1a6b36", down: "#a3202a", flat: "#4a5560" };
const n1 = (v: number) => (Math.round(v * 10) / 10).toString();
/**
 * A font size at which a name fits the card's 1,080 px: DejaVu Sans Bold's letters average about
 * 0.66 of its size (measured on the catalog's names), so a long name is set smaller.
 */
const fit = (name: string, size: number) => Math.min(size, Math.floor(1080 / (name.length * 0.66)));

type Anchor = "start" | "end";
/** One line of text: Arabic is laid out right to left from its right edge. */
function text(
  x: number,
  y: number,
  size: number,
  body: string,
  o: { fill?: string; bold?: boolean; anchor?: Anchor; rtl?: boolean } = {},
): SafeHtml {
  return html`<text x="${x}" y="${y}" font-size="${size}"${o.bold ? html` font-weight="700"` : ""} fill="${o.fill ?? INK}"${o.anchor === "end" ? html` text-anchor="end"` : ""}${o.rtl ? html` direction="rtl"` : ""}>${body}</text>`;
}

/** A side's box: its two labels, the price, and the move since the previous close. */
function sideBox(a: Asset, side: "sell" | "buy", x: number): SafeHtml {
  const d = a.directions[side];
  const w = 520;
  const move = d.previous ? d.previous.change : null;
  // A move that rounds to nothing is "= unchanged", not "▲ +0 piastres" (change.ts shownDirection).
  const dir = move === null ? null : shownDirection(move, a.decimals);
  const moved =
    move === null || dir === null
      ? ""
      : text(
          x + 24,
          352,
          28,
          `${dir === "up" ? "▲ +" : dir === "down" ? "▼ −" : "= "}${dir === "flat" ? CHANGE_WORDS.en.noChange.replace("\u00AD", "") : changeAmount(move, a.decimals, "en")}`,
          {
            fill: COLOUR[dir],
            bold: true,
          },
        );
  return html`<rect x="${x}" y="204" width="${w}" height="172" rx="12" fill="#fff" stroke="#c9d1d9" stroke-width="2"/>
<rect x="${x}" y="204" width="10" height="172" rx="4" fill="${COLOUR[side]}"/>
${text(x + 24, 244, 28, SIDE_WORDS[side][0], { fill: MUTED, bold: true })}
${text(x + w - 20, 244, 28, SIDE_WORDS[side][1], { fill: MUTED, bold: true, anchor: "end", rtl: true })}
${text(x + 24, 312, 60, price(d.best?.value, a.decimals, "en"), { bold: true })}
${moved}`;
}

/**
 * The last month of best prices (the feed's series), one line a side in its box's colour, its
 * lowest and highest marked. A reference asset has no sides: its card has no chart.
 */
function monthChart(a: Asset): SafeHtml | "" {
  if (a.market === "reference") return "";
  const days = a.series.slice(-30);
  const lines: Array<[string, Array<number | null>]> = [
    [COLOUR.sell, days.map((e) => e.sellLo)],
    [COLOUR.buy, days.map((e) => e.buyHi)],
  ];
  const values = lines.flatMap(([, v]) => v.filter((x): x is number => x !== null));
  if (days.length < 2 || values.length < 2) return "";
  const [x0, x1, y0, y1] = [60, 1000, 410, 560];
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (hi === lo) [lo, hi] = [lo - 1, hi + 1];
  const x = (i: number) => x0 + ((x1 - x0) * i) / (days.length - 1);
  const y = (v: number) => y1 - ((y1 - y0) * (v - lo)) / (hi - lo);
  const polylines = lines.map(([colour, v]) => {
    const pts = v.flatMap((p, i) => (p === null ? [] : [`${n1(x(i))},${n1(y(p))}`]));
    return pts.length > 1
      ? html`<polyline points="${pts.join(" ")}" fill="none" stroke="${colour}" stroke-width="5" stroke-linejoin="round" stroke-linecap="round"/>`
      : "";
  });
  return html`<line x1="${x0}" y1="${y1}" x2="${x1}" y2="${y1}" stroke="#c9d1d9" stroke-width="2"/>
<line x1="${x0}" y1="${y0}" x2="${x1}" y2="${y0}" stroke="#e3e7eb" stroke-width="2"/>
${polylines}
${text(1140, y0 + 10, 26, price(hi, a.decimals, "en"), { fill: MUTED, anchor: "end" })}
${text(1140, y1 + 10, 26, price(lo, a.decimals, "en"), { fill: MUTED, anchor: "end" })}`;
}

/** The band across the top of every card: whose prices, and whether they are simulated. */
function band(site: Pick<Site, "simulated">): SafeHtml {
  return site.simulated
    ? html`<rect width="1200" height="64" fill="#fff4ce"/>
${text(60, 43, 26, "Price Feed · simulated sample data", { bold: true })}
${text(1140, 43, 26, "بيانات تجريبية محاكاة", { bold: true, anchor: "end", rtl: true })}`
    : html`<rect width="1200" height="64" fill="#f4f6f8"/>
${text(60, 43, 26, "Price Feed · licensed prices in Egypt", { bold: true })}
${text(1140, 43, 26, "أسعار الجهات المرخصة في مصر", { bold: true, anchor: "end", rtl: true })}`;
}

/** The card of one asset as SVG, in the card's one font; the same asset gives the same text. */
export function cardSvg(a: Asset, site: Pick<Site, "simulated">): string {
  const boxes =
    a.market === "reference"
      ? html`<rect x="60" y="204" width="1080" height="172" rx="12" fill="#fff" stroke="#c9d1d9" stroke-width="2"/>
${text(84, 244, 28, "Reference price (global mid-market)", { fill: MUTED, bold: true })}
${text(1116, 244, 28, "سعر مرجعي", { fill: MUTED, bold: true, anchor: "end", rtl: true })}
${text(84, 312, 60, price(a.global?.value, a.decimals, "en"), { bold: true })}`
      : [sideBox(a, "sell", 60), sideBox(a, "buy", 620)];
  const when = a.observedAt
    ? `${longDate(a.asOf, "en")} · ${cairoClock(a.observedAt, "en")} Cairo time · EGP per ${a.unit.split("/")[1] === "g" ? "gram" : (a.unit.split("/")[1] ?? a.unit)}`
    : `${longDate(a.asOf, "en")}`;
  const svg = html`<svg xmlns="http://www.w3.org/2000/svg" width="${CARD.width}" height="${CARD.height}" viewBox="0 0 ${CARD.width} ${CARD.height}" font-family="${CARD_FONT}">
<rect width="1200" height="630" fill="#ffffff"/>
${band(site)}
${text(60, 122, fit(a.name, 50), a.name, { bold: true })}
${text(1140, 178, fit(a.nameAr, 44), westernDigits(a.nameAr), { bold: true, anchor: "end", rtl: true })}
${boxes}
${monthChart(a)}
${text(60, 608, 26, when, { fill: MUTED })}
</svg>
`;
  return svg.text;
}

/** The home page's card, at the site's root. */
export const HOME_CARD_PATH = "/card.png";
/** As many rows as the card has room for: the nine headline assets. */
const HOME_ROWS = 9;

/** The assets the home page's card shows: the headline ones, in the pages' order, as many as fit. */
export const homeCardAssets = (assets: readonly Asset[]): Asset[] => {
  const ordered = pageOrder(assets);
  return ordered.filter(headlineOf(ordered)).slice(0, HOME_ROWS);
};

/** The latest price's day and time of the assets shown: what the market card is as of. */
const latestOf = (assets: readonly Asset[]) =>
  assets.reduce<string | null>((m, a) => (a.observedAt && (m === null || a.observedAt > m) ? a.observedAt : m), null);

/** The home card's words for og:image:alt: each asset's best price on each side, in a page's language. */
export function homeCardAlt(assets: readonly Asset[], lang: PageLang): string {
  const w = CARD_IMAGE_WORDS[lang];
  const rows = homeCardAssets(assets).map((a) => cardAlt(a, lang));
  return `${w.home}. ${rows.join(w.semicolon)}`;
}

/**
 * A size at which a name fits `width` px: a letter of DejaVu Sans Bold is about 0.62 of the size
 * wide, a joined Arabic letter of the regular face about 0.45 (measured on the catalog's names).
 */
const fitTo = (name: string, size: number, width: number, perLetter = 0.62) =>
  Math.min(size, Math.floor(width / (name.length * perLetter)));

/**
 * The home page's card: the market at a glance, a row per headline asset (its English name, the best
 * price on each side, its Arabic name), under the page's title in both languages, with the day and
 * time of the latest price. The same feed gives the same text.
 */
export function homeCardSvg(assets: readonly Asset[], site: Pick<Site, "simulated">): string {
  const shown = homeCardAssets(assets);
  const [sellX, buyX, top, step] = [700, 900, 262, 36];
  const rows = shown.map((a, i) => {
    const y = top + i * step;
    const arName = westernDigits(a.nameAr);
    const prices =
      a.market === "reference"
        ? text(buyX, y, 28, price(a.global?.value, a.decimals, "en"), { bold: true, anchor: "end", fill: MUTED })
        : html`${text(sellX, y, 28, price(a.directions.sell.best?.value, a.decimals, "en"), { bold: true, anchor: "end" })}
${text(buyX, y, 28, price(a.directions.buy.best?.value, a.decimals, "en"), { bold: true, anchor: "end" })}`;
    return html`<line x1="60" y1="${y + 12}" x2="1140" y2="${y + 12}" stroke="#e3e7eb" stroke-width="2"/>
${text(60, y, fitTo(a.name, 26, 400), a.name, { bold: true })}
${prices}
${text(1140, y, fitTo(arName, 26, 220, 0.45), arName, { anchor: "end", rtl: true })}`;
  });
  const latest = latestOf(shown);
  const when = latest
    ? `${longDate(cairoDay(latest), "en")} · ${cairoClock(latest, "en")} Cairo time · EGP, per gram for gold`
    : "EGP, per gram for gold";
  const head = (x: number, side: "sell" | "buy") =>
    html`${text(x, 200, 22, SIDE_WORDS[side][0], { fill: MUTED, bold: true, anchor: "end" })}
${text(x, 226, 22, SIDE_WORDS[side][1], { fill: MUTED, bold: true, anchor: "end", rtl: true })}`;
  const svg = html`<svg xmlns="http://www.w3.org/2000/svg" width="${CARD.width}" height="${CARD.height}" viewBox="0 0 ${CARD.width} ${CARD.height}" font-family="${CARD_FONT}">
<rect width="1200" height="630" fill="#ffffff"/>
${band(site)}
${text(60, 116, 40, "Currency and gold prices in Egypt", { bold: true })}
${text(1140, 164, 36, "أسعار العملات والذهب في مصر", { bold: true, anchor: "end", rtl: true })}
${head(sellX, "sell")}
${head(buyX, "buy")}
${join(rows, "\n")}
${text(60, 608, 26, when, { fill: MUTED })}
</svg>
`;
  return svg.text;
}

/** The card of each asset, for the renderer: drawn now, made a PNG by the build's sink (or kept). */
export function* cardImages(assets: readonly Asset[], site: Pick<Site, "simulated">): Generator<ImageFile> {
  for (const a of assets) yield { path: cardPath(a.slug).slice(1), svg: cardSvg(a, site), ...CARD };
  yield { path: HOME_CARD_PATH.slice(1), svg: homeCardSvg(assets, site), ...CARD };
}
