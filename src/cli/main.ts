/**
 * The `price-feed` command: a few lines mapping subcommands to their modules, and the one place that
 * turns errors into exit statuses (README "The command line"):
 *   0 done · 1 the command did not do its work (a bad flag, bad data, a missing folder, a port in
 *   use…; what it would have written is as it was) · 2 ingest: some sources failed, the others landed ·
 *   3 health: something needs the operator.
 * No stack trace reaches the user: an error of ours is one line saying what and where, and one
 * saying what to do; an unexpected one too, with PRICE_FEED_DEBUG=1 to see its stack.
 */
import { promises as fs } from "node:fs";
import { Command, CommanderError, type Option } from "commander";
import { DataError, ERRNO, OutputError, PriceFeedError, UsageError } from "../core/errors.js";
import { buildCommand } from "./build.js";
import { compactCommand } from "./compact.js";
import { demoCommand } from "./demo-command.js";
import { ingestCommand } from "./ingest.js";
import { initCommand } from "./init.js";
import { sampleCommand } from "./sample.js";
import { serveCommand } from "./serve.js";
import { keygenCommand, verifyCommand } from "./verify.js";
import { namesCommand } from "./names.js";
import { healthCommand } from "./health.js";
import { rehearseCommand } from "./rehearse.js";

export const EXIT = { ok: 0, failed: 1, sourcesFailed: 2, needsOperator: 3 } as const;

const EXIT_HELP = `
Exit status:
  0  done
  1  the command did not do its work (a bad flag, a missing folder, a malformed
     file, a port in use): one line says what and where, the next what to do
  2  ingest: some sources failed and were skipped; the others landed
  3  health: something needs the operator (each problem is listed, with what to do)

npm start runs \`demo\`; every command has --help.`;

/**
 * Defaults as a user types them: `data`, not `"data"`; `240/60`, not the parsed object. A flag that
 * is off unless given shows no default.
 */
function optionDescription(option: Option): string {
  const extra: string[] = [];
  const v: unknown = option.defaultValue;
  if (v !== undefined && v !== false && !option.negate)
    extra.push(
      `default: ${option.defaultValueDescription ?? (typeof v === "string" || typeof v === "number" ? String(v) : JSON.stringify(v))}`,
    );
  if (option.envVar !== undefined) extra.push(`env: ${option.envVar}`);
  return extra.length ? `${option.description} (${extra.join(", ")})` : option.description;
}

/** Folder flags that must name an existing, readable folder before the command runs. */
const FOLDERS: Record<string, string[]> = {
  build: ["data"],
  ingest: ["data"],
  compact: ["data"],
  demo: ["data"],
  rehearse: ["data"],
  health: ["data"],
  names: ["data"],
};

async function assertFolder(dir: string, flag: string): Promise<void> {
  const st = await fs.stat(dir).catch((e: NodeJS.ErrnoException) => e);
  if (st instanceof Error) {
    if (st.code === "ENOENT" || st.code === "ENOTDIR")
      throw new UsageError(`${dir}: no such folder (--${flag})`, {
        hint: `run from the project's root (where data/ is), or pass the folder with --${flag} DIR`,
      });
    throw new UsageError(`${dir}: cannot be read (--${flag}: ${st.code ?? st.message})`, {
      hint: "check the folder's permissions, then run the command again",
    });
  }
  if (!st.isDirectory())
    throw new UsageError(`${dir} is a file, not a folder (--${flag})`, {
      hint: `pass the dataset's folder with --${flag} DIR`,
    });
  try {
    await fs.readdir(dir);
  } catch (e) {
    throw new UsageError(
      `${dir}: the folder cannot be read by this user (--${flag}: ${(e as NodeJS.ErrnoException).code ?? "error"})`,
      { hint: "check its permissions, then run the command again", cause: e },
    );
  }
}

export function program(exit: (status: number) => void = () => {}): Command {
  const cli = new Command("price-feed")
    .description("Egypt's licensed money market as a static JSON API: ingest quotes, build the site, serve it.")
    .showHelpAfterError("(add --help for usage)")
    .configureHelp({ optionDescription: (o: Option) => optionDescription(o) })
    .exitOverride();
  initCommand(cli);
  buildCommand(cli);
  ingestCommand(cli, exit);
  compactCommand(cli);
  sampleCommand(cli);
  serveCommand(cli);
  demoCommand(cli);
  verifyCommand(cli, exit);
  keygenCommand(cli);
  healthCommand(cli, exit);
  rehearseCommand(cli, exit);
  namesCommand(cli);
  cli.addHelpText("after", EXIT_HELP);
  for (const c of cli.commands) c.exitOverride();
  cli.hook("preAction", async (_cli, command) => {
    const opts = command.opts<Record<string, unknown>>();
    for (const flag of FOLDERS[command.name()] ?? [])
      if (typeof opts[flag] === "string") await assertFolder(opts[flag], flag);
  });
  return cli;
}

/** What a failed command left as it was, in its own words. */
const UNCHANGED: Record<string, string> = {
  build:
    "nothing was published; the previous site and all data are as they were, but state/build.json, which records the refusal.",
  ingest: "nothing was appended; the data folder is as it was.",
  compact: "nothing was compacted; the data folder is as it was.",
  demo: "the demo did not start; the data it copies is untouched.",
  rehearse: "the rehearsal stopped; the data folder it copies is untouched.",
};

/** What the user reads for a failure of ours: one line saying what and where, one saying what to do. */
export function explain(e: PriceFeedError, command = "build"): string {
  const lines = [`price-feed: ${e.message}`];
  const unchanged = UNCHANGED[command];
  if ((e instanceof DataError || e instanceof OutputError) && unchanged) lines.push(unchanged);
  if (e.hint) lines.push(e.hint);
  return lines.join("\n");
}

export async function main(argv: string[]): Promise<number> {
  let status: number = EXIT.ok;
  const command = argv[2] ?? ""; // the subcommand: price-feed has no options of its own before it
  try {
    await program((s) => (status = s)).parseAsync(argv);
    return status;
  } catch (e) {
    // Commander has already printed its own one-line message (and the help hint) for these.
    if (e instanceof CommanderError) return e.exitCode === 0 ? EXIT.ok : EXIT.failed;
    console.error(e instanceof PriceFeedError ? explain(e, command) : unexpected(e));
    return EXIT.failed;
  }
}

/**
 * An error that is not one of ours. A file-system error still names its path and what to check; a
 * full, read-only or forbidden disk without a path (Node's errors of write(2) carry none; our own
 * writes add it, src/io/atomic-write.ts) still says so in one line, never "a bug"; anything else is
 * a bug, shown as one line unless PRICE_FEED_DEBUG asks for the stack.
 */
function unexpected(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  if (err && typeof err.code === "string" && typeof err.path === "string")
    return `price-feed: ${err.path} ${ERRNO[err.code]?.is ?? `failed (${err.code})`}\ncheck the path and its permissions, then run the command again.`;
  if (err && typeof err.code === "string" && err.code in ERRNO && err.code !== "ENOENT")
    return `price-feed: a file ${ERRNO[err.code]!.is}: ${err.message}\ncheck the disk and the permissions of the folders the command writes, then run it again.`;
  if (process.env["PRICE_FEED_DEBUG"]) return `price-feed: unexpected error\n${err?.stack ?? String(e)}`;
  return `price-feed: unexpected error: ${err?.message ?? String(e)}\nthis is a bug: run again with PRICE_FEED_DEBUG=1 and report the stack it prints.`;
}
