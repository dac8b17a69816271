import { randomBytes } from "node:crypto";
import { constants, existsSync, type Stats } from "node:fs";
import { lstat, mkdir, open, readlink, rename, unlink, type FileHandle } from "node:fs/promises";
import path from "node:path";

/**
 * The only way the file tools touch the filesystem. Confinement (confine.ts) decides on real paths, but a
 * path checked is not a path used: another process can swap a folder for a symlink in between. So every
 * file and folder is opened here one component at a time, each relative to the descriptor of its parent
 * (`/proc/self/fd/<fd>/<name>`, the openat() Node does not have) with O_NOFOLLOW: no symlink is ever
 * followed after the check. What was opened is then verified by its descriptor's real path before a byte
 * is read or written, which also catches a held folder being moved out of the working directory.
 * Writes go to an O_EXCL temp file in the held folder, are fsynced, renamed over the target and verified
 * again; whatever fails, the temp file is removed. A lost race is a PathRefused, never a stray access.
 */

/** A refusal found while using a path: it changed between the check and the use. */
export class PathRefused extends Error {}

/** The two things every confined operation needs: the workdir's realpath and a real relative path in it. */
export interface ConfinedTarget {
  root: string;
  /** Real relative path with `/` separators, "." for the workdir itself. */
  relative: string;
}

/** An open file or folder of the working directory and the real path it was verified at. */
export interface OpenedEntry {
  handle: FileHandle;
  real: string;
  relative: string;
  stats: Stats;
}

export type Purpose = "reading" | "writing" | "listing" | "searching";

// On Linux a path through /proc/self/fd/N resolves from the open folder itself, so a lookup can never be
// redirected by a change to the folders above it. Elsewhere the real path is used, and what was opened is
// still verified (by device and inode) before use.
const PROC_FD = existsSync("/proc/self/fd");
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const DIRECTORY = constants.O_DIRECTORY ?? 0;
// A FIFO opened for reading would block until a writer appears; non-blocking open returns at once, and
// anything that is not a regular file is refused from its stats before any read.
const NONBLOCK = constants.O_NONBLOCK ?? 0;
const READ_FLAGS = constants.O_RDONLY | NOFOLLOW | NONBLOCK;
const FOLDER_FLAGS = constants.O_RDONLY | NOFOLLOW | DIRECTORY;
const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW;

/** The path of `name` inside an open folder, resolved from the folder's descriptor. */
export function childPath(folder: OpenedEntry, name: string): string {
  return PROC_FD ? `/proc/self/fd/${folder.handle.fd}/${name}` : path.join(folder.real, name);
}

/** A path naming the open folder itself (for opendir). */
export function selfPath(folder: OpenedEntry): string {
  return PROC_FD ? `/proc/self/fd/${folder.handle.fd}` : folder.real;
}

function changed(relative: string, purpose: Purpose, what: string): PathRefused {
  return new PathRefused(
    `${relative === "." ? "the working directory" : relative} changed while ${purpose} (${what}); ` +
      "nothing outside the working directory was touched",
  );
}

/** True when the open descriptor is still the entry at `expected` (nothing moved or swapped). */
async function stillAt(handle: FileHandle, expected: string): Promise<boolean> {
  if (PROC_FD) {
    const actual = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined);
    return actual === expected;
  }
  const [held, there] = await Promise.all([handle.stat(), lstat(expected).catch(() => undefined)]);
  return there !== undefined && held.dev === there.dev && held.ino === there.ino;
}

