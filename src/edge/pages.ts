/**
 * A person's answer where a program's would be wrong: a page's address that has no page (a day
 * mistyped in the address bar, `/days/2026-13-01/`; a day without prices; any other page that is not
 * there) is answered with the site's page for it, in the reader's language, rather than the API's
 * problem+json, which a browser shows as raw JSON. 404, or 400 for a day's address whose date does
 * not exist, as the API's own `/api/v1/days/{date}.json` answers. The page is a built file
 * (`404.html`, `ar/404.html`, made by src/render/pages/not-found.ts): the edge reads it as it reads any
 * file, and imports nothing of render. The API's paths and /readyz keep their problems. No node:*.
 */
import {
  AR_PREFIX,
  DAYS_PAGE_PATH,
  DOCS_PATH,
  READYZ_PATH,
  SELLERS_PAGE_PATH,
  SOURCES_PAGE_PATH,
  TERMS_PATH,
  files,
  type PageLang,
} from "../feed/paths.js";
import type { Manifest } from "../schema/documents.js";
import { isDate } from "./archive.js";
import type { HandlerDeps } from "./deps.js";
import { PAGE_CSP } from "./headers.js";

/** A page's address: anything but the API's and /readyz. */
export const isPagePath = (pathname: string): boolean =>
  !(pathname === "/api" || pathname.startsWith("/api/") || pathname === READYZ_PATH);

/** The English pages' sections: an address under one of them is an English page's. */
const ENGLISH_SECTIONS = ["/assets/", DAYS_PAGE_PATH, SELLERS_PAGE_PATH, SOURCES_PAGE_PATH, TERMS_PATH, DOCS_PATH];

/**
 * The address of a past day's page whose date does not exist (`/days/2026-13-01/`, `/ar/days/x/`):
 * the reader's to fix, a 400 as in the API. A date that exists but has no page is a 404.
 */
export function malformedDay(pathname: string): boolean {
  const rest = pathname.startsWith(`${AR_PREFIX}/`) ? pathname.slice(AR_PREFIX.length) : pathname;
  if (!rest.startsWith(DAYS_PAGE_PATH)) return false;
  const date = rest.slice(DAYS_PAGE_PATH.length).replace(/\/$/, "");
  return date !== "" && !date.includes("/") && !isDate(date);
}

/**
 * How much a reader's Accept-Language (RFC 9110 §12.5.4) wants each of the pages' languages: the
 * quality of the most specific range that matches it (`ar-EG` and `ar` match Arabic, `*` any), 0
 * for none. A malformed element counts for nothing.
 */
export function languageQuality(header: string | null, lang: PageLang): number {
  let best = -1;
  let specific = -1;
  for (const part of (header ?? "").split(",")) {
    const [range = "", ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/.exec(p)).find(Boolean);
    const quality = q ? Math.min(1, Number(q[1])) : 1;
    const length = range === "*" ? 0 : range === lang || range.startsWith(`${lang}-`) ? range.length : -1;
    if (length > specific || (length === specific && length >= 0 && quality > best)) {
      specific = length;
      best = quality;
    }
  }
  return specific < 0 ? 0 : best;
}

/**
 * The language of the page for an address: Arabic under /ar/, English under an English page's
 * section; an address in neither (`/prices`) goes by what the reader's browser asks for, English
 * unless it prefers Arabic. `negotiated` says the answer varies with Accept-Language.
 */
export function pageLanguage(pathname: string, acceptLanguage: string | null): { lang: PageLang; negotiated: boolean } {
  if (pathname === AR_PREFIX || pathname.startsWith(`${AR_PREFIX}/`)) return { lang: "ar", negotiated: false };
  if (ENGLISH_SECTIONS.some((s) => pathname.startsWith(s) || pathname === s.slice(0, -1)))
    return { lang: "en", negotiated: false };
  const ar = languageQuality(acceptLanguage, "ar");
  return { lang: ar > languageQuality(acceptLanguage, "en") ? "ar" : "en", negotiated: true };
}

/**
 * The answer for a page's address that has no page: the built page in the reader's language, with
 * the handler's headers (CORS, rate limits, the security headers) and the pages' policy, never
 * stored (it is an error, as a problem is). Null when the build has no such page (one made before
 * it existed): the caller answers its problem then.
 */
export async function missingPage(
  request: Request,
  url: URL,
  deps: HandlerDeps,
  headers: Headers,
): Promise<Response | null> {
  let manifest: Manifest;
  try {
    manifest = await deps.manifest();
  } catch {
    return null;
  }
  const { lang, negotiated } = pageLanguage(url.pathname, request.headers.get("Accept-Language"));
  const file = files.notFound(lang);
  const meta = Object.hasOwn(manifest.files, file) ? manifest.files[file] : undefined;
  if (!meta) return null;
  const body = await deps.readFile(file);
  if (body === null) return null;
  headers.set("Content-Type", meta.contentType);
  headers.set("Content-Language", lang);
  headers.set("Cache-Control", "no-store");
  headers.set("Content-Security-Policy", PAGE_CSP);
  if (negotiated) headers.set("Vary", "Accept-Language");
  const status = malformedDay(url.pathname) ? 400 : 404;
  return new Response(request.method === "HEAD" ? null : body, { status, headers });
}
