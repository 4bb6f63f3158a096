/**
 * The pages as a web app that a phone installs and opens without a connection (issue 53):
 *
 * - a web app manifest per language (W3C Web Application Manifest: name, short_name, lang, dir,
 *   start_url, scope, display, the theme and background colours, icons), each page linking its
 *   language's, so that the app installed from an Arabic page is Arabic and right to left;
 * - its icons, drawn by the build as PNG from one SVG with the cards' rasterizer (src/jobs/card-images.ts),
 *   for any use and maskable (content within the safe zone, the middle 80 %: W3C Web Application
 *   Manifest §"icon masks");
 * - a service worker at the site's root, whose scope is the site (SERVICE_WORKER below);
 * - the pages' script that registers it and, when a page is a saved copy or the connection goes,
 *   shows the banner that says so and how old the prices are (OFFLINE_SCRIPT below).
 *
 * Paths are site paths made relative to where each file is, so the app works at the root of a host
 * and under a mirror's prefix alike. Everything here is a function of the build's content: the
 * worker's version is a digest of the files it keeps, never the clock.
 */
import {
  APP_MANIFEST_PATH,
  FEED_PATH,
  OFFLINE_SCRIPT_PATH,
  SERVICE_WORKER_PATH,
  iconPath,
  localized,
  type PageLang,
} from "../../feed/paths.js";
import type { ImageFile, RenderContext, SiteFile } from "../../feed/site.js";
import { AMOUNT_SCRIPT_PATH, SCRIPT_TYPE } from "./amount-script.js";
import { APP_WORDS } from "./app-words.js";
import { cairoClock, weekdayDate } from "./format.js";
import { html, type SafeHtml } from "./html.js";

export const MANIFEST_TYPE = "application/manifest+json; charset=utf-8";

/**
 * The two palettes of the pages (style.ts: `--soft`, the header's background, is the theme colour,
 * the bar a phone draws above the page; `--bg` the background it shows while the app starts).
 * test/render/app.test.ts holds them equal to the style's.
 */
export const PALETTES = {
  light: { theme: "#f4f6f8", background: "#ffffff" },
  dark: { theme: "#1e242a", background: "#14181c" },
} as const;

export const ICON_SIZES = [192, 512] as const;
type Purpose = "any" | "maskable";
const PURPOSES: readonly Purpose[] = ["any", "maskable"];

/** The accent of the pages' links (style.ts `--accent`, light), the icon's ground. */
const GROUND = "#0b5cad";

/**
 * The icon, one drawing at every size and for both purposes: the pages' two marks of a move, ▲ and
 * ▼, over a rule, white on the accent. For "any" the ground is a rounded square and the marks fill
 * it; for "maskable" the ground bleeds to the edges (a platform cuts its own shape out of it) and the
 * marks are drawn at 70 % around the centre, inside the safe zone's circle of radius 40 %. Shapes
 * only, no text: no font can make two machines draw it differently.
 */
export function iconSvg(size: number, purpose: Purpose): string {
  const ground =
    purpose === "any"
      ? `<rect width="512" height="512" rx="96" fill="${GROUND}"/>`
      : `<rect width="512" height="512" fill="${GROUND}"/>`;
  const scale = purpose === "any" ? 1 : 0.7;
  const marks =
    `<g transform="translate(256 256) scale(${scale}) translate(-256 -256)">` +
    `<path d="M96 300 L176 156 L256 300 Z" fill="#ffffff"/>` +
    `<path d="M256 212 L336 356 L416 212 Z" fill="#8cc4ff"/>` +
    `<rect x="96" y="244" width="320" height="24" rx="12" fill="#ffffff" fill-opacity="0.55"/>` +
    `</g>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 512 512">${ground}${marks}</svg>`;
}

/** Every icon of the app, as pictures the build draws (the sink makes each a PNG: src/feed/site.ts ImageFile). */
export function* iconImages(): Generator<ImageFile> {
  for (const purpose of PURPOSES)
    for (const size of ICON_SIZES)
      yield { path: iconPath(purpose, size).slice(1), svg: iconSvg(size, purpose), width: size, height: size };
}

/** A site path as the manifest at `from` names it: relative to the manifest's own URL, which the browser resolves it against. */
const fromManifest = (from: string, to: string) => {
  const depth = from.split("/").length - 2;
  return `${depth > 0 ? "../".repeat(depth) : "./"}${to.slice(1)}`;
};

/**
 * A language's manifest. Its `id` and `start_url` are the language's home page; its scope is the
 * whole site (the worker's), so that the Arabic app may open an English page and back. Dark mode's
 * colours are in `user_preferences`, the proposal Chromium reads where it supports it; a browser
 * that does not ignores a member it does not know (the manifest's processing rules).
 */
