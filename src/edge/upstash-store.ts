/**
 * Rate-limit counters in Upstash Redis over its REST API, for the Netlify edge (no TCP there):
 * `POST <url>` with a JSON array command and a bearer token; the answer is `{"result": …}`.
 */
import {
  FailOpen,
  HIT_SCRIPT,
  STORE_BUDGET_MS,
  hitFromReply,
  scriptInputs,
  type CounterStore,
  type Hit,
} from "./counters.js";

export class UpstashStore implements CounterStore {
  private readonly guard: FailOpen;
  constructor(
    private readonly url: string,
    private readonly token: string,
    log: (line: string) => void = console.error,
    private readonly timeoutMs = STORE_BUDGET_MS,
  ) {
    this.guard = new FailOpen("Upstash Redis", log);
  }

  hit(client: string, nowMs: number, windowMs: number): Promise<Hit | null> {
    return this.guard.run(async () => {
      const { keys, args } = scriptInputs(client, nowMs, windowMs);
      const res = await fetch(this.url, {
        method: "POST",
        headers: { Authorization: `Bearer ${this.token}`, "Content-Type": "application/json" },
        body: JSON.stringify(["EVAL", HIT_SCRIPT, "2", ...keys, ...args]),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      const body = (await res.json()) as { result?: unknown; error?: string };
      if (!res.ok || body.error) throw new Error(body.error ?? `HTTP ${res.status}`);
      return hitFromReply(body.result);
    });
  }
}
