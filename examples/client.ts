/**
 * Using the client package (client/, published as @price-feed/client) from an app: the feed of a
 * category, printed one asset a line, with how old its build is (stale past 2 hours, and the assets
 * it calls stale), then asked again, which the package answers from its copy (within the answer's
 * max-age it sends nothing; after it, a conditional request that costs a 304).
 *
 *   npx tsx examples/client.ts http://127.0.0.1:8888 metals
 *   npx tsx examples/client.ts https://prices.example.org currencies https://owner.github.io/price-feed
 *
 * The third argument is the mirror: while the primary fails, the package reads the mirror's files.
 * (npm test type-checks this file with tsc under examples/tsconfig.json and runs it against the
 * local server: test/e2e/client.test.ts.) In an app, import from "@price-feed/client" instead.
 */
import { PriceFeedClient, PriceFeedProblem, type Answer, type Asset, type Feed } from "../client/src/index.js";

function line(a: Asset): string {
  const sell = a.directions.sell;
  const buy = a.directions.buy;
  return `${a.id} sell ${sell.best?.value ?? "-"} (${sell.verdict}) buy ${buy.best?.value ?? "-"} (${buy.verdict}) ${a.freshness.state}`;
}

/** "40 min", "5 h", "3 d": how long ago the build was made. */
function ago(ms: number): string {
  const min = Math.round(ms / 60_000);
  return min < 120 ? `${min} min` : min < 48 * 60 ? `${Math.round(min / 60)} h` : `${Math.round(min / 1440)} d`;
}

/** What the answer says of its age: the build instant, how long ago, and what is stale. */
function age(a: Answer<Feed>): string {
  const when = `built ${a.generatedAt} (${ago(a.age ?? 0)} ago)`;
  const stale = a.stale ? ": stale, older than 2 h" : "";
  const assets = a.staleAssets.length ? `; stale assets: ${a.staleAssets.join(", ")}` : "";
  return `${when}${stale}${assets}`;
}

async function main(primary: string, category: string | undefined, mirror: string | undefined): Promise<void> {
  const client = new PriceFeedClient({
    primary,
    mirror,
    contact: "price-feed example client (https://github.com/price-feed)",
  });
  // An unknown category is the server's to refuse: its 400 lists validCategories (PriceFeedProblem).
  const filter = category ? { category: [category] } : {};
  const first = await client.feed(filter);
  for (const a of first.body.assets) console.log(line(a));
  console.log(age(first));
  if (first.home === "mirror") console.log(`(from the mirror: ${first.url})`);
  const again = await client.feed(filter);
  const sent = client.requests.primary + client.requests.mirror;
  console.log(`second call: ${again.fromCache ? "copy reused" : "data changed"}, ${sent} request sent in all`);
}

const [primary = "http://127.0.0.1:8888", category, mirror] = process.argv.slice(2);
main(primary, category, mirror).catch((e: unknown) => {
  console.error(e instanceof PriceFeedProblem || e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
