import { createHash, hash } from "node:crypto";

/**
 * Hex sha256 of a UTF-8 string; used to show that the stable system did not change between requests,
 * and as the content hash of every prompt segment. The one-shot `crypto.hash` (Node ≥ 20.12) creates no
 * Hash object per call, which matters at one call per message and section.
 */
export function sha256Hex(text: string): string {
  return typeof hash === "function"
    ? hash("sha256", text, "hex")
    : createHash("sha256").update(text, "utf8").digest("hex");
}
