import { main } from "./price-feed.js";

process.exitCode = await main(process.argv);
