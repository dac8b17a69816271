import { byName } from "../../protocol/names.ts";
import { opendir } from "node:fs/promises";
import path from "node:path";
import { hiddenHomeEntryAt } from "../home-secrets.ts";
import {
  openChild,
  PathRefused,
  selfPath,
  type ConfinedTarget,
  type OpenedEntry,
  type Purpose,
} from "./confined-fs.ts";

/** Folders never walked by list_files and search_code: huge, generated, or version-control internals. */
export const SKIPPED_FOLDERS = new Set([".git", "node_modules"]);

export interface WalkEntry {
  /** Relative to the working directory, `/` separators. */
  fromRoot: string;
  /** Relative to the walk's base folder, `/` separators. */
  relative: string;
  isSymlink: boolean;
}

export interface WalkSummary {
  visited: number;
  exhausted: boolean;
  /** Folders (relative to the working directory) that changed during the walk and were not entered. */
  changedFolders: string[];
}

/** Directory entries visited at most per walk, so a huge tree cannot stall a call. */
export const MAX_VISITED_ENTRIES = 100_000;

/**
 * Files below an open, verified folder, depth first in name order (a folder's files before its
 * subfolders). Each subfolder is opened from its parent's descriptor without following symlinks and
 * verified (confined-fs), so a folder swapped for a symlink mid-walk is skipped and reported, never entered.
 * Symlinks are reported as entries, not followed. `.git`, `node_modules` and the home's secrets are skipped.
 */
export async function* walkFiles(
  base: OpenedEntry,
  target: ConfinedTarget,
  purpose: Purpose,
  signal?: AbortSignal,
): AsyncGenerator<WalkEntry, WalkSummary> {
  const summary: WalkSummary = { visited: 0, exhausted: true, changedFolders: [] };
  yield* walkFolder(base, "", target, purpose, summary, signal);
  return summary;
}

async function* walkFolder(
  folder: OpenedEntry,
  relative: string,
  target: ConfinedTarget,
  purpose: Purpose,
  summary: WalkSummary,
  signal?: AbortSignal,
): AsyncGenerator<WalkEntry, void> {
  if (signal?.aborted) {
    summary.exhausted = false;
    return;
  }
  let names: { name: string; isDirectory: boolean; isSymlink: boolean; isFile: boolean }[];
  try {
    names = [];
    for await (const entry of await opendir(selfPath(folder))) {
      names.push({
        name: entry.name,
        isDirectory: entry.isDirectory(),
        isSymlink: entry.isSymbolicLink(),
        isFile: entry.isFile(),
      });
    }
  } catch {
    // An unreadable folder is skipped, like `find` does; the walk goes on.
    return;
  }
  names.sort(byName);
  const subfolders: string[] = [];
  for (const entry of names) {
    summary.visited++;
    if (summary.visited > MAX_VISITED_ENTRIES) {
      summary.exhausted = false;
      return;
    }
    const entryRelative = relative === "" ? entry.name : `${relative}/${entry.name}`;
    // A workdir holding the home folder: its secrets are not listed or searched (see confine.ts).
    if (hiddenHomeEntryAt(path.join(folder.real, entry.name))) continue;
    if (entry.isDirectory) {
      if (!SKIPPED_FOLDERS.has(entry.name)) subfolders.push(entry.name);
    } else if (entry.isFile || entry.isSymlink) {
      yield {
        fromRoot: join(folder.relative, entry.name),
        relative: entryRelative,
        isSymlink: entry.isSymlink,
      };
    }
  }
  for (const name of subfolders) {
    if (summary.visited > MAX_VISITED_ENTRIES || signal?.aborted) {
      summary.exhausted = false;
      return;
    }
    let child: OpenedEntry;
    try {
      child = await openChild(folder, name, target, purpose, "folder");
    } catch (error) {
      // Swapped for a symlink or moved since it was listed: not entered, and said so.
      if (error instanceof PathRefused) summary.changedFolders.push(join(folder.relative, name));
      continue;
    }
    try {
      yield* walkFolder(
        child,
        relative === "" ? name : `${relative}/${name}`,
        target,
        purpose,
        summary,
        signal,
      );
    } finally {
      await child.handle.close();
    }
  }
}

function join(folderRelative: string, name: string): string {
  return folderRelative === "." ? name : `${folderRelative}/${name}`;
}

/** The note a file tool adds when paths changed under it and were skipped (so the model knows why). */
export function changedPathsNote(changed: readonly string[]): string | undefined {
  if (changed.length === 0) return undefined;
  const shown = changed.slice(0, 5).join(", ");
  const more = changed.length > 5 ? ", …" : "";
  return `[${changed.length} path(s) changed during the call (a symlink was swapped in, or a folder moved) and were skipped: ${shown}${more}]`;
}

/** Runs a walk to its end: every entry, and the summary it returned. */
export async function collectWalk(
  walk: AsyncGenerator<WalkEntry, WalkSummary>,
): Promise<{ entries: WalkEntry[]; summary: WalkSummary }> {
  const entries: WalkEntry[] = [];
  for (let step = await walk.next(); ; step = await walk.next()) {
    if (step.done) return { entries, summary: step.value };
    entries.push(step.value);
  }
}
