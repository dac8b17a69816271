import { createHash } from "node:crypto";

/** Hex sha256 of a UTF-8 string; used to show that the stable system did not change between requests. */
export function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}
