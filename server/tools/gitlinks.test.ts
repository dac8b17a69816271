// An index's listing is kept while the index is unchanged (a sandboxed MCP server's calls read it twice per
// call), and never outlives a change: here an index rewritten in place, same size, same inode, its mtime
// set back — only its ctime tells, and the next read lists the new gitlink. Real git, real files.
import { cpSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { setupGit } from "./fixtures/git-attack.ts";
import { readGitlinks } from "./gitlinks.ts";

let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), "pc-gitlinks-"));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Resolves once `file` was last changed more than `ms` ago (a listing of it may then be kept). */
async function settled(file: string, ms: number): Promise<void> {
  while (Date.now() - statSync(file).ctimeMs <= ms) await new Promise((resolve) => setTimeout(resolve, 20));
}

it("a listing kept for an unchanged index is read again once the index changes in place", async () => {
  const work = path.join(root, "work");
  setupGit(root, "init", "-q", "-b", "main", "work");
  setupGit(work, "commit", "-q", "--allow-empty", "-m", "first");
  const head = setupGit(work, "rev-parse", "HEAD").trim();
  // The same index naming bb instead of aa, made in a copy: the same size, byte for byte but the path.
  const copy = path.join(root, "copy");
  cpSync(work, copy, { recursive: true });
  setupGit(copy, "update-index", "--add", "--cacheinfo", `160000,${head},bb`);
  setupGit(work, "update-index", "--add", "--cacheinfo", `160000,${head},aa`);
  const index = path.join(work, ".git", "index");
  const other = readFileSync(path.join(copy, ".git", "index"));
  expect(other.length).toBe(statSync(index).size);

  // A whole-second mtime, which utimes can set again exactly.
  const stamp = new Date(Math.floor(Date.now() / 1000) * 1000 - 5000);
  utimesSync(index, stamp, stamp);
  await settled(index, 100);
  const gitDir = path.join(work, ".git");
  expect((await readGitlinks(gitDir, work)).folders).toEqual([path.join(work, "aa")]);
  expect((await readGitlinks(gitDir, work)).folders).toEqual([path.join(work, "aa")]);

  const before = statSync(index);
  writeFileSync(index, other);
  utimesSync(index, stamp, stamp);
  const after = statSync(index, { bigint: true });
  expect([after.ino, after.size, after.mtimeNs]).toEqual([
    BigInt(before.ino),
    BigInt(before.size),
    BigInt(stamp.getTime()) * 1_000_000n,
  ]);
  // Read once the change has settled too: only the index's ctime differs from the kept listing's.
  await settled(index, 100);
  expect((await readGitlinks(gitDir, work)).folders).toEqual([path.join(work, "bb")]);
});
