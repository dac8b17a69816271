// Applies a checked call's writes (the upper layer of its overlay, held-writes.ts) to the real workdir.
//
// The apply runs in the server, with the host's privileges, in a workdir other processes may change at the
// same moment (an MCP server's process, which writes the workdir directly; the user's editor). The rule:
// the apply never follows a symbolic link, whoever made it and whenever. It never names a workdir path as
// a string the kernel would resolve again: it holds each workdir folder open (O_DIRECTORY | O_NOFOLLOW,
// opened one name at a time from the folder above it) and reaches every entry as
// `/proc/self/fd/<folder>/<name>`, a magic link that stands for the folder held open, not for its path. So
// a folder swapped for a symlink after the apply began is never entered (the open refuses it: ELOOP or
// ENOTDIR), and the final name of every operation (rename, mkdir, rmdir, unlink, symlink, an O_EXCL
// create) is never followed by the kernel either.
//
// What upper holds, and what each becomes:
//  - a file, symlink or other non-folder: renamed into place (replacing what is there; a folder there is
//    removed first). Same file system → one rename, modes, times and hard links kept; else copied (EXDEV).
//  - a whiteout (a character device 0:0): the entry is removed from the workdir.
//  - a folder the workdir has as a folder: its entries are applied one by one, and entries of the
//    workdir's folder that the merged view no longer shows are removed (an opaque folder: `rm -rf d &&
//    mkdir d`; found from the merged view, since overlay marks opacity in an xattr Node cannot read); its
//    mode becomes upper's.
//  - a folder the workdir does not have: renamed into place whole (npm's 10,000 new files: one rename).
// The result is the merged view, entry for entry: the call's writes win where another process changed
// the same path meanwhile.
//
// THE ORDER RULE: a host program may read the workdir at any moment of the apply (an editor's `git status`
// runs on every change), so every state the apply passes through must be one the check would pass — never
// an entry of the old workdir that the result removes or replaces next to an entry the result adds. Going
// name by name (sorted) did exactly that: a call that adds `objects/` and removes `refs/` beside an old
// valid HEAD, with 30,000 files of a folder sorting between the two, left a repository with the call's
// config live for seconds. So the apply runs in three passes over the whole tree:
//  1. removals: whiteouts, entries the merged view hides, and entries whose type the call changed. Every
//     state is the old workdir less some entries.
//  2. replacements: a non-folder over a non-folder (one rename each, or a copy renamed over it). Every
//     state has only names both the old workdir and the result have, each with its old or its new content.
//  3. additions: new names (and new folders, whole), then folder modes. Every state is the result less
//     some entries.
// Removing entries never makes a folder something git takes for a repository (that needs a HEAD, a
// commondir or objects/ and refs/ to be present), so each state is as safe as the old workdir or the
// checked result. A step that fails must keep that: a removal that fails stops the apply before anything
// is added; a replacement that fails removes the old entry (left, it would stand next to the call's
// additions: a HEAD the call broke, kept valid because its fifo cannot be copied).
//
// THE LIVENESS RULE: the apply never blocks the server's event loop (every session shares it): every file
// system call is asynchronous, so applying 100,000 files or copying a 4 GB file across file systems leaves
// other sessions answering meanwhile.
import { constants, readdirSync, type Stats } from "node:fs";
import {
  copyFile,
  lstat,
  mkdir,
  open,
  readdir,
  readlink,
  rename,
  rm,
  rmdir,
  symlink,
  unlink,
  type FileHandle,
} from "node:fs/promises";
import path from "node:path";

export const FOLDER_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/** The entry `name` of the folder held open as `folder`, for any call that takes a path. */
export const at = (folder: FileHandle, name: string): string => `/proc/self/fd/${folder.fd}/${name}`;

export interface ApplyReport {
  /** Entries renamed or copied into the workdir, and entries removed from it. */
  placed: number;
  copied: number;
  removed: number;
  /** What could not be applied, each with why (the call's writes are then kept for the user). */
  problems: string[];
  /**
   * Entries removed from a folder the call removed and made again (opaque), relative to the workdir: upper
   * does not name them, so the record of the call's writes (held-writes-record.ts) learns them here.
   */
  removedHidden: string[];
  /**
   * Whether the call wrote at a workdir-relative path (upper had it, or a folder placed whole holds it):
   * asked after the apply, when upper no longer shows it.
   */
  wrote: (relative: string) => boolean;
}

