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
import {
  closeSync,
  constants,
  copyFileSync,
  fchmodSync,
  futimesSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readlinkSync,
  renameSync,
  rmdirSync,
  symlinkSync,
  unlinkSync,
  type Stats,
} from "node:fs";
import path from "node:path";

const FOLDER_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/** The entry `name` of the folder held open as `fd`, for any call that takes a path. */
const at = (fd: number, name: string): string => `/proc/self/fd/${fd}/${name}`;

export interface ApplyReport {
  /** Entries renamed or copied into the workdir, and entries removed from it. */
  placed: number;
  copied: number;
  removed: number;
  /** What could not be applied, each with why (the call's writes are then kept for the user). */
  problems: string[];
}

/** True when the call wrote nothing (the common read-only call): there is nothing to check or apply. */
export function nothingWritten(upper: string): boolean {
  try {
    return readdirSync(upper).length === 0;
  } catch {
    return true;
  }
}

/**
 * Applies `upper` to `workdir`. `view` is the merged view (read before anything moves, for the folders
 * whose hidden entries must go). Never throws; what failed is in `problems`.
 */
export function applyHeldWrites(upper: string, workdir: string, view: string): ApplyReport {
  const report: ApplyReport = { placed: 0, copied: 0, removed: 0, problems: [] };
  const shown = new Map<string, Set<string>>();
  try {
    readShown(upper, view, workdir, "", shown);
  } catch (error) {
    report.problems.push(`the merged view could not be read: ${(error as Error).message}`);
    return report;
  }
  let root: number;
  try {
    root = openSync(workdir, FOLDER_FLAGS);
  } catch (error) {
    report.problems.push(`the workdir could not be opened: ${(error as Error).message}`);
    return report;
  }
  try {
    applyFolder(upper, root, "", shown, report);
  } finally {
    closeSync(root);
  }
  return report;
}

/**
 * For each folder of upper that the workdir has as a folder: the names the view shows in it. (A folder the
 * workdir lacks is placed whole; the lookup only decides what to read, the apply checks again.)
 */
