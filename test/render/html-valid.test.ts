/**
 * Every page the build writes is valid HTML by the Nu Html Checker (vnu-jar from npm, the W3C's
 * checker, run with Java): no error on any page of the sample site, in either language — a
 * reference asset's day-by-day table included (a column its head spanned but no cell began in was
 * one: issue 53). Java is the one program it needs: scripts/test.sh installs it where it is missing.
 */
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { promisify } from "node:util";
import { beforeAll, describe, expect, test } from "vitest";
import { builtSample } from "../helpers/site.js";

const vnuJar = createRequire(import.meta.url)("vnu-jar") as string | { default: string } as string;

interface VnuMessage {
  type: string;
  url: string;
  message: string;
  extract?: string;
  lastLine?: number;
}

let out: string;
beforeAll(async () => {
  out = await builtSample("pf-vnu-");
}, 120_000);

describe("the Nu Html Checker", () => {
  test("finds no error on any page of the site", async () => {
    const { stderr } = await promisify(execFile)(
      "java",
      ["-Xss4m", "-jar", vnuJar, "--errors-only", "--format", "json", "--skip-non-html", out],
      { maxBuffer: 1 << 26 },
    ).catch((e: { stderr: string; code?: number }) => {
      // vnu exits 1 when it reports errors: its report is on stderr all the same.
      if (typeof e.stderr !== "string" || !e.stderr.trim().startsWith("{")) throw e;
      return e;
    });
    const report = JSON.parse(stderr) as { messages: VnuMessage[] };
    const errors = report.messages
      .filter((m) => m.type === "error" || m.type === "non-document-error")
      .map((m) => `${m.url.slice(m.url.indexOf(out) + out.length)}:${m.lastLine ?? "?"} ${m.message}`);
    expect(errors).toEqual([]);
  }, 180_000);
});
