/** `price-feed verify URL|DIR` and `price-feed keygen`: checking a signed build, and making its key. */
import { Option, type Command } from "commander";
import { parseNow, positiveInt } from "./options.js";
import { VERIFY_REQUEST_TIMEOUT_MS, VERIFY_RUN_TIMEOUT_MS } from "../core/limits.js";

export function verifyCommand(program: Command, exit: (status: number) => void): void {
  program
    .command("verify")
    .argument("<site>", "a deployment's base URL (http or https, its path prefix included) or a built folder")
    .description(
      "check a signed build: the statement's Ed25519 signature, then every file's SHA-256; one line per file that differs or is missing; exit 1 on any problem",
    )
    .option(
      "--key <key>",
      "a trusted public key (base64url, as keys.json's publicKey) or a keys file; repeatable. Without it, the keys the site itself publishes",
      (v: string, all: string[]) => [...all, v],
      [] as string[],
    )
    .option(
      "--timeout <ms>",
      "over HTTP: one request, from asking to its body's last byte, in milliseconds",
      positiveInt,
      VERIFY_REQUEST_TIMEOUT_MS,
    )
    .option(
      "--run-timeout <seconds>",
      "over HTTP: the whole check, the waits for the site's rate limit included",
      positiveInt,
      VERIFY_RUN_TIMEOUT_MS / 1000,
    )
    .action(async (site: string, o: { key: string[]; timeout: number; runTimeout: number }) => {
      const { folderReader, trustedKeys, urlReader, verifySite } = await import("../jobs/verify.js");
      const keys = await trustedKeys(o.key);
      const reader = /^https?:\/\//i.test(site)
        ? urlReader(site, { timeoutMs: o.timeout, runTimeoutMs: o.runTimeout * 1000 })
        : folderReader(site);
      const r = await verifySite(reader, keys);
      if (r.fatal) {
        console.log(`price-feed verify: ${reader.where}: ${r.fatal}${r.hint ? `\n${r.hint}` : ""}`);
        exit(1);
        return;
      }
      for (const p of r.problems) console.log(`${p.path}: ${p.problem}`);
      const who =
        r.trust === "pinned"
          ? `key ${r.keyId} (given with --key)`
          : `key ${r.keyId}, from the keys the site itself publishes (pass --key to pin the key you trust)`;
      console.log(
        `${r.problems.length ? `${r.problems.length} problem(s)` : "all as signed"}: checked ${r.checked} files of ${reader.where} against the statement of the build of ${r.statement!.generatedAt}, signed with ${who}`,
      );
      if (r.problems.length) exit(1);
    });
}

export function keygenCommand(program: Command): void {
  program
    .command("keygen")
    .description(
      "make an Ed25519 signing key: the private half printed once, for the PRICE_FEED_SIGNING_KEY secret (never written to disk); the public half as the entry to add to data/keys.json",
    )
    .addOption(
      new Option(
        "--valid-from <iso>",
        "the first build instant the key may sign, ISO 8601 with an offset (default: now); a later one lists the next key before it signs",
      ).argParser(parseNow),
    )
    .action(async (o: { validFrom?: number }) => {
      const { newKeyPair } = await import("../io/signing-key.js");
      const { privatePem, entry } = await newKeyPair(o.validFrom ?? Date.now());
      console.log(
        [
          `# The private key: paste it whole as the repository secret PRICE_FEED_SIGNING_KEY, then forget it.`,
          `# It is printed this once and written nowhere (docs/operating.md "Signing keys").`,
          privatePem.trimEnd(),
          `# The public key: add this entry to data/keys.json's "keys" (a new file is {"schemaVersion": 1, "keys": [this entry]}) and commit it before the next build signs.`,
          JSON.stringify(entry, null, 2),
        ].join("\n"),
      );
    });
}
