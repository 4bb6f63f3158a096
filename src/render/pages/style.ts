/**
 * The one style sheet of the pages, inlined in each (the policy allows inline styles only).
 * Phone first: the base rules are for a 360 px screen, `min-width` queries widen the layout.
 * Logical properties (start/end, inline) make the same rules right for Arabic (dir="rtl").
 */
import { html } from "./html.js";

export const STYLE = html`
:root{color-scheme:light dark;--ink:#1b1f24;--muted:#4a5560;--line:#c9d1d9;--bg:#fff;--soft:#f4f6f8;--accent:#0b5cad;--sell:#a33b00;--buy:#1a6b36;--bench:#333;--ref:#5b3f8c;--best:#fff4ce;--grid:#e3e7eb;--axis:#8a949e;--good:#1a6b36;--bad:#a3202a}
@media (prefers-color-scheme:dark){:root{--ink:#e7eaee;--muted:#b3bcc5;--line:#3d4650;--bg:#14181c;--soft:#1e242a;--accent:#8cc4ff;--sell:#ff9e6b;--buy:#74d493;--bench:#d0d4d8;--ref:#c0a6f5;--best:#4a3f0c;--grid:#2c333a;--axis:#7d8791;--good:#74d493;--bad:#ff8f8f}}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans Arabic",sans-serif;color:var(--ink);background:var(--bg);overflow-wrap:break-word}
[lang=ar]{font-family:system-ui,-apple-system,"Segoe UI","Noto Sans Arabic","Noto Naskh Arabic",Tahoma,sans-serif}
a{color:var(--accent)}
.skip{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}.skip:focus{width:auto;height:auto;clip-path:none;inset-inline-start:1rem;top:1rem;background:var(--bg);padding:.5rem;z-index:1}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
header{background:var(--soft);border-bottom:1px solid var(--line)}
nav ul{list-style:none;display:flex;flex-wrap:wrap;gap:.25rem .9rem;margin:0 auto;padding:.6rem 1rem;max-width:72rem;font-size:.95rem}
nav a[aria-current]{font-weight:700;color:var(--ink)}
nav .lang{margin-inline-start:auto}
main{max-width:72rem;margin:0 auto;padding:.75rem 1rem 1rem}
footer{max-width:72rem;margin:1.5rem auto 0;padding:1rem;border-top:1px solid var(--line);color:var(--muted);font-size:.9rem}
.banner{margin:0;padding:.5rem 1rem;background:var(--best);border-top:1px solid var(--line);text-align:center;font-size:.95rem}
h1{font-size:1.45rem;line-height:1.25;margin:.5rem 0 .5rem}h2{font-size:1.3rem;margin-top:2rem;border-bottom:1px solid var(--line);padding-bottom:.25rem}h3{margin-top:1.5rem}
h1 bdi,h3 bdi{font-weight:400;color:var(--muted)}
.lead{font-size:1.05rem;margin:.25rem 0 1rem}
.muted,.note{color:var(--muted)}.note{font-size:.9rem}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
code{overflow-wrap:anywhere;direction:ltr;unicode-bidi:isolate}
/* In Arabic text a broken code span puts its halves on two lines in the wrong order ("?" at one
   line's end, "category=" at the next one's start): inline code there stays whole. */
[dir=rtl] :not(pre)>code{white-space:nowrap;overflow-wrap:normal}
pre{background:var(--soft);border:1px solid var(--line);padding:.75rem;overflow-x:auto;direction:ltr;text-align:left}
pre code{overflow-wrap:normal}
pre.cmd{white-space:pre-wrap}pre.answer{max-height:26rem;overflow:auto}pre.cmd code{overflow-wrap:anywhere;direction:ltr;unicode-bidi:isolate}
table{border-collapse:collapse;width:100%;margin:.75rem 0;font-size:.95rem}
caption{text-align:start;color:var(--muted);font-size:.9rem;padding-bottom:.25rem}
th,td{border:1px solid var(--line);padding:.35rem .45rem;text-align:start;vertical-align:top}
th{background:var(--soft)}
td.n,th.n{text-align:end;font-variant-numeric:tabular-nums}td.n{white-space:nowrap}
.wrap{overflow-x:auto}
.tag{display:inline-block;border:1px solid var(--line);border-radius:1rem;padding:0 .5rem;font-size:.85rem;white-space:nowrap}
.v-favorable{border-color:var(--buy);color:var(--buy)}.v-weak{border-color:var(--sell);color:var(--sell)}
/* Home: one table per category, a row per asset, a cell per side */
table.market{max-width:48rem}.market th a{font-weight:700}.market tbody th{font-weight:600}
.market .sub{display:block;font-size:.8rem;font-weight:400;color:var(--muted);line-height:1.3}
.market td.n{white-space:normal}.market .v{display:block;font-size:1.1rem;font-weight:700;font-variant-numeric:tabular-nums}
.market .chg{display:block}.market .who{display:block;font-size:.8rem;line-height:1.3}.market .tag{display:block;border:0;padding:0;font-size:.8rem;white-space:normal;line-height:1.3}
section.market h2{margin:.75rem 0 0;border:0;padding:0}.market th,.market td{padding:.3rem .4rem}.home-lead{font-size:.95rem}
/* Asset page */
.crumbs{font-size:.9rem;margin:.25rem 0}
/* Past days: the day before and after, and the list of every day */
.days-nav ul,ul.days{list-style:none;display:flex;flex-wrap:wrap;gap:.25rem 1rem;padding:0;margin:.5rem 0}
table.changes{max-width:48rem}.changes caption{font-size:.85rem}table.day-closes .sub{display:block}table.day-closes td{text-align:end;white-space:nowrap;width:1%;font-variant-numeric:tabular-nums}
.changes td.n{white-space:normal}.changes .v{display:block;font-weight:700;font-variant-numeric:tabular-nums}.changes .chg{display:block}.changes .who,.changes .sub{display:block;font-size:.8rem;line-height:1.3;color:var(--muted)}.changes .who{color:var(--ink)}
.status{margin:.25rem 0 1rem;font-size:.95rem}
.sides{display:grid;gap:.75rem;grid-template-columns:repeat(auto-fit,minmax(min(100%,17rem),1fr))}
.side{border:1px solid var(--line);border-radius:.4rem;padding:.6rem .8rem}
.side h2{margin:0;border:0;font-size:1.05rem;color:var(--muted);font-weight:600}
.side .big{font-size:1.9rem;font-weight:700;margin:0;font-variant-numeric:tabular-nums}
.side p{margin:.2rem 0}.side ul{margin:.35rem 0 0;padding-inline-start:1.1rem;font-size:.92rem}
.verdict{font-weight:600}
.refs dl{margin:.35rem 0}.refs dt{color:var(--muted);font-size:.92rem}.refs dd{margin:0 0 .35rem;font-variant-numeric:tabular-nums}
.sources{margin:.25rem 0;font-size:.9rem;color:var(--muted)}
/* The seller table: on a phone the other-language name and the source move under the seller's name */
table.sellers{max-width:58rem}.sellers tbody th{font-weight:600}.sellers .sub{display:block;font-size:.85rem;font-weight:400;color:var(--muted)}.sellers .n{width:1%}
.sellers .col-wide{display:none}
@media (min-width:40rem){.sellers .col-wide{display:table-cell}.sellers .sub{display:none}td .chg,td .since{white-space:nowrap}}
.sources-health .sub{display:block;font-size:.85rem;font-weight:400;color:var(--muted)}.sources-health td{overflow-wrap:anywhere}
@media (max-width:40rem){.sources-health thead{display:none}.sources-health tr,.sources-health th,.sources-health td{display:block}.sources-health tr{border-bottom:1px solid var(--line,#ccc);padding:.4rem 0}.sources-health td::before{content:attr(data-label) ": ";font-weight:600}}
/* The sellers' pages: the list (its kind under each name) and a seller's record per asset */
table.sellers-list,table.record{max-width:48rem}.sellers-list tbody th{font-weight:600}.sellers-list .sub{display:block;font-size:.85rem;font-weight:400;color:var(--muted)}
td.best{background:var(--best);font-weight:700}
.best-mark{display:block;font-size:.75rem;font-weight:600;color:var(--ink)}
/* Charts: a narrow drawing on phones, a wide one above, each with text large enough to read */
.chart{width:100%;height:auto;display:block;direction:ltr}
.chart-wide{display:none}
@media (min-width:40rem){.chart-wide{display:block}.chart-narrow{display:none}}
.chart .grid{stroke:var(--grid);stroke-width:1}.chart .axis{stroke:var(--axis);stroke-width:1}
.chart text{fill:var(--muted);font-family:system-ui,sans-serif}.chart .hatch{fill:var(--buy);fill-opacity:.6}
.chart .sell{fill:var(--sell);fill-opacity:.22;stroke:none}.chart .sell-edge{fill:none;stroke:var(--sell);stroke-width:2}
.chart .buy{fill-opacity:.9;stroke:none}.chart .buy-edge{fill:none;stroke:var(--buy);stroke-width:2}
.chart .ref{fill:var(--ref);fill-opacity:.25;stroke:var(--ref);stroke-width:1.5}
.chart .bench{fill:none;stroke:var(--bench);stroke-width:2;stroke-dasharray:6 4}.chart circle.bench{fill:var(--bench);stroke:none}
.legend{list-style:none;padding:0;margin:.4rem 0;display:flex;flex-wrap:wrap;gap:.25rem 1.25rem;font-size:.9rem}
.key{display:inline-block;width:1.4rem;height:.8rem;margin-inline-end:.4rem;vertical-align:middle;border:1px solid var(--line)}
.key.sell{background:color-mix(in srgb,var(--sell) 22%,transparent);border-bottom:2px solid var(--sell)}
.key.buy{background:repeating-linear-gradient(45deg,var(--buy) 0 2px,transparent 2px 5px);border-top:2px solid var(--buy)}
.key.ref{background:color-mix(in srgb,var(--ref) 25%,transparent);border-top:2px solid var(--ref)}
.key.bench{height:0;border:0;border-top:2px dashed var(--bench)}
details{margin:.5rem 0}summary{cursor:pointer;color:var(--accent)}
bdi[lang=ar]{font-size:1.05em}
/* Change since the previous close: the arrow and the sign say which way, the colour what it means for the reader */
.chg{white-space:nowrap;font-size:.85rem;font-weight:600}.chg.good{color:var(--good)}.chg.bad{color:var(--bad)}.chg.flat{color:var(--muted)}
.chg-key .chg{font-size:inherit;white-space:normal}
td .chg,td .since{display:block;font-weight:400;white-space:normal}
.since{font-size:.85rem;color:var(--muted)}
/* Home: the headline assets, the rest one tap away */
.more>summary{font-weight:600;margin:.75rem 0 0}
.periods details{border:1px solid var(--line);border-radius:.4rem;padding:.25rem .75rem;margin:.5rem 0}.periods>details>summary{font-weight:600}
table.convert{max-width:40rem}
.share{margin:.25rem 0 1rem}.share a{display:inline-block;min-height:3rem;padding:.7rem 1rem;border:1px solid var(--line);border-radius:.4rem;background:var(--soft);font-weight:600}
.amount{margin:.75rem 0;max-width:40rem}.amount label{display:block;font-weight:600}
.amount input{font:inherit;font-size:1.1rem;padding:.5rem .6rem;min-height:3rem;width:12rem;max-width:100%;color:var(--ink);background:var(--bg);border:1px solid var(--axis);border-radius:.3rem}
.amount input[aria-invalid=true]{border-color:var(--down)}
.amount ul{list-style:none;padding:0;margin:.4rem 0}.amount output{font-weight:700;font-variant-numeric:tabular-nums}
`;
