import { realpath } from "node:fs/promises";
import path from "node:path";
import { isInside } from "../confine.ts";
import { PathRefused, writeConfined } from "./confined-fs.ts";

/** A write refused because its path changed after the check (kept under its older name). */
export { PathRefused as WriteRefused };

/**
 * Writes `content` to `absolutePath` (a real path inside the real `root`) atomically and without following
 * any symlink on the way (confined-fs.writeConfined): a final-component symlink swapped in after the
 * confinement check is replaced, not followed, and a folder swapped for a symlink is refused (SECURITY P6,
 * X12). `createFolders` is how many trailing folders may be created (default: every missing one).
 */
export async function writeFileAtomic(
  root: string,
  absolutePath: string,
  content: string,
  createFolders = Number.MAX_SAFE_INTEGER,
): Promise<{ created: boolean }> {
  const realRoot = await realpath(root);
  if (!isInside(realRoot, absolutePath) || realRoot === path.resolve(absolutePath)) {
    throw new PathRefused(`${absolutePath} is not a file inside the working directory ${realRoot}`);
  }
  const relative = path.relative(realRoot, absolutePath).split(path.sep).join("/");
  return writeConfined({ root: realRoot, relative }, content, createFolders);
}
