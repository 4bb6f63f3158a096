/** `price-feed demo`'s flags; the demo itself (src/jobs/demo/loop.ts) is loaded only when it runs. */
import { Option, type Command } from "commander";
import { parseNow, port } from "./options.js";

interface DemoFlags {
  data: string;
  work: string;
  port: number;
  host: string;
  now?: number;
}

export function demoCommand(program: Command): void {
  program
    .command("demo")
    .description(
      "the live demo (npm start): copy data/ into a git-ignored folder, bring the simulated market up to now, build and serve it, and run the hourly job (ingest, compact, build) on the copy every hour",
    )
    .option("--data <dir>", "the dataset to copy (only read)", "data")
    .option("--work <dir>", "the working folder: the copy and the built site (replaced at each start)", ".demo")
    .addOption(new Option("--port <n>", "the port (0: any free port)").argParser(port).default(8888).env("PORT"))
    .option("--host <host>", "the address to listen on", "127.0.0.1")
    .addOption(
      new Option(
        "--now <iso>",
        "start the demo's clock at this instant, ISO 8601 with an offset; it advances in real time, and builds and the server share it (default: the real clock)",
      ).argParser(parseNow),
    )
    .action(async (o: DemoFlags) => {
      const { startDemo } = await import("../jobs/demo/loop.js"); // the loop, the server and the build: loaded to run
      const { data, work, port, host, now } = o;
      const demo = await startDemo({ data, work, port, host, ...(now === undefined ? {} : { startMs: now }) });
      await new Promise<void>((resolve) => {
        const stop = (signal: string) => {
          console.log(`${signal}: stopping the demo`);
          void demo.stop().then(resolve);
        };
        process.once("SIGINT", stop);
        process.once("SIGTERM", stop);
      });
    });
}