/** True when the call wrote nothing (the common read-only call): there is nothing to check or apply. */
export function nothingWritten(upper: string): boolean {
  try {
    return readdirSync(upper).length === 0;
  } catch {
    return true;
  }
}

type Pass = "remove" | "replace" | "add";
const PASSES: readonly Pass[] = ["remove", "replace", "add"];

interface Apply {
  upper: string;
  /** For each folder of upper that the workdir has as a folder: the names the merged view shows in it. */
  shown: Map<string, Set<string>>;
  /** Folders the call removed and made again (the overlay marks them opaque): what the view hides goes. */
  opaque: Set<string>;
  /** Per folder of upper (relative), what pass 1 found for each of its entries. */
  plan: Map<string, Step[]>;
  report: ApplyReport;
}

/**
 * Applies `upper` to `workdir`. `view` is the merged view (read before anything moves, for the folders
 * whose hidden entries must go). Never throws; what failed is in `problems`.
 */
export async function applyHeldWrites(
  upper: string,
  workdir: string,
  view: string,
  opaque: (candidates: readonly string[]) => Promise<Set<string> | undefined> = async (candidates) =>
    new Set(candidates),
): Promise<ApplyReport> {
  const written = new Set<string>([""]);
  const wholeFolders: string[] = [];
  const report: ApplyReport = {
    placed: 0,
    copied: 0,
    removed: 0,
    problems: [],
    removedHidden: [],
    wrote: (relative) =>
      written.has(relative) || wholeFolders.some((folder) => relative.startsWith(`${folder}/`)),
  };
  const shown = new Map<string, Set<string>>();
  const hiding: string[] = [];
  try {
    await readShown(upper, view, workdir, "", shown, hiding);
  } catch (error) {
    report.problems.push(`the merged view could not be read: ${(error as Error).message}`);
    return report;
  }
  // A folder whose view hides entries the workdir has is either one the call removed and made again
  // (opaque: those entries go) or one the call made new while another process made it in the workdir too
  // (those entries are the other process's: they stay). Only the overlay's own mark tells them apart.
  const asked = await opaque(hiding);
  if (asked === undefined) {
    // Guessing either way loses something (another process's files, or leaves files the call removed):
    // nothing is applied, and the call's writes are kept for the user.
    report.problems.push(`the overlay could not be asked which of ${hiding.join(", ")} the call made anew`);
    return report;
  }
  const opaqueFolders = asked;
  const apply: Apply = { upper, shown, opaque: opaqueFolders, plan: new Map(), report };
  for (const pass of PASSES) {
    if (pass === "replace")
      for (const [folder, steps] of apply.plan)
        for (const step of steps) {
          const relative = path.join(folder, step.name);
          written.add(relative);
          if (step.kind === "add" && step.info.isDirectory()) wholeFolders.push(relative);
        }
    let root: FileHandle;
    try {
      root = await open(workdir, FOLDER_FLAGS);
    } catch (error) {
      report.problems.push(`the workdir could not be opened: ${(error as Error).message}`);
      return report;
    }
    try {
      await applyFolder(apply, pass, root, "");
    } finally {
      await root.close();
    }
    // Something that had to go is still there: adding the call's entries next to it could make a state
    // the check never saw (the order rule above). What is kept in upper is for the user.
    if (report.problems.length > 0) return report;
  }
  return report;
}

