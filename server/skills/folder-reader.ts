// Reads a skill folder (the folder that holds SKILL.md) into an InstallTree, in memory, under the same
// rules as a zip: no symlinks, no hard links, no device files, at most 512 files and 30 MiB, `.git` and
// `node_modules` skipped (install-tree.ts). Nothing is written here.
// Another process may swap an entry for a symlink between its lstat and its read: a file is opened with
// O_NOFOLLOW, must be the very file lstat saw (device and inode), and must lie inside the folder's realpath
// (its descriptor's path, so a folder on the way swapped for a link is caught too).
import { constants, type Stats } from "node:fs";
import { lstat, open, readdir, readlink, realpath } from "node:fs/promises";
import path from "node:path";
import { isInside } from "../tools/confine.ts";
import {
  InstallRefused,
  InstallTreeBuilder,
  MAX_INSTALL_BYTES,
  checkEntryPath,
  isSkippedName,
  type InstallTree,
} from "./install-tree.ts";

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** Opens the regular file lstat saw at `filePath`, refusing a link, another file, or a file outside `realRoot`. */
async function openChecked(filePath: string, label: string, seen: Stats, realRoot: string) {
  let handle;
  try {
    handle = await open(filePath, constants.O_RDONLY | NOFOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOOP")
      throw new InstallRefused(label, "symbolic link (links are not installed)");
    throw error;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.ino !== seen.ino || info.dev !== seen.dev)
      throw new InstallRefused(label, "was replaced while the folder was read (by a link or another file)");
    // A hard link is a second name of a file that may live anywhere on this machine (a key, another
    // user's file): nothing about the name says so, so a file with more than one name is not installed.
    if (info.nlink > 1)
      throw new InstallRefused(
        label,
        `hard link (the file has ${info.nlink} names; it may be a file from elsewhere on this machine): copy the file into the folder instead`,
      );
    const actual = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined);
    if (actual !== undefined && !isInside(realRoot, actual))
      throw new InstallRefused(
        label,
        "lies outside the skill folder (a folder on its path was replaced by a link)",
      );
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** Reads one regular file, counting bytes as they arrive (a file that grows mid-read still stops). */
async function readCounted(
  filePath: string,
  label: string,
  builder: InstallTreeBuilder,
  checks: { seen: Stats; realRoot: string },
): Promise<Buffer> {
  const handle = await openChecked(filePath, label, checks.seen, checks.realRoot);
  try {
    const chunks: Buffer[] = [];
    for (;;) {
      const buffer = Buffer.allocUnsafe(64 * 1024);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      builder.countBytes(label, bytesRead);
      chunks.push(buffer.subarray(0, bytesRead));
    }
    return Buffer.concat(chunks);
  } finally {
    await handle.close();
  }
}

export async function readSkillFolder(folder: string): Promise<InstallTree> {
  const root = path.resolve(folder);
  const rootInfo = await lstat(root);
  if (rootInfo.isSymbolicLink()) throw new InstallRefused(folder, "symbolic link (pass the real folder)");
  if (!rootInfo.isDirectory()) throw new InstallRefused(folder, "not a folder or a .zip file");
  const realRoot = await realpath(root);
  const top = path.basename(root);
  const builder = new InstallTreeBuilder();
  builder.addFolder(`${top}/`, [top]);
  const walk = async (relative: string[]): Promise<void> => {
    const entries = await readdir(path.join(root, ...relative), { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const inner = [...relative, entry.name];
      const label = inner.join("/");
      if (isSkippedName(entry.name)) continue;
      checkEntryPath(label);
      const full = path.join(root, ...inner);
      const info = await lstat(full);
      if (info.isSymbolicLink()) throw new InstallRefused(label, "symbolic link (links are not installed)");
      if (info.isDirectory()) {
        builder.addFolder(`${label}/`, [top, ...inner]);
        await walk(inner);
      } else if (info.isFile()) {
        const key = builder.beginFile(label, [top, ...inner]);
        if (info.size > MAX_INSTALL_BYTES) builder.countBytes(label, info.size);
        builder.endFile(
          key,
          await readCounted(full, label, builder, { seen: info, realRoot }),
          (info.mode & 0o111) !== 0,
        );
      } else {
        throw new InstallRefused(label, "device file, FIFO or socket (only files and folders are installed)");
      }
    }
  };
  await walk([]);
  return builder.finish(folder);
}
