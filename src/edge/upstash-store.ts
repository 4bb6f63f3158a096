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
  type Caps,
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

  hit(client: string, nowMs: number, windowMs: number, caps?: Caps): Promise<Hit | null> {
    return this.run(scriptInputs(client, nowMs, windowMs, caps, true));
  }

  /** The counts without spending (health, preflight); through the same guard, so it can be the probe. */
  peek(client: string, nowMs: number, windowMs: number, caps?: Caps): Promise<Hit | null> {
    return this.run(scriptInputs(client, nowMs, windowMs, caps, false));
  }

  private run({ keys, args }: ReturnType<typeof scriptInputs>): Promise<Hit | null> {
    return this.guard.run(async () => {
      const res = await fetch(this.url, {
        method: "POST",
        headers: { Authorization: `Bearer ${this.token}`, "Content-Type": "application/json" },
        body: JSON.stringify(["EVAL", HIT_SCRIPT, String(keys.length), ...keys, ...args]),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      const body = (await res.json()) as { result?: unknown; error?: string };
      if (!res.ok || body.error) throw new Error(body.error ?? `HTTP ${res.status}`);
      return hitFromReply(body.result);
    });
  }
}
