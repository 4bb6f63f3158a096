/**
 * The asset pages' script (the web app's, every page's, is app.ts OFFLINE_SCRIPT): on an asset's page it adds, above the converter's table, a field for
 * any amount, worked out from the prices the table's heads carry (`data-price`, the numbers the page
 * shows) with the rounding of every total (src/core/round.ts roundHalfAway, here in the browser). It
 * is progressive enhancement: without it the table stays as it is. Its words come with the page (a
 * <template> in the page's language, converter.ts); the script adds only numbers.
 *
 * Digits: the field takes Western digits (0-9) and Arabic-Indic ones (U+0660-0669, and the Persian
 * forms U+06F0-06F9), with the Arabic decimal and thousands separators (U+066B, U+066C). On the
 * Arabic page an amount typed in Arabic-Indic digits is answered in them; otherwise the totals have
 * the page's Western digits, as every other number on it.
 *
 * It is served as a file of the site (`script-src 'self'` in PAGE_CSP, src/edge/headers.ts, and in
 * netlify.toml): it loads nothing and sends nothing. Its text is ASCII, so that the command line's
 * bundle (which escapes the pages' non-ASCII characters) writes the same bytes as the modules do.
 */
import { html } from "./html.js";

/** Where the script is, a site path: page() makes it relative to each page. */
export const AMOUNT_SCRIPT_PATH = "/amount.js";
export const SCRIPT_TYPE = "text/javascript; charset=utf-8";

/** The script's tag, for a page's head: deferred, it runs once the page is parsed. */
export const amountScriptTag = () => html`<script src="${AMOUNT_SCRIPT_PATH}" defer></script>`;

export const AMOUNT_SCRIPT = String.raw`"use strict";
(function () {
  var tpl = document.getElementById("amount-tpl");
  var table = document.querySelector("table.convert[data-decimals]");
  if (!tpl || !tpl.content || !table) return;
  var decimals = Number(table.getAttribute("data-decimals"));
  var heads = table.querySelectorAll("thead th[data-price]");
  var prices = [];
  for (var i = 0; i < heads.length; i++) {
    var p = heads[i].getAttribute("data-price");
    prices.push(p === "" ? null : Number(p));
  }
  table.parentNode.insertBefore(tpl.content.cloneNode(true), table);
  var input = document.getElementById("amount-in");
  var outs = document.querySelectorAll("#amount-out output");
  var arabicPage = document.documentElement.lang === "ar";
  var formats = {};

  // Half away from zero on the decimal the number prints as (src/core/round.ts).
  function round(x, d) {
    var f = Math.pow(10, d);
    var scaled = Math.abs(x) * f;
    var frac = scaled - Math.floor(scaled);
    if (Math.abs(frac - 0.5) > 1e-6 && scaled < 1e15) return Math.round(scaled) / f;
    var parts = Math.abs(x).toExponential().split("e");
    var shifted = Number(parts[0] + "e" + (Number(parts[1]) + d));
    return Number(Math.floor(shifted + 0.5) + "e" + -d);
  }
  // A whole amount ending in zeros needs fewer decimals: 100 x 47.77 is 4,777 (converter.ts totalDecimals).
  function totalDecimals(n, d) {
    if (n !== Math.floor(n)) return d;
    var zeros = 0;
    for (var m = n; m % 10 === 0 && m > 0; m /= 10) zeros++;
    return Math.max(0, d - zeros);
  }
  function format(v, d, arabicDigits) {
    var locale = arabicDigits ? "ar-EG-u-nu-arab" : arabicPage ? "ar-EG-u-nu-latn" : "en-GB";
    var key = locale + d;
    if (!formats[key])
      formats[key] = new Intl.NumberFormat(locale, { minimumFractionDigits: d, maximumFractionDigits: d });
    return formats[key].format(v);
  }
  // The amount typed, in Western digits with a "." for decimals; null when it is not a number.
  function parse(text) {
    var out = "";
    var arabicDigits = false;
    for (var i = 0; i < text.length; i++) {
      var c = text.charCodeAt(i);
      if (c >= 0x30 && c <= 0x39) out += text.charAt(i);
      else if ((c >= 0x660 && c <= 0x669) || (c >= 0x6f0 && c <= 0x6f9)) {
        out += String(c % 16);
        arabicDigits = true;
      } else if (c === 0x2e || c === 0x66b) out += ".";
      else if (c !== 0x2c && c !== 0x66c && c !== 0x20 && c !== 0xa0 && c !== 0x2009 && c !== 0x202f) return null;
    }
    if (!/^(\d+\.?\d*|\.\d+)$/.test(out)) return null;
    var n = Number(out);
    return n > 0 && n <= 1e9 ? { n: n, arabicDigits: arabicDigits && arabicPage } : null;
  }
  function update() {
    var a = parse(input.value);
    input.setAttribute("aria-invalid", a === null && input.value.trim() !== "" ? "true" : "false");
    for (var i = 0; i < outs.length; i++) {
      var price = prices[i];
      outs[i].textContent =
        a === null || price === null || price === undefined
          ? "\u2014"
          : format(round(a.n * price, decimals), totalDecimals(a.n, decimals), a.arabicDigits);
    }
  }
  input.addEventListener("input", update);
  update();
})();
`;