async function readShown(
  upper: string,
  view: string,
  workdir: string,
  relative: string,
  shown: Map<string, Set<string>>,
  hiding: string[],
): Promise<void> {
  for (const entry of await readdir(path.join(upper, relative), { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const child = path.join(relative, entry.name);
    if (!(await isFolder(path.join(workdir, child)))) continue;
    const visible = new Set(await readdir(path.join(view, child)));
    shown.set(child, visible);
    const written = new Set(await readdir(path.join(upper, child)));
    const present = await readdir(path.join(workdir, child)).catch(() => [] as string[]);
    if (present.some((name) => !visible.has(name) && !written.has(name))) hiding.push(child);
    await readShown(upper, view, workdir, child, shown, hiding);
  }
}

async function isFolder(target: string): Promise<boolean> {
  return (await lstat(target).catch(() => undefined))?.isDirectory() === true;
}

function isWhiteout(info: Stats): boolean {
  return info.isCharacterDevice() && info.rdev === 0;
}

const lstatAt = (folder: FileHandle, name: string): Promise<Stats | undefined> =>
  lstat(at(folder, name)).catch(() => undefined);

/** What pass 1 decided for an entry of upper; passes 2 and 3 act on it without looking again. */
type Step = { name: string; info: Stats; kind: "merge" | "replace" | "add" | "whiteout" };

/**
 * One pass over the folder held as `folder`, whose counterpart in upper is `relative`. Pass 1 looks at
 * each entry (upper's and the workdir's) and records what it is; passes 2 and 3 act on that record.
 */
async function applyFolder(apply: Apply, pass: Pass, folder: FileHandle, relative: string): Promise<void> {
  const { upper, report } = apply;
  if (pass === "remove") {
    const written = await readdir(path.join(upper, relative));
    const visible = apply.shown.get(relative);
    // Entries the view hides though upper does not name them, in a folder the call made anew (opaque).
    if (visible && apply.opaque.has(relative)) {
      const names = new Set(written);
      for (const other of await readdir(`/proc/self/fd/${folder.fd}`))
        if (!visible.has(other) && !names.has(other))
          await removeEntry(folder, other, report).then(
            () => void report.removedHidden.push(path.join(relative, other)),
            (error: unknown) =>
              report.problems.push(`${path.join(relative, other)}: ${(error as Error).message}`),
          );
    }
    const steps: Step[] = [];
    apply.plan.set(relative, steps);
    await eachAtOnce(written, ENTRIES_AT_ONCE, async (name) => {
      try {
        const info = await lstat(path.join(upper, relative, name));
        const existing = await lstatAt(folder, name);
        const step = (kind: Step["kind"]): number => steps.push({ name, info, kind });
        if (isWhiteout(info)) {
          if (existing) await removeEntry(folder, name, report);
          step("whiteout");
        } else if (info.isDirectory() && existing?.isDirectory()) {
          step("merge");
        } else if (existing && !existing.isDirectory() && !info.isDirectory()) {
          step("replace");
        } else {
          // A type the call changed: the old entry goes now, the new one comes in pass 3.
          if (existing) await removeEntry(folder, name, report);
          step("add");
        }
      } catch (error) {
        report.problems.push(`${path.join(relative, name)}: ${(error as Error).message}`);
      }
    });
  } else {
    // Within a pass the order does not matter (the passes keep the order rule): a few at once.
    await eachAtOnce(apply.plan.get(relative) ?? [], ENTRIES_AT_ONCE, (step) =>
      applyStep(apply, pass, folder, relative, step),
    );
  }
  // Folders one at a time: each holds a descriptor open while its own entries are applied.
  for (const { name, info, kind } of apply.plan.get(relative) ?? [])
    if (kind === "merge")
      await mergeFolder(apply, pass, folder, name, path.join(relative, name), info).catch((error: unknown) =>
        report.problems.push(`${path.join(relative, name)}: ${(error as Error).message}`),
      );
}

/** Pass 2 or 3 for one entry that is not a folder to merge. */
async function applyStep(
  apply: Apply,
  pass: Pass,
  folder: FileHandle,
  relative: string,
  { name, info, kind }: Step,
): Promise<void> {
  const { upper, report } = apply;
  const child = path.join(relative, name);
  const source = path.join(upper, child);
  try {
    if (kind === "replace" && pass === "replace") await replace(source, folder, name, info, report, child);
    else if (kind === "add" && pass === "add") {
      if (info.isDirectory()) await dropWhiteouts(source);
      await place(source, folder, name, info, report).catch(async (error: unknown) => {
        // Something another process made at the name since pass 1 (a folder a rename cannot
        // replace): it goes too, the call's writes win.
        if (
          !["EISDIR", "ENOTEMPTY", "EEXIST", "ENOTDIR"].includes((error as NodeJS.ErrnoException).code ?? "")
        )
          throw error;
        await removeEntry(folder, name, report);
        await place(source, folder, name, info, report);
      });
    }
  } catch (error) {
    report.problems.push(`${child}: ${(error as Error).message}`);
  }
}

/** Entries of one folder handled at the same time (file system calls run on libuv's thread pool). */
const ENTRIES_AT_ONCE = 16;

/** `work` for each item, at most `limit` at once (never one promise per item of a huge folder at once). */
export async function eachAtOnce<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

async function mergeFolder(
  apply: Apply,
  pass: Pass,
  parent: FileHandle,
  name: string,
  relative: string,
  info: Stats,
): Promise<void> {
  // Refuses a folder swapped for a symlink since the lstat: ELOOP, reported.
  const folder = await open(at(parent, name), FOLDER_FLAGS);
  try {
    await applyFolder(apply, pass, folder, relative);
    if (pass === "add") await folder.chmod(info.mode & 0o7777);
  } finally {
    await folder.close();
  }
}

/** Replaces a non-folder by the call's; if that fails, the old entry goes rather than stay (see above). */
async function replace(
  source: string,
  folder: FileHandle,
  name: string,
  info: Stats,
  report: ApplyReport,
  child: string,
): Promise<void> {
  try {
    await place(source, folder, name, info, report);
  } catch (error) {
    await removeEntry(folder, name, report);
    report.problems.push(`${child}: ${(error as Error).message} (the old ${name} was removed)`);
  }
}

/** Removes `name` from the folder held as `folder`, a folder with everything in it; never follows a link. */
async function removeEntry(folder: FileHandle, name: string, report: ApplyReport): Promise<void> {
  const info = await lstatAt(folder, name);
  if (!info) return;
  if (!info.isDirectory()) {
    await unlink(at(folder, name));
    report.removed++;
    return;
  }
  let inner: FileHandle;
  try {
    inner = await open(at(folder, name), FOLDER_FLAGS);
  } catch (error) {
    // Swapped for a non-folder since the lstat: that is removed instead.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP" || code === "ENOTDIR") return removeEntry(folder, name, report);
    throw error;
  }
  try {
    for (const child of await readdir(`/proc/self/fd/${inner.fd}`)) await removeEntry(inner, child, report);
  } finally {
    await inner.close();
  }
  await rmdir(at(folder, name));
  report.removed++;
}

/** A whiteout in a folder the workdir does not have marks nothing to remove: it must not be placed. */
async function dropWhiteouts(folder: string): Promise<void> {
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const child = path.join(folder, entry.name);
    if (entry.isDirectory()) await dropWhiteouts(child);
    else if (entry.isCharacterDevice() && (await lstat(child)).rdev === 0) await unlink(child);
  }
}

/** Renames `source` to `name` in the folder held as `folder`; copies it when they lie on two file systems. */
async function place(
  source: string,
  folder: FileHandle,
  name: string,
  info: Stats,
  report: ApplyReport,
): Promise<void> {
  try {
    await rename(source, at(folder, name));
    report.placed++;
    return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
  }
  // A fresh name next to the target, then one rename over it: the target is never half written.
  const temporary = `.pseudoclaude-apply-${process.pid}-${Math.random().toString(36).slice(2)}`;
  try {
    await copyEntry(source, folder, temporary, info, report);
    await rename(at(folder, temporary), at(folder, name));
  } catch (error) {
    // The half-made copy is the apply's own litter; what is reported is the copy's error.
    await removeEntry(folder, temporary, report).catch(() => undefined);
    throw error;
  }
  // Gone from upper, as a rename would have it: a later pass must not place it again.
  await rm(source, { recursive: true, force: true });
  report.placed++;
}

async function copyEntry(
  source: string,
  folder: FileHandle,
  name: string,
  info: Stats,
  report: ApplyReport,
): Promise<void> {
  if (info.isSymbolicLink()) {
    await symlink(await readlink(source), at(folder, name));
  } else if (info.isFile()) {
    // COPYFILE_EXCL: the target is created with O_EXCL, which never follows a symlink at that name.
    await copyFile(source, at(folder, name), constants.COPYFILE_EXCL);
    const file = await open(at(folder, name), constants.O_WRONLY | constants.O_NOFOLLOW);
    try {
      await file.chmod(info.mode & 0o7777);
      await file.utimes(info.atime, info.mtime);
    } finally {
      await file.close();
    }
  } else if (info.isDirectory()) {
    await mkdir(at(folder, name), { mode: 0o700 });
    const inner = await open(at(folder, name), FOLDER_FLAGS);
    try {
      for (const child of await readdir(source)) {
        const childSource = path.join(source, child);
        await copyEntry(childSource, inner, child, await lstat(childSource), report);
      }
      await inner.chmod(info.mode & 0o7777);
    } finally {
      await inner.close();
    }
  } else {
    throw new Error("a fifo, socket or device file cannot be copied across file systems");
  }
  report.copied++;
}
