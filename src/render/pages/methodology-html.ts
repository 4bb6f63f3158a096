/**
 * docs/methodology.md as the docs page's HTML. The bundle carries it rendered at compile time
 * (src/core/precomputed.ts), used while the file is still the text compiled in; otherwise it is
 * rendered here and now (methodology.ts). That module, and marked with it, is loaded only then:
 * marked's set-up would slow every cold start for a page the bundle already has (docs/performance.md).
 */
import { precomputed } from "../../core/precomputed.js";

export async function methodologyHtml(markdown: string): Promise<string> {
  const done = precomputed?.methodology;
  if (done?.markdown === markdown) return done.html;
  return (await import("./methodology.js")).renderMethodology(markdown);
}
