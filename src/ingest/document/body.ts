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

/**
 * Signatures that only a challenge or a refusal page carries: checked on every answer. A real
 * page may load a vendor's beacon (Cloudflare's challenge-platform script, Imperva's
 * _Incapsula_Resource) or hold a contact form's captcha, so those are only weak signs, below.
 */
const STRONG: Array<[RegExp, string]> = [
  [/<title>\s*just a moment\.*\s*<\/title>/i, 'Cloudflare challenge ("Just a moment...")'],
  [/<title>\s*attention required!? \| cloudflare\s*<\/title>/i, 'Cloudflare block ("Attention Required!")'],
  [/cf-browser-verification|cf-challenge-running|window\._cf_chl_opt|__cf_chl_(?:f_)?tk/i, "Cloudflare challenge"],
  [
    /request unsuccessful\. incapsula incident id/i,
    'Imperva/Incapsula block ("Request unsuccessful. Incapsula incident ID")',
  ],
  [
    /<title>\s*access denied\s*<\/title>[\s\S]*you don'?t have permission to access/i,
    'firewall refusal ("Access Denied")',
  ],
  [
    /the requested url was rejected\. please consult with your administrator/i,
    'F5 firewall refusal ("The requested URL was rejected")',
  ],
  [/sucuri website firewall/i, "Sucuri firewall refusal"],
  [/captcha-delivery\.com|<div[^>]+id=["']px-captcha/i, "bot challenge (DataDome/PerimeterX captcha)"],
  [
    /<title>\s*(?:human verification|are you a robot\??|security check|bot verification)\s*<\/title>/i,
    "bot challenge page",
  ],
];

/** Signs of a challenge that count only when the content the source expects is missing. */
const WEAK: Array<[RegExp, string]> = [
  [/<title>\s*(?:access denied|forbidden|request rejected|blocked)[^<]*<\/title>/i, "firewall refusal page"],
  [/captcha/i, "captcha page"],
  [
    /not a robot|verify (?:that )?you are (?:a )?human|unusual traffic|automated (?:queries|requests)/i,
    "bot challenge page",
  ],
  [/_incapsula_resource|incap_ses/i, "Imperva/Incapsula challenge"],
  [/challenge-platform|challenges\.cloudflare\.com|cf-turnstile/i, "Cloudflare challenge"],
  [/ddos-guard/i, "DDoS-Guard challenge"],
  [/enable javascript and cookies to continue/i, "JavaScript challenge"],
  [/access denied/i, 'refusal ("Access Denied")'],
];

/** Why a body is a challenge or refusal page rather than the document; null when it does not look like one. */
export function challengeOf(text: string, o: { contentMissing: boolean }): string | null {
  for (const [re, what] of STRONG) if (re.test(text)) return what;
  if (o.contentMissing) for (const [re, what] of WEAK) if (re.test(text)) return what;
  return null;
}

export const challengeMessage = (what: string) =>
  `the source answered a bot challenge or firewall page (${what}) with status 200, not its rates`;

/** Throws the shape error of a challenge page; for the strong signatures only unless the content is known missing. */
export function assertNotChallenge(text: string, contentMissing = false): void {
  const what = challengeOf(text, { contentMissing });
  if (what !== null) throw new ShapeError(challengeMessage(what));
}
