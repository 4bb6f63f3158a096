/**
 * The `price-feed` command: a few lines mapping subcommands to their modules, and the one place that
 * turns errors into exit statuses (README "The command line"):
 *   0 done · 1 the command did not do its work (a bad flag, bad data, a missing folder, a port in
 *   use…; nothing was published) · 2 ingest: some sources failed, the others landed.
 * No stack trace reaches the user for an error of ours; an unexpected one is a bug and shows it.
 */
import { Command, CommanderError } from "commander";
import { PriceFeedError, UsageError } from "../core/errors.js";
import { buildCommand } from "./build.js";
import { compactCommand } from "./compact.js";
import { ingestCommand } from "./ingest.js";
import { initCommand } from "./init.js";
import { sampleCommand } from "./sample.js";
import { serveCommand } from "./serve.js";

export const EXIT = { ok: 0, failed: 1 } as const;

export function program(exit: (status: number) => void = () => {}): Command {
  const cli = new Command("price-feed")
    .description("Egypt's licensed money market as a static JSON API: ingest quotes, build the site, serve it.")
    .showHelpAfterError("(add --help for usage)")
    .exitOverride();
  initCommand(cli);
  buildCommand(cli);
  ingestCommand(cli, exit);
  compactCommand(cli);
  sampleCommand(cli);
  serveCommand(cli);
  for (const c of cli.commands) c.exitOverride();
  return cli;
}

/** What the user reads for a failure of ours: one line saying what and where, one saying what to do. */
export function explain(e: PriceFeedError): string {
  const lines = [`price-feed: ${e.message}`];
  if (e.kind === "data" || e.kind === "output") lines.push("nothing was published; the previous site and all data are as they were.");
  if (e.kind === "not-built") lines.push("build it first: `npm run build` (or `npx price-feed build --out DIR`).");
  if (e instanceof UsageError && e.hint) lines.push(e.hint);
  return lines.join("\n");
}

export async function main(argv: string[]): Promise<number> {
  let status: number = EXIT.ok;
  try {
    await program((s) => (status = s)).parseAsync(argv);
    return status;
  } catch (e) {
    // Commander has already printed its own one-line message (and the help hint) for these.
    if (e instanceof CommanderError) return e.exitCode === 0 ? EXIT.ok : EXIT.failed;
    console.error(e instanceof PriceFeedError ? explain(e) : unexpected(e));
    return EXIT.failed;
  }
}

/**
 * An error that is not one of ours. A file-system error still names its path and what to check;
 * anything else is a bug, shown as one line unless PRICE_FEED_DEBUG asks for the stack.
 */
function unexpected(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  if (err && typeof err.code === "string" && typeof err.path === "string") {
    const what: Record<string, string> = { ENOENT: "does not exist", EACCES: "is not readable or writable by this user", EPERM: "is not permitted", EISDIR: "is a folder, not a file", ENOTDIR: "is not a folder", ENOSPC: "is on a full disk" };
    return `price-feed: ${err.path} ${what[err.code] ?? `failed (${err.code})`}\ncheck the path and its permissions, then run the command again.`;
  }
  if (process.env["PRICE_FEED_DEBUG"]) return `price-feed: unexpected error\n${err?.stack ?? String(e)}`;
  return `price-feed: unexpected error: ${err?.message ?? String(e)}\nthis is a bug: run again with PRICE_FEED_DEBUG=1 and report the stack it prints.`;
}
