import { opendir } from "node:fs/promises";
import path from "node:path";
import { SKIPPED_FOLDERS } from "./common.ts";

export interface WalkEntry {
  absolute: string;
  /** Relative to the walk's base folder, `/` separators. */
  relative: string;
  isSymlink: boolean;
}

/** Directory entries visited at most per walk, so a huge tree cannot stall a call. */
export const MAX_VISITED_ENTRIES = 100_000;

/**
 * Files below `base`, depth first in name order. Symlinked folders are not followed (no escape, no loops);
 * symlinks are reported as entries. `.git` and `node_modules` are skipped.
 */
export async function* walkFiles(
  base: string,
  signal?: AbortSignal,
): AsyncGenerator<WalkEntry, { visited: number; exhausted: boolean }> {
  let visited = 0;
  const pending: string[] = [""];
  while (pending.length > 0) {
    if (signal?.aborted) return { visited, exhausted: false };
    const folder = pending.pop()!;
    let names: { name: string; isDirectory: boolean; isSymlink: boolean; isFile: boolean }[];
    try {
      const handle = await opendir(path.join(base, folder));
      names = [];
      for await (const entry of handle) {
        names.push({
          name: entry.name,
          isDirectory: entry.isDirectory(),
          isSymlink: entry.isSymbolicLink(),
          isFile: entry.isFile(),
        });
      }
    } catch {
      // An unreadable folder is skipped, like `find` does; the walk goes on.
      continue;
    }
    names.sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
    const subfolders: string[] = [];
    for (const entry of names) {
      visited++;
      if (visited > MAX_VISITED_ENTRIES) return { visited, exhausted: false };
      const relative = folder === "" ? entry.name : `${folder}/${entry.name}`;
      if (entry.isDirectory) {
        if (!SKIPPED_FOLDERS.has(entry.name)) subfolders.push(relative);
      } else if (entry.isFile || entry.isSymlink) {
        yield { absolute: path.join(base, relative), relative, isSymlink: entry.isSymlink };
      }
    }
    // Reverse so pop() visits subfolders in name order.
    for (let index = subfolders.length - 1; index >= 0; index--) pending.push(subfolders[index]!);
  }
  return { visited, exhausted: true };
}
