// Zip archives built with fflate for the installer's tests (real archives, including hostile ones).
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { zipSync, type Zippable } from "fflate";

export interface ZipEntrySpec {
  /** Bytes or text; a name ending in "/" with no data is a folder entry. */
  data?: Uint8Array | string;
  /** Unix mode including the file type bits (e.g. 0o100644, 0o120777 for a symlink). */
  mode?: number;
}

/** A zip whose entries are exactly `entries` (names as given, made on Unix when a mode is set). */
export function zipOf(entries: Record<string, ZipEntrySpec | string>, level: 0 | 9 = 9): Buffer {
  const zippable: Zippable = {};
  for (const [name, spec] of Object.entries(entries)) {
    const entry: ZipEntrySpec = typeof spec === "string" ? { data: spec } : spec;
    const data =
      typeof entry.data === "string"
        ? new TextEncoder().encode(entry.data)
        : (entry.data ?? new Uint8Array(0));
    zippable[name] = [
      data,
      entry.mode !== undefined ? { os: 3, attrs: (entry.mode << 16) >>> 0, level } : { level },
    ];
  }
  return Buffer.from(zipSync(zippable));
}

/** Every file below `folder`, as zip entries under `top/` with their real modes. */
export async function zipFolder(folder: string, top: string): Promise<Buffer> {
  const entries: Record<string, ZipEntrySpec> = {};
  const walk = async (relative: string): Promise<void> => {
    for (const name of await readdir(path.join(folder, relative))) {
      const inner = relative ? `${relative}/${name}` : name;
      const info = await stat(path.join(folder, inner));
      if (info.isDirectory()) await walk(inner);
      else entries[`${top}/${inner}`] = { data: await readFile(path.join(folder, inner)), mode: info.mode };
    }
  };
  await walk("");
  return zipOf(entries);
}

/**
 * Rewrites the uncompressed size an entry's headers declare (local and central), leaving the data: a
 * zip bomb that lies about its size.
 */
export function declareSize(zip: Buffer, entryName: string, size: number): Buffer {
  const copy = Buffer.from(zip);
  const name = Buffer.from(entryName);
  for (let offset = 0; offset + 46 < copy.length; offset++) {
    const signature = copy.readUInt32LE(offset);
    if (signature === 0x04034b50) {
      const nameLength = copy.readUInt16LE(offset + 26);
      if (copy.subarray(offset + 30, offset + 30 + nameLength).equals(name))
        copy.writeUInt32LE(size, offset + 22);
    } else if (signature === 0x02014b50) {
      const nameLength = copy.readUInt16LE(offset + 28);
      if (copy.subarray(offset + 46, offset + 46 + nameLength).equals(name))
        copy.writeUInt32LE(size, offset + 24);
    }
  }
  return copy;
}
