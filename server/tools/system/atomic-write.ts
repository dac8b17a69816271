import { randomBytes } from "node:crypto";
import { lstat, mkdir, open, realpath, rename, unlink } from "node:fs/promises";
import path from "node:path";
import { isInside } from "../confine.ts";

export class WriteRefused extends Error {}

/**
 * Writes `content` to `absolutePath` atomically: a temp file created with O_EXCL in the target folder,
 * then rename() over the target. rename replaces a final-component symlink instead of following it, so a
 * link swapped in after the confinement check can never redirect the write outside (SECURITY P6). The
 * folder is re-checked after mkdir, so a folder swapped for a symlink is caught too.
 */
export async function writeFileAtomic(
  root: string,
  absolutePath: string,
  content: string,
): Promise<{ created: boolean }> {
  const folder = path.dirname(absolutePath);
  await mkdir(folder, { recursive: true });
  const realFolder = await realpath(folder);
  if (!isInside(root, realFolder)) {
    throw new WriteRefused(
      `the folder of ${path.basename(absolutePath)} now resolves outside the working directory`,
    );
  }
  const target = path.join(realFolder, path.basename(absolutePath));
  const existing = await lstat(target).catch((error: NodeJS.ErrnoException) => error);
  const created = existing instanceof Error;
  // Keep the permission bits of a file being replaced (an executable script stays executable).
  const keptMode = !created && existing.isFile() ? existing.mode & 0o7777 : undefined;

  const temp = path.join(realFolder, `.${path.basename(target)}.${randomBytes(6).toString("hex")}.tmp`);
  // "wx" is O_CREAT|O_EXCL: it never opens an existing file or follows a symlink planted at the temp name.
  const handle = await open(temp, "wx", 0o666);
  try {
    await handle.writeFile(content, "utf8");
    if (keptMode !== undefined) await handle.chmod(keptMode);
  } catch (error) {
    await handle.close();
    await unlink(temp);
    throw error;
  }
  await handle.close();
  try {
    await rename(temp, target);
  } catch (error) {
    await unlink(temp);
    throw error;
  }
  return { created };
}
