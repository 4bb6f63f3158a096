/**
 * How the bin starts the command line fast: it compiles the one-file bundle that `npm run compile`
 * makes (dist/cli/main.bundle.cjs, scripts/bundle-cli.mjs) with V8's code cache, so that a second
 * run of a command neither parses nor compiles again what the first one ran. Node 20 has no cache
 * for ES modules (module.enableCompileCache came with Node 22); a classic script has one (vm.Script
 * `cachedData`), and a bundle is one script.
 *
 * The cache is one file per command and Node major version (`build-v24-<key>.v8`), written after a
 * run that succeeded, when there was none or V8 refused it (another Node, other V8 flags). Its key is
 * a SHA-256 of the Node version and the bundle's text, because V8 checks only the source's length: a
 * rebuilt bundle of the same length must not find old code. Writing one drops the command's older
 * files of the same Node major and keeps the other majors': a tree run by two Nodes in turn (`npm
 * test` runs the tests on Node 24 and compares a build on Node 20) keeps one cache for each rather
 * than each run replacing the other's. It lives beside the bundle (dist/cli/.cache/); a cache that
 * cannot be read or written is simply not used — it is a saving, never a requirement. Without the bundle (only `tsc` has run), or with
 * PRICE_FEED_DEBUG set, the bin loads the modules as they are, so that a stack names their files
 * (and, under `node --enable-source-maps`, the TypeScript lines: Node 20 maps no vm.Script).
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import { commandHeapFlags, setHeapFlags } from "./heap.js";

type Main = (argv: string[]) => Promise<number>;

export const BUNDLE_FILE = fileURLToPath(new URL("./main.bundle.cjs", import.meta.url));
export const CACHE_DIR = path.join(path.dirname(BUNDLE_FILE), ".cache");

/** The cache file of one command's runs of one bundle on this Node (or `version`) and machine. */
export function cacheFile(bundle: Buffer, command: string, version = process.version): string {
  // The bytes, not the decoded text: hashing a 3 MB string re-encodes it first (about 15 ms).
  const key = createHash("sha256").update(`${version} ${process.arch}\n`).update(bundle).digest("hex");
  const name = /^[a-z]+$/.test(command) ? command : "other";
  return path.join(CACHE_DIR, `${name}-${version.split(".")[0]}-${key.slice(0, 16)}.v8`);
}

/** The cache files to drop when `file` is written: the same command's, but not another Node major's. */
export function supersededBy(file: string, existing: readonly string[]): string[] {
  const [command, major] = path.basename(file).split("-");
  return existing.filter((old) => {
    if (old === path.basename(file) || !old.startsWith(`${command}-`)) return false;
    const otherMajor = /^[a-z]+-(v\d+)-[0-9a-f]+\.v8$/.exec(old)?.[1];
    return otherMajor === undefined || otherMajor === major;
  });
}

const readOrNull = (file: string): Buffer | undefined => {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
};

/** Writes the cache atomically (a reader never sees half a file) and drops what it supersedes. */
function saveCache(file: string, data: Buffer): void {
  try {
    mkdirSync(CACHE_DIR, { recursive: true });
    for (const old of supersededBy(file, readdirSync(CACHE_DIR))) rmSync(path.join(CACHE_DIR, old), { force: true });
    const tmp = `${file}.tmp-${process.pid}`;
    writeFileSync(tmp, data);
    renameSync(tmp, file);
  } catch {
    // A read-only install or a full disk: the next run compiles again, as Node would without a cache.
  }
}

/** Runs the command line of argv, from the bundle with its code cache when there is one; its exit status. */
export async function runCli(argv: string[]): Promise<number> {
  // A command with a heap of its own (src/cli/heap.ts) runs on a worker thread made under its flags.
  const heapFlags = isMainThread ? commandHeapFlags(argv[2] ?? "") : [];
  if (heapFlags.length) return runOnHeap(argv, heapFlags);
  const bundle = process.env["PRICE_FEED_DEBUG"] ? undefined : readOrNull(BUNDLE_FILE);
  if (bundle === undefined) return ((await import("./main.js")) as { main: Main }).main(argv);
  const source = bundle.toString("utf8");
  const file = cacheFile(bundle, argv[2] ?? "");
  const useCache = !process.env["PRICE_FEED_NO_CODE_CACHE"];
  const cachedData = useCache ? readOrNull(file) : undefined;
  // The CommonJS wrapper, as Node's own loader compiles a .cjs file.
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: BUNDLE_FILE,
    cachedData,
  });
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  const mod = { exports: {} as { main: Main } };
  wrapper.call(mod.exports, mod.exports, createRequire(BUNDLE_FILE), mod, BUNDLE_FILE, path.dirname(BUNDLE_FILE));
  const status = await mod.exports.main(argv);
  // After the run: the cache then holds every function the command compiled, not only the top level.
  if (useCache && status === 0 && (cachedData === undefined || script.cachedDataRejected))
    saveCache(file, script.createCachedData());
  return status;
}

/** What a worker thread running a command is given: src/cli/heap.ts says why. */
interface CommandWorker {
  priceFeedArgv: string[];
}

/**
 * Runs the command on a worker thread whose heap V8 sizes under the command's flags: V8 reads
 * them when it makes an isolate's heap, not once the process runs (heap.ts). Everything of the
 * command, its messages and its exit status included, happens there; the worker's standard output
 * and error are this process's, and ending this process ends it.
 */
async function runOnHeap(argv: string[], flags: readonly string[]): Promise<number> {
  // Left set: this thread only waits, and the worker's code cache (made and checked under V8's
  // flags) sees the same flags at every run.
  setHeapFlags(flags);
  const worker = new Worker(fileURLToPath(import.meta.url), {
    workerData: { priceFeedArgv: argv } satisfies CommandWorker,
  });
  return new Promise((resolve, reject) => {
    let status: number = 1;
    worker.on("message", (s: number) => (status = s));
    worker.once("error", reject);
    worker.once("exit", () => resolve(status));
  });
}

if (!isMainThread && (workerData as Partial<CommandWorker> | null)?.priceFeedArgv)
  parentPort!.postMessage(await runCli((workerData as CommandWorker).priceFeedArgv));
