// The empty file and folder the sandbox binds read-only over secrets (existing ones only: nothing is bound
// over an absent path, which would leave a mount point on disk; see sandbox.ts).
import { lstatSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * An empty file and an empty folder to bind read-only over secrets. They live
 * in one folder per user (`$TMPDIR/pseudoclaude-sandbox-<uid>`, reused by every server start, so nothing
 * piles up) and are checked on every call: still ours, still empty, else made again.
 */
export function emptySources(): { file: string; folder: string } {
  const uid = process.getuid?.() ?? 0;
  const base = path.join(os.tmpdir(), `pseudoclaude-sandbox-${uid}`);
  const file = path.join(base, "empty-file");
  const folder = path.join(base, "empty-folder");
  // Another server of the same user may be making them at the same moment: EEXIST is fine, the check decides.
  if (!isOwnFolder(base, uid)) {
    rmSync(base, { recursive: true, force: true });
    unlessExists(() => mkdirSync(base, { mode: 0o700 }));
  }
  if (!isEmptyFile(file, uid)) {
    rmSync(file, { recursive: true, force: true });
    unlessExists(() => writeFileSync(file, "", { mode: 0o444, flag: "wx" }));
  }
  if (!isEmptyFolder(folder, uid)) {
    rmSync(folder, { recursive: true, force: true });
    unlessExists(() => mkdirSync(folder, { mode: 0o555 }));
  }
  if (!isOwnFolder(base, uid) || !isEmptyFile(file, uid) || !isEmptyFolder(folder, uid)) {
    throw new Error(`cannot prepare the sandbox's empty mount sources in ${base}`);
  }
  return { file, folder };
}

function unlessExists(make: () => void): void {
  try {
    make();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
}

function isOwnFolder(target: string, uid: number): boolean {
  try {
    const info = lstatSync(target);
    return info.isDirectory() && info.uid === uid && (info.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

function isEmptyFile(target: string, uid: number): boolean {
  try {
    const info = lstatSync(target);
    return info.isFile() && info.uid === uid && info.size === 0;
  } catch {
    return false;
  }
}

function isEmptyFolder(target: string, uid: number): boolean {
  try {
    const info = lstatSync(target);
    return info.isDirectory() && info.uid === uid && readdirSync(target).length === 0;
  } catch {
    return false;
  }
}