function readShown(
  upper: string,
  view: string,
  workdir: string,
  relative: string,
  shown: Map<string, Set<string>>,
): void {
  for (const entry of readdirSync(path.join(upper, relative), { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const child = path.join(relative, entry.name);
    if (!isFolder(path.join(workdir, child))) continue;
    shown.set(child, new Set(readdirSync(path.join(view, child))));
    readShown(upper, view, workdir, child, shown);
  }
}

function isFolder(target: string): boolean {
  try {
    return lstatSync(target).isDirectory();
  } catch {
    return false;
  }
}

function isWhiteout(info: Stats): boolean {
  return info.isCharacterDevice() && info.rdev === 0;
}

function lstatAt(fd: number, name: string): Stats | undefined {
  try {
    return lstatSync(at(fd, name));
  } catch {
    return undefined;
  }
}

function applyFolder(
  upper: string,
  fd: number,
  relative: string,
  shown: Map<string, Set<string>>,
  report: ApplyReport,
): void {
  for (const name of readdirSync(path.join(upper, relative))) {
    const child = path.join(relative, name);
    const source = path.join(upper, child);
    try {
      const info = lstatSync(source);
      if (isWhiteout(info)) {
        removeEntry(fd, name, report);
        continue;
      }
      const existing = lstatAt(fd, name);
      if (info.isDirectory() && existing?.isDirectory()) {
        mergeFolder(upper, fd, name, child, info, shown, report);
        continue;
      }
      // rename() replaces a non-folder with a non-folder; any other pair needs the old entry gone first.
      if (existing && (existing.isDirectory() || info.isDirectory())) removeEntry(fd, name, report);
      if (info.isDirectory()) dropWhiteouts(source);
      place(source, fd, name, info, report);
    } catch (error) {
      report.problems.push(`${child}: ${(error as Error).message}`);
    }
  }
}

function mergeFolder(
  upper: string,
  parent: number,
  name: string,
  relative: string,
  info: Stats,
  shown: Map<string, Set<string>>,
  report: ApplyReport,
): void {
  // Refuses a folder swapped for a symlink since the lstat: ELOOP, reported.
  const fd = openSync(at(parent, name), FOLDER_FLAGS);
  try {
    const visible = shown.get(relative);
    const written = new Set(readdirSync(path.join(upper, relative)));
    // Entries the view hides though upper does not name them: the folder was made anew (opaque).
    if (visible)
      for (const other of readdirSync(`/proc/self/fd/${fd}`))
        if (!visible.has(other) && !written.has(other)) removeEntry(fd, other, report);
    applyFolder(upper, fd, relative, shown, report);
    fchmodSync(fd, info.mode & 0o7777);
  } finally {
    closeSync(fd);
  }
}

/** Removes `name` from the folder held as `fd`, a folder with everything in it; never follows a link. */
function removeEntry(fd: number, name: string, report: ApplyReport): void {
  const info = lstatAt(fd, name);
  if (!info) return;
  if (!info.isDirectory()) {
    unlinkSync(at(fd, name));
    report.removed++;
    return;
  }
  let inner: number;
  try {
    inner = openSync(at(fd, name), FOLDER_FLAGS);
  } catch (error) {
    // Swapped for a non-folder since the lstat: that is removed instead.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP" || code === "ENOTDIR") return removeEntry(fd, name, report);
    throw error;
  }
  try {
    for (const child of readdirSync(`/proc/self/fd/${inner}`)) removeEntry(inner, child, report);
  } finally {
    closeSync(inner);
  }
  rmdirSync(at(fd, name));
  report.removed++;
}

/** A whiteout in a folder the workdir does not have marks nothing to remove: it must not be placed. */
function dropWhiteouts(folder: string): void {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const child = path.join(folder, entry.name);
    if (entry.isDirectory()) dropWhiteouts(child);
    else if (entry.isCharacterDevice() && lstatSync(child).rdev === 0) unlinkSync(child);
  }
}

/** Renames `source` to `name` in the folder held as `fd`; copies it when they lie on two file systems. */
function place(source: string, fd: number, name: string, info: Stats, report: ApplyReport): void {
  try {
    renameSync(source, at(fd, name));
    report.placed++;
    return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
  }
  // A fresh name next to the target, then one rename over it: the target is never half written.
  const temporary = `.pseudoclaude-apply-${process.pid}-${Math.random().toString(36).slice(2)}`;
  copyEntry(source, fd, temporary, info, report);
  renameSync(at(fd, temporary), at(fd, name));
  report.placed++;
}

function copyEntry(source: string, fd: number, name: string, info: Stats, report: ApplyReport): void {
  if (info.isSymbolicLink()) {
    symlinkSync(readlinkSync(source), at(fd, name));
  } else if (info.isFile()) {
    // COPYFILE_EXCL: the target is created with O_EXCL, which never follows a symlink at that name.
    copyFileSync(source, at(fd, name), constants.COPYFILE_EXCL);
    const file = openSync(at(fd, name), constants.O_WRONLY | constants.O_NOFOLLOW);
    try {
      fchmodSync(file, info.mode & 0o7777);
      futimesSync(file, info.atime, info.mtime);
    } finally {
      closeSync(file);
    }
  } else if (info.isDirectory()) {
    mkdirSync(at(fd, name), { mode: 0o700 });
    const inner = openSync(at(fd, name), FOLDER_FLAGS);
    try {
      for (const child of readdirSync(source)) {
        const childSource = path.join(source, child);
        copyEntry(childSource, inner, child, lstatSync(childSource), report);
      }
      fchmodSync(inner, info.mode & 0o7777);
    } finally {
      closeSync(inner);
    }
  } else {
    throw new Error("a fifo, socket or device file cannot be copied across file systems");
  }
  report.copied++;
}
