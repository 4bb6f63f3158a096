/**
 * Flag parsers shared by the commands. Each rejects a bad value with a message that says what was
 * expected, and commander prints it as one line (exit status 1).
 */
import { InvalidArgumentError, Option } from "commander";
import { parseInstant } from "../core/cairo.js";

export interface Rate {
  window: number;
  windowSeconds: number;
}

export function parseRate(value: string): Rate {
  const m = /^(\d+)\/(\d+)$/.exec(value);
  if (!m || Number(m[1]) < 1 || Number(m[2]) < 1)
    throw new InvalidArgumentError(`"${value}" is not N/SECONDS, e.g. 240/60`);
  return { window: Number(m[1]), windowSeconds: Number(m[2]) };
}

export function port(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535)
    throw new InvalidArgumentError(`"${value}" is not a port number (0–65535; 0 picks any free port)`);
  return n;
}

export function parseNow(value: string): number {
  const ms = parseInstant(value);
  if (ms === null)
    throw new InvalidArgumentError(`"${value}" is not an ISO 8601 instant with an offset, e.g. 2026-11-19T12:00:00Z`);
  return ms;
}

export function positiveInt(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || !Number.isSafeInteger(n))
    throw new InvalidArgumentError(`"${value}" is not a positive integer`);
  return n;
}

/** `--now`: every command that acts at an instant takes it, so build, serve and ingest can share one clock. */
export const nowOption = () =>
  new Option("--now <iso>", "the instant to act at, ISO 8601 with an offset (default: the real clock)").argParser(
    parseNow,
  );
