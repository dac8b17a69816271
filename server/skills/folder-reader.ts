// Reads a skill folder (the folder that holds SKILL.md) into an InstallTree, in memory, under the same
// rules as a zip: no symlinks, no device files, at most 512 files and 30 MiB. Nothing is written here.
import { lstat, open, readdir } from "node:fs/promises";
import path from "node:path";
import {
  InstallRefused,
  InstallTreeBuilder,
  MAX_INSTALL_BYTES,
  checkEntryPath,
  type InstallTree,
} from "./install-tree.ts";

/** Reads one regular file, counting bytes as they arrive (a file that grows mid-read still stops). */
async function readCounted(filePath: string, label: string, builder: InstallTreeBuilder): Promise<Buffer> {
  const handle = await open(filePath, "r");
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
  const top = path.basename(root);
  const builder = new InstallTreeBuilder();
  builder.addFolder(`${top}/`, [top]);
  const walk = async (relative: string[]): Promise<void> => {
    const entries = await readdir(path.join(root, ...relative), { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const inner = [...relative, entry.name];
      const label = inner.join("/");
      if (entry.name === ".git" || entry.name === "node_modules") continue;
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
        builder.endFile(key, await readCounted(full, label, builder), (info.mode & 0o111) !== 0);
      } else {
        throw new InstallRefused(label, "device file, FIFO or socket (only files and folders are installed)");
      }
    }
  };
  await walk([]);
  return builder.finish(folder);
}