export function appManifest(lang: PageLang): Record<string, unknown> {
  const at = localized(APP_MANIFEST_PATH, lang);
  const w = APP_WORDS[lang];
  const home = localized("/", lang);
  return {
    id: fromManifest(at, home),
    name: w.name,
    short_name: w.shortName,
    description: w.description,
    lang,
    dir: lang === "ar" ? "rtl" : "ltr",
    start_url: fromManifest(at, home),
    scope: fromManifest(at, "/"),
    display: "standalone",
    theme_color: PALETTES.light.theme,
    background_color: PALETTES.light.background,
    user_preferences: {
      color_scheme_dark: { theme_color: PALETTES.dark.theme, background_color: PALETTES.dark.background },
    },
    icons: PURPOSES.flatMap((purpose) =>
      ICON_SIZES.map((size) => ({
        src: fromManifest(at, iconPath(purpose, size)),
        sizes: `${size}x${size}`,
        type: "image/png",
        purpose,
      })),
    ),
  };
}

/**
 * What every page's head carries for the app: its language's manifest, the theme colour of each
 * palette (the bar above the page follows the reader's light or dark mode), and the script.
 */
export function appHead(lang: PageLang): SafeHtml {
  return html`<link rel="manifest" href="${localized(APP_MANIFEST_PATH, lang)}">
<meta name="theme-color" media="(prefers-color-scheme: light)" content="${PALETTES.light.theme}">
<meta name="theme-color" media="(prefers-color-scheme: dark)" content="${PALETTES.dark.theme}">
<script src="${OFFLINE_SCRIPT_PATH}" defer></script>`;
}

/**
 * The banner of a page that shows prices, hidden until the script shows it: `data-at` is the newest
 * price's own instant (the feed's observedAt), which the script counts the age from in the reader's
 * browser; `data-saved-words` the sentence of a saved copy in the page's language, `data-live-words`
 * that of a page loaded fresh whose connection then went, `{ago}` in each for that age.
 */
export function offlineBanner(lang: PageLang, pricesAt: string): SafeHtml {
  const when = `${weekdayDate(pricesAt, lang)}${lang === "ar" ? "، " : ", "}${cairoClock(pricesAt, lang)}`;
  const w = APP_WORDS[lang];
  return html`<p class="banner offline" id="offline" role="status" data-at="${pricesAt}" data-saved-words="${w.saved(when)}" data-live-words="${w.live(when)}" hidden></p>`;
}

/** The newest observation among assets, the instant a page of their prices is as of; null without any. */
export function newestObservation(assets: ReadonlyArray<{ observedAt: string | null }>): string | null {
  let newest: string | null = null;
  for (const a of assets) if (a.observedAt && (newest === null || a.observedAt > newest)) newest = a.observedAt;
  return newest;
}

/**
 * The pages' second script: registers the service worker at the site's root (found from the
 * script's own address, so a mirror's prefix is kept) and tells the reader when what they read is
 * not current.
 *
 * - The worker marks a page it answers from its cache (`data-saved` on the root element): then the
 *   banner shows at once, with the age of the newest price, updated every minute.
 * - A page loaded from the network shows it too when the connection goes (the `offline` event),
 *   and hides it when it comes back.
 * - A saved copy asks the worker to try the network again when the connection comes back, and then
 *   5, 10, 20… seconds apart (at most a minute); when the page answers, the worker says so and the
 *   page reloads itself, fresh: the reader does nothing.
 * - Once the worker is ready, the page asks it to keep this page and its language's home page
 *   (those it keeps: SERVICE_WORKER), so the first page visited is kept too.
 *
 * It sends nothing anywhere itself (no connect-src): it talks to the worker, which fetches.
 * ASCII only, as the pages' other script (amount-script.ts).
 */
