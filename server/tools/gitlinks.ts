// The gitlinks (submodule entries, mode 160000) of a repository's index, as the host's git reads them.
//
// Why the sandbox needs them (sandbox-git.ts): `git status` in the workdir also runs `git status` in every
// folder its index names as a submodule, with that folder's `.git` as the repository. The index is the
// agent's to write (`git add` must work), so a gitlink can point the user's plain `git status` at a
// repository planted anywhere in the workdir, however deep, past the folder scan's reach. Every folder a
// gitlink names is therefore checked like the workdir itself, whatever the scan's cap.
//
// The index is read by the host's own git (`ls-files --stage`), so every format git writes is read as the
// user's git reads it (versions 2–4, split and sparse indexes, SHA-256). That git runs with a fixed
// environment (no system or global config) and `core.fsmonitor=false` on its command line, which beats
// any setting: reading the index runs no program. Where no git is installed there is no git to fool, and
// nothing is read.
import { spawn } from "node:child_process";
import { lstat, readdir } from "node:fs/promises";
import path from "node:path";
import { HOST_GIT_ENVIRONMENT, HOST_GIT_SAFE_SETTINGS, hostGitProgram } from "./host-git.ts";

/**
 * Gitlinks read at most per index. Real repositories have a handful; past this the listing is partial, and
 * the caller treats an index that became uncheckable during a call as planted (sandbox-git.ts).
 */
export const MAX_GITLINKS = 10_000;
/** Longer than PATH_MAX with room for the mode and object id. */
const MAX_RECORD_CHARS = 8192;
/** An index git cannot list within this is partial, like one over MAX_GITLINKS. */
const LIST_TIMEOUT_MS = 10_000;

export interface GitlinkListing {
  /** Absolute folders the index names as submodules, inside `worktree`. */
  folders: string[];
  /** Why the index could not be read completely (the listing is then partial). */
  problem?: string;
}

/**
 * The folders the index of `gitDir` (a git folder, or a `.git` file naming one) names as submodules of
 * `worktree`. Paths that leave the worktree are dropped (git refuses them too).
 */
export async function readGitlinks(gitDir: string, worktree: string): Promise<GitlinkListing> {
  const git = hostGitProgram();
  if (!git) return { folders: [] };
  const started = Date.now();
  const key = await listingKey(gitDir, started);
  const known = key === undefined ? undefined : listings.get(gitDir);
  if (known && known.key === key && known.worktree === worktree) return known.listing;
  const listing = await listIndex(git, gitDir, worktree);
  listings.delete(gitDir);
  // A listing that could not be completed is tried again next time.
  if (key !== undefined && listing.problem === undefined) {
    listings.set(gitDir, { key, worktree, listing });
    if (listings.size > MAX_KEPT_LISTINGS) listings.delete(listings.keys().next().value!);
  }
  return listing;
}

/**
 * Listings of indexes that have not changed since, by path of their git folder (git ls-files costs a
 * process per read; a sandboxed MCP server's calls read each index twice per call). Bounded: the oldest
 * goes first. Keyed by what the listing depends on (listingKey), so a changed index is listed again.
 */
const listings = new Map<string, { key: string; worktree: string; listing: GitlinkListing }>();
const MAX_KEPT_LISTINGS = 256;

/**
 * What the listing of `gitDir`'s index depends on — the index, the config (its object format) and any
 * shared index of a split index — as stat data (device, inode, size, mtime and ctime in nanoseconds; ctime
 * cannot be set by a program, and a file replaced by a rename is another inode), or undefined when the
 * listing must not be kept: `gitDir` is a `.git` file, or one of the files changed within one tick of
 * the file system's clock before `now` — a second write in that tick could leave the same times behind
 * (git's "racy index" problem; git re-reads such files too). The kernel stamps files with a coarse clock
 * (a scheduler tick, at most 10 ms); a file system that keeps whole seconds only (FAT keeps two) shows
 * times without a nanosecond part, and gets the margin of such file systems.
 */
async function listingKey(gitDir: string, now: number): Promise<string | undefined> {
  let names: string[];
  try {
    names = await readdir(gitDir);
  } catch {
    return undefined;
  }
  const parts = ["index", "config", ...names.filter((name) => name.startsWith("sharedindex.")).sort()];
  const stats: string[] = [];
  for (const name of parts) {
    const info = await lstat(path.join(gitDir, name), { bigint: true }).catch(() => undefined);
    if (!info) {
      stats.push(`${name}:-`);
      continue;
    }
    const newest = Number((info.mtimeNs > info.ctimeNs ? info.mtimeNs : info.ctimeNs) / 1_000_000n);
    const coarse = info.mtimeNs % 1_000_000_000n === 0n && info.ctimeNs % 1_000_000_000n === 0n;
    if (newest > now - (coarse ? COARSE_RACY_MARGIN_MS : RACY_MARGIN_MS)) return undefined;
    stats.push(`${name}:${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`);
  }
  return stats.join("|");
}

/** A file changed this recently is listed again at each read (five times the kernel's coarsest tick). */
const RACY_MARGIN_MS = 50;
/** The same where the file system keeps whole seconds (FAT: two). */
const COARSE_RACY_MARGIN_MS = 3_000;

function listIndex(git: string, gitDir: string, worktree: string): Promise<GitlinkListing> {
  return new Promise((resolve) => {
    const child = spawn(
      git,
      [`--git-dir=${gitDir}`, ...HOST_GIT_SAFE_SETTINGS, "ls-files", "--stage", "-z"],
      {
        cwd: "/",
        env: HOST_GIT_ENVIRONMENT,
        stdio: ["ignore", "pipe", "ignore"],
        timeout: LIST_TIMEOUT_MS,
      },
    );
    const folders: string[] = [];
    // Only the record being read is held: an index of any size streams through.
    let pending = "";
    let problem: string | undefined;
    const take = (record: string): void => {
      // `<mode> <object> <stage>\t<path>`; a gitlink's mode is 160000.
      if (problem || !record.startsWith("160000 ")) return;
      const tab = record.indexOf("\t");
      if (tab < 0) return;
      const folder = path.resolve(worktree, record.slice(tab + 1));
      if (!folder.startsWith(`${worktree}/`)) return;
      if (folders.length >= MAX_GITLINKS) {
        problem = `its index names more than ${MAX_GITLINKS} submodules`;
        child.kill("SIGKILL");
        return;
      }
      folders.push(folder);
    };
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      const records = (pending + chunk).split("\0");
      pending = records.pop() ?? "";
      for (const record of records) take(record);
      // A record longer than any path the file system takes names no folder anyone could plant in.
      if (pending.length > MAX_RECORD_CHARS) pending = "(too long)";
    });
    child.on("error", (error) => {
      problem ??= `git could not list its index (${error.message})`;
    });
    child.on("close", (code, signal) => {
      if (signal && !problem) problem = `git did not list its index within ${LIST_TIMEOUT_MS / 1000} s`;
      // A failing git (no index yet, an index git rejects) lists nothing: the user's git finds no gitlink there.
      resolve({ folders: code === 0 || problem ? folders : [], ...(problem ? { problem } : {}) });
    });
  });
}
