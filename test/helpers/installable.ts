/**
 * Chromium's own verdict on whether a page can be installed as an app: the DevTools protocol's
 * Page.getInstallabilityErrors (and the errors Page.getAppManifest found parsing its manifest),
 * through playwright-core's CDP session. A persistent profile: in an incognito one (what
 * browser.newContext makes) Chromium reports `in-incognito` whatever the page.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";

const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";

export interface Installability {
  /** Each error's id and its arguments' values ("no-acceptable-icon 144"); none when it installs. */
  errors: string[];
  /** What Chromium found wrong in the manifest itself. */
  manifest: string[];
  /** The manifest's URL, as the page links it. */
  url: string;
  /** What the page logged as errors while it loaded (a manifest or an icon refused by the policy, say). */
  console: string[];
}

export async function installability(address: string): Promise<Installability> {
  const profile = await mkdtemp(path.join(os.tmpdir(), "pf-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu"],
  });
  try {
    const page = await context.newPage();
    const logged: string[] = [];
    page.on("console", (m) => m.type() === "error" && logged.push(m.text()));
    const res = await page.goto(address);
    if (res?.status() !== 200) throw new Error(`${address} answered ${res?.status()}`);
    const cdp = await context.newCDPSession(page);
    // The manifest and its icons are fetched after the load: the check waits for them itself.
    const { installabilityErrors } = (await cdp.send("Page.getInstallabilityErrors")) as {
      installabilityErrors: Array<{ errorId: string; errorArguments: Array<{ value: string }> }>;
    };
    const m = (await cdp.send("Page.getAppManifest")) as { url: string; errors: Array<{ message: string }> };
    return {
      errors: installabilityErrors.map((e) => [e.errorId, ...e.errorArguments.map((a) => a.value)].join(" ")),
      manifest: m.errors.map((e) => e.message),
      url: m.url,
      console: logged,
    };
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
}