export const OFFLINE_SCRIPT = String.raw`"use strict";
(function () {
  var me = document.currentScript;
  if (!me || !me.src) return;
  var root = new URL("./", me.src);
  var doc = document.documentElement;
  var lang = doc.lang === "ar" ? "ar" : "en";
  var sw = "serviceWorker" in navigator ? navigator.serviceWorker : null;
  var banner = document.getElementById("offline");
  var saved = doc.hasAttribute("data-saved");
  var ticking = null;
  var UNITS = [["year", 31536000], ["month", 2592000], ["week", 604800], ["day", 86400], ["hour", 3600], ["minute", 60]];

  function ago(ms) {
    var s = Math.max(0, (Date.now() - ms) / 1000);
    var locale = lang === "ar" ? "ar-EG-u-nu-latn" : "en";
    for (var i = 0; i < UNITS.length; i++)
      if (s >= UNITS[i][1])
        return new Intl.RelativeTimeFormat(locale, { numeric: "always" }).format(-Math.floor(s / UNITS[i][1]), UNITS[i][0]);
    return new Intl.RelativeTimeFormat(locale, { numeric: "auto" }).format(0, "minute");
  }
  function show() {
    if (!banner) return;
    var at = Date.parse(banner.getAttribute("data-at"));
    var words = banner.getAttribute(saved ? "data-saved-words" : "data-live-words");
    banner.textContent = words.replace("{ago}", isNaN(at) ? "?" : ago(at));
    banner.hidden = false;
    if (ticking === null) ticking = setInterval(show, 60000);
  }
  function hide() {
    if (!banner) return;
    banner.hidden = true;
    if (ticking !== null) clearInterval(ticking);
    ticking = null;
  }
  var wait = 5000;
  var next = null;
  function retry() {
    clearTimeout(next);
    if (navigator.onLine) {
      if (sw && sw.controller) sw.controller.postMessage({ probe: location.href });
      else location.reload();
    }
    next = setTimeout(retry, wait);
    wait = Math.min(wait * 2, 60000);
  }

  if (saved || !navigator.onLine) show();
  window.addEventListener("offline", show);
  window.addEventListener("online", function () {
    wait = 5000;
    if (saved) retry();
    else hide();
  });
  if (saved) next = setTimeout(retry, wait);
  if (!sw) return;
  sw.addEventListener("message", function (e) {
    if (e.data && e.data.fresh === location.href) location.reload();
  });
  sw.register(new URL("sw.js", root).href, { scope: root.pathname }).catch(function () {});
  sw.ready.then(function (reg) {
    if (reg.active && !saved) reg.active.postMessage({ keep: [location.href, new URL(lang === "ar" ? "ar/" : "./", root).href] });
  });
})();
`;

/**
 * The service worker, at the site's root: its scope is the site. It answers the pages it keeps — the
 * home pages and the asset pages, in both languages — and the feed and the app's own files, always
 * from the network first, so that nothing it keeps is ever shown while the network answers. Only when
 * the network fails (or a page has not answered in 6 seconds and a copy is kept) does it answer from
 * its cache, and a page so answered is marked (`data-saved`) for its script to say so, with the age
 * of its prices. Every other request is the browser's own, untouched.
 *
 * Versions: its cache's name holds VERSION, a digest of the files it keeps from the build (the
 * pages' scripts: workerFiles) and of its own text, never the clock; a deployment that
 * changes any makes a new worker. The new one installs (the app's files fetched anew), takes over at
 * once (skipWaiting, clients.claim: safe because it answers as the old one did, from the network
 * first, and a page's messages mean the same to both), carries the pages and the feed the old
 * cache kept (each says its own age) and deletes every older cache of this scope. A cache's name
 * holds the scope too, so two sites under one origin (a mirror's prefixes) never delete each other's.
 */
