import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/helpers/compile.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Files run side by side, one per core and at least two: most of their time is spent waiting on
    // child processes, a browser, sockets and the disk, so on a 2-core machine vitest's default
    // (cores - 1, i.e. one file at a time) leaves a core idle. The slowest files start first (vitest
    // orders files by their last duration), so the browser file runs beside all the others.
    maxWorkers: Math.max(2, availableParallelism()),
    // A worker keeps the modules it has imported from one file to the next instead of importing them
    // all again (a fifth of the run's CPU). So a test file leaves the process as it found it: what it
    // replaces (console, timers) it restores, and it mocks no module (vi.mock would outlive it).
    isolate: false,
  },
});
