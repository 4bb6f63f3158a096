/** The adapters by name, as the sources file's `adapter` field selects them. */
import type { SourceConfig } from "../../schema/sources.js";
import type { AdapterContext, Observations } from "./types.js";
import { cbeAdapter } from "./cbe.js";
import { demoAdapter } from "./demo.js";
import { globalRatesAdapter } from "./global-rates.js";
import { htmlAdapter } from "./html.js";
import { sellerDocumentAdapter } from "./seller-document.js";
import { xmlAdapter } from "./xml.js";

export function runAdapter(cfg: SourceConfig, shared: AdapterContext): Promise<Observations> {
  // Each source's own say on where its redirects may lead (src/ingest/redirects.ts).
  const ctx: AdapterContext =
    cfg.allowPrivateRedirects === true ? { ...shared, http: { ...shared.http, allowPrivateRedirects: true } } : shared;
  switch (cfg.adapter) {
    case "demo":
      return demoAdapter(cfg, ctx);
    case "cbe":
      return cbeAdapter(cfg, ctx);
    case "global-rates":
      return globalRatesAdapter(cfg, ctx);
    case "seller-document":
      return sellerDocumentAdapter(cfg, ctx);
    case "html":
      return htmlAdapter(cfg, ctx);
    case "xml":
      return xmlAdapter(cfg, ctx);
  }
}

/** Adapters that reach the network, and so need a contact for their User-Agent. */
export const usesNetwork = (cfg: SourceConfig) =>
  cfg.adapter === "cbe" ||
  cfg.adapter === "global-rates" ||
  ((cfg.adapter === "seller-document" || cfg.adapter === "html" || cfg.adapter === "xml") && cfg.url !== undefined);
