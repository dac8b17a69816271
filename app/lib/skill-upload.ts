// "Add skill" on the page side: a picked folder becomes a .zip (fflate) with its one top-level folder, and a
// .zip becomes the `skill_upload` chunks (base64, 512 KiB each, so every frame stays under the server's
// 1 MiB limit). The server checks everything again; this only packs.
import { zipSync, type Zippable } from "fflate";
import type { ClientCommand } from "../../server/protocol/index.ts";

export const UPLOAD_CHUNK_BYTES = 512 * 1024;

/** Base64 of bytes without building one huge argument list (btoa takes a binary string). */
export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let offset = 0; offset < bytes.length; offset += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(offset, offset + 0x8000));
  return btoa(binary);
}

export function uploadChunks(
  sessionId: string,
  uploadId: string,
  bytes: Uint8Array,
): Extract<ClientCommand, { type: "skill_upload" }>[] {
  const count = Math.max(1, Math.ceil(bytes.length / UPLOAD_CHUNK_BYTES));
  return Array.from({ length: count }, (_, index) => ({
    type: "skill_upload" as const,
    sessionId,
    uploadId,
    index,
    count,
    data: toBase64(bytes.subarray(index * UPLOAD_CHUNK_BYTES, (index + 1) * UPLOAD_CHUNK_BYTES)),
  }));
}

export interface PickedFile {
  /** `folder/inner/path` as the browser reports it (webkitRelativePath). */
  relativePath: string;
  bytes: Uint8Array;
}

/**
 * Zips a picked folder as it is: its relative paths keep the folder as the one top-level entry. `.git`
 * and `node_modules` are left out (as the server's folder install does).
 */
export function zipPickedFolder(files: PickedFile[]): Uint8Array {
  const zippable: Zippable = {};
  for (const file of files) {
    if (file.relativePath.split("/").some((part) => part === ".git" || part === "node_modules")) continue;
    zippable[file.relativePath] = [file.bytes, { level: 6 }];
  }
  return zipSync(zippable);
}

/** An id the server accepts (`[A-Za-z0-9_-]`, ≤ 64). */
export function newUploadId(): string {
  return `u${Date.now().toString(36)}${Math.floor(Math.random() * 1e9).toString(36)}`;
}
