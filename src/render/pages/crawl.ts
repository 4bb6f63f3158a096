/**
 * What search engines read before the pages: robots.txt (RFC 9309) and, with the site's base URL,
 * sitemap.xml (sitemaps.org 0.9) listing every human page with its twin in the other language
 * (hreflang, as Google reads it in a sitemap).
 *
 * The pages are for everyone to find; the API is for programs, under rate limits a crawler would
 * spend for nothing, so robots.txt keeps crawlers out of /api/ (the pages link to its JSON). A
 * sitemap's addresses must be absolute (sitemaps.org: "must begin with the protocol"), and so must
 * its Sitemap line in robots.txt: without a base URL the build knows no address of its own, so it
 * writes no sitemap and robots.txt names none. robots.txt is read at a host's root only; on a
 * mirror under a prefix it is a file like any other.
 */
import type { SiteFile } from "../../feed/site.js";
import {
  DAYS_PAGE_PATH,
  DOCS_PATH,
  SELLERS_PAGE_PATH,
  SOURCES_PAGE_PATH,
  TERMS_PATH,
  assetPagePath,
  dayPagePath,
  localized,
  sellerPagePath,
} from "../../feed/paths.js";
import type { Feed } from "../../schema/outputs.js";
import { html, join } from "./html.js";

export const ROBOTS_FILE = "robots.txt";
export const SITEMAP_FILE = "sitemap.xml";
export const TEXT_TYPE = "text/plain; charset=utf-8";
export const XML_TYPE = "application/xml; charset=utf-8";

/**
 * Every human page by its English path: its Arabic twin is at localized(path, "ar"). The past days
 * (`days`, oldest first) follow the list of days: each is a page of its own that a search for "the
 * dollar on 3 November" should find, and only the list and the day around it link there. The list
 * of sellers and each seller's page (`sellers`, by id, in the list's order) come before them: "is
 * this bank usually good for dollars" is a search too.
 */
export const pagePaths = (
  feed: Pick<Feed, "assets">,
  days: readonly string[] = [],
  sellers: readonly string[] = [],
) => [
  "/",
  ...feed.assets.map((a) => assetPagePath(a.slug)),
  SOURCES_PAGE_PATH,
  TERMS_PATH,
  DOCS_PATH,
  SELLERS_PAGE_PATH,
  ...sellers.map(sellerPagePath),
  DAYS_PAGE_PATH,
  ...days.map(dayPagePath),
];

const file = (path: string, body: string, contentType: string): SiteFile => ({
  path,
  body,
  contentType,
  etagInput: () => body,
});

export function robotsTxt(baseUrl: string | undefined): string {
  const lines = [
    "# The pages are for everyone; the API (/api/) is for programs, under rate limits.",
    "User-agent: *",
    "Disallow: /api/",
  ];
  if (baseUrl) lines.push(`Sitemap: ${baseUrl.replace(/\/+$/, "")}/${SITEMAP_FILE}`);
  return `${lines.join("\n")}\n`;
}

export function sitemapXml(
  feed: Pick<Feed, "assets">,
  baseUrl: string,
  days: readonly string[] = [],
  sellers: readonly string[] = [],
): string {
  const base = baseUrl.replace(/\/+$/, "");
  const twins = (p: string) =>
    join(
      [
        html`<xhtml:link rel="alternate" hreflang="en" href="${base}${p}"/>`,
        html`<xhtml:link rel="alternate" hreflang="ar" href="${base}${localized(p, "ar")}"/>`,
        html`<xhtml:link rel="alternate" hreflang="x-default" href="${base}${p}"/>`,
      ],
      "",
    );
  const urls = pagePaths(feed, days, sellers).flatMap((p) =>
    [p, localized(p, "ar")].map((loc) => html`<url><loc>${base}${loc}</loc>${twins(p)}</url>`),
  );
  return html`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">
${join(urls, "\n")}
</urlset>
`.text;
}

/** robots.txt always; sitemap.xml with the base URL only, with the past days' pages (`days`) and the sellers' (`sellers`). */
export function* crawlFiles(
  feed: Pick<Feed, "assets">,
  baseUrl: string | undefined,
  days: readonly string[] = [],
  sellers: readonly string[] = [],
): Generator<SiteFile> {
  yield file(ROBOTS_FILE, robotsTxt(baseUrl), TEXT_TYPE);
  if (baseUrl) yield file(SITEMAP_FILE, sitemapXml(feed, baseUrl, days, sellers), XML_TYPE);
}
