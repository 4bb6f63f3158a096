/**
 * A document's body before it is read: bytes decoded by the charset the answer or the page
 * declares; JSON that comes wrapped (a JSON string holding JSON, ASP.NET's `{"d": …}`); and the
 * pages that are not the document at all — a bot challenge or a firewall's refusal served with
 * status 200, which must fail the source, never read as an empty day.
 */
import { ShapeError } from "../../core/errors.js";

/** Bytes → text, by the Content-Type's charset, else a `<meta charset>` or XML declaration, else UTF-8; a BOM is dropped. */
export function decodeBody(bytes: ArrayBuffer | Uint8Array, contentType: string | null): string {
  const buf = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  const head = new TextDecoder("latin1").decode(buf.subarray(0, 4096));
  const declared =
    /charset\s*=\s*["']?([\w:.-]+)/i.exec(contentType ?? "")?.[1] ??
    /<meta[^>]+charset\s*=\s*["']?([\w:.-]+)/i.exec(head)?.[1] ??
    /<\?xml[^>]+encoding\s*=\s*["']([\w:.-]+)/i.exec(head)?.[1] ??
    "utf-8";
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(declared.toLowerCase());
  } catch {
    decoder = new TextDecoder("utf-8");
  }
  return decoder.decode(buf).replace(/^\ufeff/, "");
}

/**
 * A JSON document, unwrapped: a body that is a JSON string holding JSON is parsed again, and an
 * object whose only member is `d` (ASP.NET web methods) stands for its content.
 */
export function parseJsonDocument(text: string): unknown {
  let doc: unknown;
  try {
    doc = JSON.parse(text.replace(/^\ufeff/, ""));
  } catch (e) {
    throw new ShapeError(`not JSON: ${(e as Error).message}`);
  }
  for (let depth = 0; depth < 4; depth++) {
    if (typeof doc === "string") {
      try {
        doc = JSON.parse(doc);
      } catch {
        break;
      }
    } else if (doc && typeof doc === "object" && !Array.isArray(doc) && Object.keys(doc).length === 1 && "d" in doc) {
      doc = (doc as { d: unknown }).d;
    } else break;
  }
  return doc;
}

/*
 * The challenge test runs on every body, up to the 5 MB cap, so it must take time linear in the
 * body whatever the body holds. A backtracking regex with an unbounded gap between two patterns
 * (`<title>access denied</title>[\s\S]*you don't have permission`) rescans the rest of the body
 * from every place its first part matches: a body repeating that title took 40 s at 560 KB
 * (issue 42). So no regex here runs on the body: it is lowered once and searched with indexOf for
 * fixed strings; regexes run only on a title's text, cut to TITLE_MAX characters.
 */

/** The longest title text read: the titles these signatures know are a few words. */
const TITLE_MAX = 200;
/**
 * `<title>` openers looked at: a challenge page's title is its first (an inline SVG icon may hold
 * more further on); a body repeating `<title>` gains nothing past these.
 */
const TITLES_MAX = 32;

/**
 * The texts of the body's first `<title>` elements (lowered, trimmed), each with where its
 * `</title>` ends. Each `</title>` is looked for within TITLE_MAX characters of its opener only,
 * so the work is bounded by TITLES_MAX windows whatever the body.
 */
function titlesOf(lower: string): Array<{ text: string; end: number }> {
  const out: Array<{ text: string; end: number }> = [];
  let at = lower.indexOf("<title>");
  for (let n = 0; at >= 0 && n < TITLES_MAX; n++, at = lower.indexOf("<title>", at + 7)) {
    const start = at + 7;
    const close = lower.slice(start, start + TITLE_MAX + 8).indexOf("</title>");
    // No `</title>` near: a title longer than these signatures' titles, or none at all.
    if (close >= 0) out.push({ text: lower.slice(start, start + close).trim(), end: start + close + 8 });
  }
  return out;
}

/** One signature: does the (lowered) body, with its titles, carry it. */
type Test = (lower: string, titles: ReadonlyArray<{ text: string; end: number }>) => boolean;

const anyOf =
  (...needles: string[]): Test =>
  (lower) =>
    needles.some((n) => lower.includes(n));
/** A title matching `re`; `re` runs only on a title's text, at most TITLE_MAX characters. */
const title =
  (re: RegExp): Test =>
  (_, titles) =>
    titles.some((t) => !t.text.includes("<") && re.test(t.text));

/**
 * `<div … id="px-captcha"` (PerimeterX): an `id` attribute before the `>` that ends a `<div` tag.
 * The next `>` and the next such attribute are remembered and searched for again only once passed,
 * so every character is looked at a bounded number of times however many `<div` there are.
 */
const pxCaptcha: Test = (lower) => {
  const next = (needle: string, from: number) => {
    const i = lower.indexOf(needle, from);
    return i < 0 ? Infinity : i;
  };
  let gt = -1;
  let id = -1;
  for (let at = lower.indexOf("<div"); at >= 0; at = lower.indexOf("<div", at + 4)) {
    if (gt <= at) gt = next(">", at);
    if (id < at + 5) id = Math.min(next('id="px-captcha', at + 5), next("id='px-captcha", at + 5));
    if (id < gt) return true;
  }
  return false;
};

/**
 * Signatures that only a challenge or a refusal page carries: checked on every answer. A real
 * page may load a vendor's beacon (Cloudflare's challenge-platform script, Imperva's
 * _Incapsula_Resource) or hold a contact form's captcha, so those are only weak signs, below.
 */
const STRONG: Array<[Test, string]> = [
  [title(/^just a moment\.*$/), 'Cloudflare challenge ("Just a moment...")'],
  [title(/^attention required!? \| cloudflare$/), 'Cloudflare block ("Attention Required!")'],
  [
    anyOf("cf-browser-verification", "cf-challenge-running", "window._cf_chl_opt", "__cf_chl_tk", "__cf_chl_f_tk"),
    "Cloudflare challenge",
  ],
  [
    anyOf("request unsuccessful. incapsula incident id"),
    'Imperva/Incapsula block ("Request unsuccessful. Incapsula incident ID")',
  ],
  [
    // The title, then the sentence anywhere after it: one indexOf from the first such title's end.
    (lower, titles) => {
      const t = titles.find((x) => x.text === "access denied");
      return (
        t !== undefined &&
        ["you don't have permission to access", "you dont have permission to access"].some(
          (n) => lower.indexOf(n, t.end) >= 0,
        )
      );
    },
    'firewall refusal ("Access Denied")',
  ],
  [
    anyOf("the requested url was rejected. please consult with your administrator"),
    'F5 firewall refusal ("The requested URL was rejected")',
  ],
  [anyOf("sucuri website firewall"), "Sucuri firewall refusal"],
  [
    (lower, titles) => anyOf("captcha-delivery.com")(lower, titles) || pxCaptcha(lower, titles),
    "bot challenge (DataDome/PerimeterX captcha)",
  ],
  [title(/^(?:human verification|are you a robot\??|security check|bot verification)$/), "bot challenge page"],
];

/** Signs of a challenge that count only when the content the source expects is missing. */
const WEAK: Array<[Test, string]> = [
  [title(/^(?:access denied|forbidden|request rejected|blocked)/), "firewall refusal page"],
  [anyOf("captcha"), "captcha page"],
  [
    anyOf(
      "not a robot",
      "verify that you are a human",
      "verify that you are human",
      "verify you are a human",
      "verify you are human",
      "unusual traffic",
      "automated queries",
      "automated requests",
    ),
    "bot challenge page",
  ],
  [anyOf("_incapsula_resource", "incap_ses"), "Imperva/Incapsula challenge"],
  [anyOf("challenge-platform", "challenges.cloudflare.com", "cf-turnstile"), "Cloudflare challenge"],
  [anyOf("ddos-guard"), "DDoS-Guard challenge"],
  [anyOf("enable javascript and cookies to continue"), "JavaScript challenge"],
  [anyOf("access denied"), 'refusal ("Access Denied")'],
];

/** Why a body is a challenge or refusal page rather than the document; null when it does not look like one. Linear in the body. */
export function challengeOf(text: string, o: { contentMissing: boolean }): string | null {
  const lower = text.toLowerCase();
  const titles = titlesOf(lower);
  for (const [test, what] of STRONG) if (test(lower, titles)) return what;
  if (o.contentMissing) for (const [test, what] of WEAK) if (test(lower, titles)) return what;
  return null;
}

export const challengeMessage = (what: string) =>
  `the source answered a bot challenge or firewall page (${what}) with status 200, not its rates`;

/** Throws the shape error of a challenge page; for the strong signatures only unless the content is known missing. */
export function assertNotChallenge(text: string, contentMissing = false): void {
  const what = challengeOf(text, { contentMissing });
  if (what !== null) throw new ShapeError(challengeMessage(what));
}