async function verified(
  handle: FileHandle,
  target: ConfinedTarget,
  relative: string,
  purpose: Purpose,
): Promise<OpenedEntry> {
  const real = relative === "." ? target.root : path.join(target.root, ...relative.split("/"));
  try {
    if (!(await stillAt(handle, real))) {
      throw changed(relative, purpose, "it was moved, or a folder on the way was swapped for a symlink");
    }
    return { handle, real, relative, stats: await handle.stat() };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * Opens `name` in `parent` without following a symlink there, and verifies it. A symlink found where the
 * check saw a file or folder means the path changed: PathRefused. Other errors (ENOENT…) are thrown as is.
 */
export async function openChild(
  parent: OpenedEntry,
  name: string,
  target: ConfinedTarget,
  purpose: Purpose,
  kind: "folder" | "any",
): Promise<OpenedEntry> {
  const relative = parent.relative === "." ? name : `${parent.relative}/${name}`;
  let handle: FileHandle;
  try {
    handle = await open(childPath(parent, name), kind === "folder" ? FOLDER_FLAGS : READ_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // O_NOFOLLOW fails with ELOOP on a symlink; with O_DIRECTORY Linux says ENOTDIR instead.
    // Either way it was a symlink or a file at that instant; unless it is a file now, a symlink was
    // swapped in for what the check saw (it may have been swapped back already).
    if (code === "ELOOP" || code === "ENOTDIR" || code === "EMLINK") {
      const info = await lstat(childPath(parent, name)).catch(() => undefined);
      if (code !== "ENOTDIR" || !info?.isFile()) throw changed(relative, purpose, "a symlink was swapped in");
    }
    throw error;
  }
  return verified(handle, target, relative, purpose);
}

/** Opens the working directory itself, verified to be at its realpath. */
async function openRoot(target: ConfinedTarget, purpose: Purpose): Promise<OpenedEntry> {
  const handle = await open(target.root, FOLDER_FLAGS);
  return verified(handle, target, ".", purpose);
}

/**
 * Opens the folders of `segments` one by one from the working directory. The last `createFolders` of them
 * may be created (the ones confinement saw missing); any other missing folder is an error.
 */
async function openFolders(
  target: ConfinedTarget,
  segments: string[],
  purpose: Purpose,
  createFolders = 0,
): Promise<OpenedEntry> {
  let current = await openRoot(target, purpose);
  try {
    for (const [index, name] of segments.entries()) {
      const mayCreate = index >= segments.length - createFolders;
      let next: OpenedEntry;
      try {
        next = await openChild(current, name, target, purpose, "folder");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
        if (!mayCreate) {
          // Confinement saw this folder; a write must not recreate it somewhere it no longer is.
          if (purpose !== "writing") throw error;
          throw changed(segments.slice(0, index + 1).join("/"), purpose, "the folder was removed or moved");
        }
        // mkdir never follows a symlink at its final component; EEXIST means someone was quicker.
        await mkdir(childPath(current, name)).catch((mkdirError: NodeJS.ErrnoException) => {
          if (mkdirError.code !== "EEXIST") throw mkdirError;
        });
        next = await openChild(current, name, target, purpose, "folder");
      }
      await current.handle.close();
      current = next;
    }
    return current;
  } catch (error) {
    await current.handle.close();
    throw error;
  }
}

function segmentsOf(relative: string): string[] {
  return relative === "." ? [] : relative.split("/");
}

/** Opens a file or folder of the working directory for reading; the caller closes `handle`. */
export async function openConfined(target: ConfinedTarget, purpose: Purpose): Promise<OpenedEntry> {
  const segments = segmentsOf(target.relative);
  if (segments.length === 0) return openRoot(target, purpose);
  const folder = await openFolders(target, segments.slice(0, -1), purpose);
  try {
    return await openChild(folder, segments.at(-1)!, target, purpose, "any");
  } finally {
    await folder.handle.close();
  }
}

/**
 * Opens many files of the working directory (a search over a walk) for reading, reusing the open folder
 * while consecutive files share it. Each file is still verified on its own, so a folder moved away since
 * it was opened yields refusals, not its new neighbours. Call close() when done.
 */
export class ConfinedOpener {
  private folder: OpenedEntry | undefined;

  constructor(
    private readonly root: string,
    private readonly purpose: Purpose,
  ) {}

  async open(relative: string): Promise<OpenedEntry> {
    const segments = segmentsOf(relative);
    const name = segments.pop();
    const target = { root: this.root, relative };
    if (name === undefined) return openRoot(target, this.purpose);
    const folderRelative = segments.length === 0 ? "." : segments.join("/");
    if (this.folder?.relative !== folderRelative) {
      await this.close();
      this.folder = await openFolders(target, segments, this.purpose);
    }
    return openChild(this.folder, name, target, this.purpose, "any");
  }

  async close(): Promise<void> {
    const folder = this.folder;
    this.folder = undefined;
    await folder?.handle.close();
  }
}

/** Reads a whole open file (positional reads, so the handle's offset does not matter). */
export async function readWhole(opened: OpenedEntry, maxBytes = Number.MAX_SAFE_INTEGER): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const buffer = Buffer.alloc(Math.min(64 * 1024, maxBytes - total));
    if (buffer.length === 0) break;
    const { bytesRead } = await opened.handle.read(buffer, 0, buffer.length, total);
    if (bytesRead === 0) break;
    chunks.push(buffer.subarray(0, bytesRead));
    total += bytesRead;
  }
  return Buffer.concat(chunks, total);
}

/**
 * Writes `content` to the target atomically. Folders are opened from the working directory without
 * following symlinks (the last `createFolders` may be created); the content goes to an O_CREAT|O_EXCL|
 * O_NOFOLLOW temp file in the held folder, is fsynced, and renamed over the target name inside that same
 * folder (rename replaces a final symlink, never follows it). The folder is verified before and after the
 * rename; if it was moved meanwhile, the file just written is removed again. No temp file survives.
 */
export async function writeConfined(
  target: ConfinedTarget,
  content: string,
  createFolders = 0,
): Promise<{ created: boolean }> {
  const segments = segmentsOf(target.relative);
  const name = segments.pop();
  if (name === undefined) throw new PathRefused("the working directory itself cannot be written as a file");
  const folder = await openFolders(target, segments, "writing", createFolders);
  const temp = `.${name}.${randomBytes(6).toString("hex")}.tmp`;
  let tempExists = false;
  try {
    const existing = await lstat(childPath(folder, name)).catch(() => undefined);
    // Keep the permission bits of a file being replaced (an executable script stays executable).
    const keptMode = existing?.isFile() ? existing.mode & 0o7777 : undefined;
    const file = await open(childPath(folder, temp), CREATE_FLAGS, 0o666);
    tempExists = true;
    try {
      await file.writeFile(content, "utf8");
      if (keptMode !== undefined) await file.chmod(keptMode);
      await file.sync();
    } finally {
      await file.close();
    }
    if (!(await stillAt(folder.handle, folder.real))) {
      throw changed(folder.relative, "writing", "the folder was moved or swapped for a symlink");
    }
    await rename(childPath(folder, temp), childPath(folder, name));
    tempExists = false;
    if (!(await stillAt(folder.handle, folder.real))) {
      await unlink(childPath(folder, name)).catch(() => undefined);
      throw changed(folder.relative, "writing", "the folder was moved away; the file written was removed");
    }
    return { created: existing === undefined };
  } finally {
    if (tempExists) await unlink(childPath(folder, temp)).catch(() => undefined);
    await folder.handle.close();
  }
}
