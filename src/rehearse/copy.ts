/** The rehearsal's copy of a configuration (src/rehearse/run.ts), and the throwaway key it signs with. */
import { createHash, createPrivateKey, createPublicKey } from "node:crypto";
import { promises as fs } from "node:fs";
import path from "node:path";
import { instantString } from "../core/cairo.js";
import { CONFIG_FILES, DATA_FOLDERS } from "../core/data-layout.js";
import { fromBase64url, keyIdOf } from "../core/statement.js";
import type { Sources } from "../schema/inputs.js";

/**
 * A throwaway Ed25519 key made from the seed (RFC 8032 §5.1.5: the private key is 32 bytes; RFC
 * 8410's PKCS#8 wraps them), so the same seed signs the same bytes: a replay is byte for byte.
 */
export async function throwawayKey(seed: string, validFromMs: number) {
  const raw = createHash("sha256").update(`price-feed rehearsal key/${seed}`).digest();
  const der = Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), raw]);
  const key = createPrivateKey({ key: der, format: "der", type: "pkcs8" });
  const publicKey = (createPublicKey(key).export({ format: "jwk" }) as { x: string }).x;
  const id = await keyIdOf(fromBase64url(publicKey)!);
  return {
    pem: key.export({ format: "pem", type: "pkcs8" }) as string,
    entry: {
      id,
      alg: "Ed25519" as const,
      publicKey,
      validFrom: instantString(Math.floor(validFromMs / 1000) * 1000),
      validUntil: null,
    },
  };
}

/** The files a configuration is: CONFIG_FILES, and any file a source reads from the folder (`path`). */
export async function copyConfiguration(from: string, to: string, sources: Sources): Promise<void> {
  await fs.mkdir(to, { recursive: true });
  for (const f of Object.values(CONFIG_FILES)) await fs.copyFile(path.join(from, f), path.join(to, f));
  for (const folder of DATA_FOLDERS) await fs.mkdir(path.join(to, folder), { recursive: true });
  for (const s of sources.sources)
    if ("path" in s && typeof s.path === "string" && !path.isAbsolute(s.path)) {
      const target = path.join(to, s.path);
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.cp(path.join(from, s.path), target, { recursive: true }).catch(() => {});
    }
}
