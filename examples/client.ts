/**
 * A small typed client of the price feed. Its types come from the published OpenAPI description:
 *
 *   npx openapi-typescript http://127.0.0.1:8888/api/v1/openapi.json -o examples/price-feed.d.ts
 *   npx tsx examples/client.ts http://127.0.0.1:8888 metals
 *
 * It polls politely: it keeps the ETag and sends it back, so an unchanged feed costs a 304.
 * (npm test generates the types from a fresh build, compiles this file against them with tsc and
 * runs it against the local server.)
 */
import type { components, paths } from "./price-feed.js";

type Feed = paths["/api/v1/feed.json"]["get"]["responses"]["200"]["content"]["application/json"];
type Problem = components["schemas"]["Problem"];
type Query = NonNullable<paths["/api/v1/feed.json"]["get"]["parameters"]["query"]>;
type Asset = components["schemas"]["Asset"];
type Category = NonNullable<Query["category"]>[number];

export class PriceFeed {
  private etag: string | null = null;
  private last: Feed | null = null;

  constructor(
    private readonly base: string,
    private readonly contact = "price-feed example client (https://github.com/price-feed)",
  ) {}

  /** The feed, filtered; reuses the previous copy when the server answers 304. */
  async feed(query: Query = {}): Promise<{ feed: Feed; fromCache: boolean }> {
    const url = new URL("/api/v1/feed.json", this.base);
    if (query.category?.length) url.searchParams.set("category", query.category.join(","));
    if (query.asset?.length) url.searchParams.set("asset", query.asset.join(","));
    const headers: Record<string, string> = { "X-Contact": this.contact };
    if (this.etag) headers["If-None-Match"] = this.etag;
    const res = await fetch(url, { headers });
    if (res.status === 304 && this.last) return { feed: this.last, fromCache: true };
    if (!res.ok) {
      const problem = (await res.json()) as Problem;
      throw new Error(`${problem.status} ${problem.title}: ${problem.detail}`);
    }
    this.etag = res.headers.get("ETag");
    this.last = (await res.json()) as Feed;
    return { feed: this.last, fromCache: false };
  }
}

function line(a: Asset): string {
  const sell = a.directions.sell;
  const buy = a.directions.buy;
  return `${a.id} sell ${sell.best?.value ?? "-"} (${sell.verdict}) buy ${buy.best?.value ?? "-"} (${buy.verdict}) ${a.freshness.state}`;
}

async function main(base: string, category: string | undefined): Promise<void> {
  const client = new PriceFeed(base);
  // An unknown category is the server's to refuse: its 400 lists validCategories, shown by feed().
  const query: Query = category ? { category: [category as Category] } : {};
  const first = await client.feed(query);
  for (const a of first.feed.assets) console.log(line(a));
  const again = await client.feed(query);
  console.log(again.fromCache ? "second request: 304, copy reused" : "second request: 200, data changed");
}

const [base = "http://127.0.0.1:8888", category] = process.argv.slice(2);
main(base, category).catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
