/**
 * Rate-limit counters in Upstash Redis over its REST API, for the Netlify edge (no TCP there):
 * `POST <url>` with a JSON array command and a bearer token; the answer is `{"result": …}`. What it
 * counts and how it fails open is ScriptStore's (counters.ts); this module only carries the script.
 */
import { HIT_SCRIPT, STORE_BUDGET_MS, ScriptStore } from "./counters.js";

export class UpstashStore extends ScriptStore {
  constructor(
    private readonly url: string,
    private readonly token: string,
    log: (line: string) => void = console.error,
    private readonly timeoutMs = STORE_BUDGET_MS,
  ) {
    super("Upstash Redis", log);
  }

  protected async evalScript(keys: readonly string[], args: readonly string[]): Promise<unknown> {
    const res = await fetch(this.url, {
      method: "POST",
      headers: { Authorization: `Bearer ${this.token}`, "Content-Type": "application/json" },
      body: JSON.stringify(["EVAL", HIT_SCRIPT, String(keys.length), ...keys, ...args]),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    const body = (await res.json()) as { result?: unknown; error?: string };
    if (!res.ok || body.error) throw new Error(body.error ?? `HTTP ${res.status}`);
    return body.result;
  }
}