const SERVICE_WORKER_TEMPLATE = String.raw`"use strict";
var VERSION = "%VERSION%";
var SCOPE = self.registration.scope;
var PREFIX = "price-feed " + SCOPE + " ";
var CACHE = PREFIX + VERSION;
var FILES = %FILES%;
var FEED = "%FEED%";
var SLOW_MS = 6000;

function relative(url) {
  return url.indexOf(SCOPE) === 0 ? url.slice(SCOPE.length).split("#")[0] : null;
}
function kind(rel) {
  if (rel === null || rel.indexOf("?") >= 0) return null;
  if (/^(ar\/)?(assets\/[a-z0-9-]+\/)?$/.test(rel)) return "page";
  if (rel === FEED || FILES.indexOf(rel) >= 0) return "file";
  return null;
}
function store(key, response) {
  if (!response.ok || response.type !== "basic") return Promise.resolve();
  var copy = response.clone();
  // Never into a cache a newer worker deleted: caches.open would make it again.
  return caches.has(CACHE).then(function (has) {
    return has ? caches.open(CACHE).then(function (c) { return c.put(key, copy); }) : null;
  });
}
function saved(key, what) {
  return caches.open(CACHE).then(function (c) { return c.match(key); }).then(function (hit) {
    if (!hit || what !== "page") return hit || null;
    return hit.text().then(function (text) {
      var headers = new Headers();
      ["Content-Type", "Content-Language", "Content-Security-Policy"].forEach(function (h) {
        if (hit.headers.has(h)) headers.set(h, hit.headers.get(h));
      });
      return new Response(text.replace("<html ", "<html data-saved=\"\" "), { status: 200, headers: headers });
    });
  });
}

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(CACHE)
      .then(function (c) { return c.addAll(FILES.concat([FEED]).map(function (f) { return SCOPE + f; })); })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      var old = names.filter(function (n) { return n.indexOf(PREFIX) === 0 && n !== CACHE; });
      return caches.open(CACHE).then(function (into) {
        return old.reduce(function (done, name) {
          return done.then(function () { return carry(name, into); });
        }, Promise.resolve());
      }).then(function () {
        return Promise.all(old.map(function (n) { return caches.delete(n); }));
      });
    }).then(function () { return self.clients.claim(); })
  );
});

function carry(name, into) {
  return caches.open(name).then(function (from) {
    return from.keys().then(function (requests) {
      return Promise.all(requests.map(function (r) {
        var rel = relative(r.url);
        if (kind(rel) !== "page" && rel !== FEED) return null;
        return into.match(r).then(function (have) {
          return have ? null : from.match(r).then(function (res) { return res ? into.put(r, res) : null; });
        });
      }));
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var what = kind(relative(request.url));
  if (!what) return;
  var key = request.url.split("#")[0];
  // A page is always asked of the network (revalidated, never the HTTP cache's copy as it stands),
  // so that a page shown while the network fails is this worker's, marked as saved.
  var network = fetch(what === "page" ? new Request(request, { cache: "no-cache" }) : request).then(function (response) {
    event.waitUntil(store(key, response));
    return response;
  });
  event.waitUntil(network.catch(function () {}));
  event.respondWith(new Promise(function (resolve) {
    var done = false;
    function answer(r) { if (!done && r) { done = true; resolve(r); } }
    var timer = what === "page" ? setTimeout(function () { saved(key, what).then(answer); }, SLOW_MS) : null;
    network.then(function (response) {
      clearTimeout(timer);
      answer(response);
    }, function () {
      clearTimeout(timer);
      saved(key, what).then(function (hit) { answer(hit || Response.error()); });
    });
  }));
});

self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (Array.isArray(data.keep))
    event.waitUntil(caches.has(CACHE).then(function (has) { return has ? caches.open(CACHE) : null; }).then(function (c) {
      if (!c) return null;
      return Promise.all(data.keep.map(function (url) {
        if (typeof url !== "string" || kind(relative(url)) !== "page") return null;
        var key = url.split("#")[0];
        return c.match(key).then(function (have) { return have ? null : c.add(key).catch(function () {}); });
      }));
    }));
  if (typeof data.probe === "string" && kind(relative(data.probe)) === "page" && event.source)
    event.waitUntil(fetch(data.probe, { cache: "no-store" }).then(function (response) {
      if (!response.ok) return null;
      return store(data.probe.split("#")[0], response).then(function () {
        event.source.postMessage({ fresh: data.probe });
      });
    }, function () {}));
});
`;

/** A digest of text, 64 bits as 16 hex digits (FNV-1a twice, two seeds): a version's name, not a security measure. */
export function versionDigest(text: string): string {
  const fnv = (seed: number) => {
    let h = seed >>> 0;
    for (let i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    return h.toString(16).padStart(8, "0");
  };
  return fnv(0x811c9dc5) + fnv(0x01000193 ^ 0x5bd1e995);
}

/**
 * The files the worker keeps besides the pages and the feed, as paths relative to its scope: the
 * pages' scripts. Not the manifests and icons: a browser reads those when it installs the app and
 * keeps what it needs itself, and they would cost a first visit 100 KB more.
 */
export function workerFiles(): string[] {
  return [OFFLINE_SCRIPT_PATH, AMOUNT_SCRIPT_PATH].map((p) => p.slice(1));
}

/** The worker's text for the files it keeps, their ETags given (ctx.etag): its VERSION is their digest and its own. */
export function serviceWorker(etagOf: (file: string) => string): string {
  const kept = workerFiles();
  const version = versionDigest([SERVICE_WORKER_TEMPLATE, ...kept.map((f) => `${f} ${etagOf(f)}`)].join("\n"));
  return SERVICE_WORKER_TEMPLATE.replace("%VERSION%", version)
    .replace("%FILES%", JSON.stringify(kept))
    .replace("%FEED%", FEED_PATH.slice(1));
}

const script = (path: string, body: string): SiteFile => ({
  path: path.slice(1),
  body,
  contentType: SCRIPT_TYPE,
  etagInput: () => body,
});

/**
 * The app's files, after the pages' other script (amount-script.ts) is made: the icons, the
 * manifests, the pages' script, then the worker, whose version is the digest of the others' ETags.
 */
export function* appFiles(ctx: RenderContext): Generator<SiteFile | ImageFile> {
  yield* iconImages();
  for (const lang of ["en", "ar"] as const) {
    const body = `${JSON.stringify(appManifest(lang), null, 2)}\n`;
    yield {
      path: localized(APP_MANIFEST_PATH, lang).slice(1),
      body,
      contentType: MANIFEST_TYPE,
      etagInput: () => body,
    };
  }
  yield script(OFFLINE_SCRIPT_PATH, OFFLINE_SCRIPT);
  yield script(
    SERVICE_WORKER_PATH,
    serviceWorker((f) => ctx.etag(f)),
  );
}
