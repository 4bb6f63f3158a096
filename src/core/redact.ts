/**
 * Text that leaves the runner: a source's failure reason is committed in data/state/sources.json,
 * published in /api/v1/sources.json, the OpenAPI examples and the sources pages, and printed in the
 * job's log. Two pure functions make it fit to leave (issue 42 items 3 and 5):
 *
 * - `redactUrls`: every URL in a text loses its userinfo, query and fragment — where an operator
 *   puts an API key (`?apikey=…`, `https://user:key@host/`), and what a site echoes back.
 * - `logSafe`: a text printed as (part of) one log line stays one line and never starts with a
 *   GitHub Actions workflow command (`::error::…`, or the older `##[…]`), whatever a body held.
 *
 * Both scan the text once, left to right, and run no regular expression over it: a reason may quote
 * a hostile body, and nothing here may take more than linear time on it.
 */

/** A URI scheme's characters (RFC 3986 §3.1: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )). */
const isAlpha = (c: string) => (c >= "A" && c <= "Z") || (c >= "a" && c <= "z");
const isSchemeChar = (c: string) => isAlpha(c) || (c >= "0" && c <= "9") || c === "+" || c === "-" || c === ".";
/** Where a URL written in running text ends: white space, a quote, an angle bracket, a backtick. */
const ENDS_URL = new Set([" ", "\t", "\n", "\r", "\f", "\v", '"', "'", "<", ">", "`", "\u00a0", "\u2028", "\u2029"]);
/** Punctuation that closes the sentence around a URL, kept after the cut: `(https://h/p?k=v).` → `(https://h/p).` */
const TRAILING = new Set([")", "]", "}", ",", ".", ";", ":", "!"]);

/**
 * One URL token (`scheme://…` up to where running text ends it) without its userinfo, query and
 * fragment. The authority ends at the first "/", "?", "#" or "\" (RFC 3986 §3.2; WHATWG URL takes a
 * backslash as a slash in http(s)); its userinfo is everything up to its last "@" (§3.2.1).
 */
function redactOne(token: string, schemeEnd: number): string {
  const start = schemeEnd + 3; // after "://"
  let end = start;
  while (end < token.length && !"/?#\\".includes(token[end]!)) end++;
  const at = token.lastIndexOf("@", end - 1);
  const host = at >= start ? token.slice(at + 1, end) : token.slice(start, end);
  const rest = token.slice(end);
  const q = [...rest].findIndex((c) => c === "?" || c === "#");
  if (q < 0) return `${token.slice(0, start)}${host}${rest}`;
  // What closes the sentence stays, as long as it is punctuation only: at worst a ")" of a secret.
  let tail = rest.length;
  while (tail > q + 1 && TRAILING.has(rest[tail - 1]!)) tail--;
  const kept = tail > q + 1 ? rest.slice(tail) : "";
  return `${token.slice(0, start)}${host}${rest.slice(0, q)}${kept}`;
}

/**
 * `text` with every URL's userinfo, query and fragment removed:
 * `HTTP 403 (https://user:pw@host/p?apikey=x)` → `HTTP 403 (https://host/p)`. Any scheme
 * (`ftp://u:p@h/`), any number of URLs; the rest of the text as it was. Linear in the text.
 */
export function redactUrls(text: string): string {
  let out = "";
  let from = 0; // text before `from` is already in `out`
  let i = text.indexOf("://");
  while (i >= 0) {
    // The scheme: the run of scheme characters just before "://", starting with a letter.
    let s = i;
    while (s > from && isSchemeChar(text[s - 1]!)) s--;
    while (s < i && !isAlpha(text[s]!)) s++;
    if (s === i) {
      i = text.indexOf("://", i + 3);
      continue;
    }
    let e = i + 3;
    while (e < text.length && !ENDS_URL.has(text[e]!)) e++;
    out += text.slice(from, s) + redactOne(text.slice(s, e), i - s);
    from = e;
    i = text.indexOf("://", e);
  }
  return out + text.slice(from);
}

/** A control character's escape in a log line: `\n`, `\r`, `\t` stays, others `\u001b`. */
const escapeControl = (c: string) =>
  c === "\n" ? "\\n" : c === "\r" ? "\\r" : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;

/**
 * Line breaks (C0 and C1 controls but the tab, NEL, LS and PS) and escape sequences: escaped. So are
 * the bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069, Unicode UAX #9):
 * a U+202E from a page turns the rest of the terminal's line around (src/core/controls.ts).
 */
const isControl = (c: string) => {
  const n = c.charCodeAt(0);
  return (
    (n < 0x20 && n !== 0x09) ||
    (n >= 0x7f && n <= 0x9f) ||
    n === 0x2028 ||
    n === 0x2029 ||
    (n >= 0x202a && n <= 0x202e) ||
    (n >= 0x2066 && n <= 0x2069)
  );
};

/**
 * `line` as one line of the job's log: every control character escaped as JSON would (a newline
 * becomes the two characters `\n`), and every bidi override as `\u202e`, so text from a body can
 * never begin a line of its own, move the cursor or turn the line around; then,
 * should the line itself begin (after white space, which the Actions runner skips) with a workflow
 * command's `::` or `##[`, a backslash goes before it, and the runner reads it as text
 * (docs.github.com "Workflow commands for GitHub Actions": a command is a line that starts `::`).
 */
export function logSafe(line: string): string {
  let out = "";
  for (const c of line) out += isControl(c) ? escapeControl(c) : c;
  const lead = out.length - out.trimStart().length;
  const body = out.slice(lead);
  return body.startsWith("::") || body.startsWith("##[") ? `${out.slice(0, lead)}\\${body}` : out;
}
