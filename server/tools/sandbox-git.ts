// Git on the host never runs a configuration an agent process wrote (SECURITY S15; the rule is stated in
// protected-paths.ts). A call may change the workdir freely, except that when it ends:
//  (a) every repository git could find in the workdir before the call is still there, the same, and valid;
//  (b) no folder of the workdir has become something git would take for a repository.
// Read-only binds keep what exists: a repository's config, hooks, modules, worktrees, commondir and
// config.worktree, a `.git` file; its git folder, objects/ and refs/ become mount points, which cannot be
// moved aside or replaced. What binds cannot cover is verified after the call: HEAD must stay writable for
// `git checkout`, and a repository can be planted in any folder. So the workdir is scanned before and after
// the call; a HEAD the call broke is put back, and a repository the call armed is disarmed (its HEAD, or its
// `.git` file, renamed, so nothing is lost); either way the call fails with `sandbox_violation` saying what
// was undone.
//
// A check after the call cannot protect a host git that runs WHILE the call runs (an editor's git
// integration, a shell prompt): it would obey a repository planted a moment ago. So where it can, a call's
// writes are held apart (held-writes.ts: an overlay whose upper layer is private to the call) and the same
// scan runs on the call's result, through the overlay's merged view, before anything reaches the workdir:
// a result that breaks (a) or (b) is not applied at all (held-writes-check.ts). Where the overlay is not
// available the check after the call above stays, and the sandbox state says so.
//
// Decided: the agent does not create repositories in the workdir (`git init`, `git clone`, a copied
// `.git`): the new repository is disarmed and the call fails, because its config would be the agent's to
// write and git on the host would obey it. The user makes repositories; once one exists, the agent works in
// it with its config and hooks read-only. A clone into /tmp (private to the call) works.
import { createHash } from "node:crypto";
import type { Dirent } from "node:fs";
import {
  lstatSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { constants } from "node:fs";
import { lstat, open, readdir, readlink } from "node:fs/promises";
import path from "node:path";
import { readGitlinks } from "./gitlinks.ts";
import { looksLikeRepository } from "./protected-paths.ts";

/** Folders read per scan at most, breadth first; beyond, the check is partial (README says so). */
export const MAX_SCANNED_FOLDERS = 10_000;
/** Folders read at the same time (the reads run on libuv's thread pool and never block the server). */
const SCAN_CONCURRENCY = 8;
/** The parts of a git folder git reads as configuration or code, kept read-only (or absent). */
const CONFIGURATION_PARTS = ["config", "config.worktree", "hooks", "modules", "worktrees", "commondir"];

/** A place git may take for a repository: a folder holding a HEAD, or a `.git` that is not a folder. */
export interface Candidate {
  /** The git folder, or the `.git` file (or symlink). */
  path: string;
  kind: "git-folder" | "git-link";
  /** Whether git would use it: a valid HEAD next to objects/ and refs/ or commondir; a `.git` naming a gitdir. */
  armed: boolean;
  /** Identity and marker state: an armed candidate whose fingerprint changed was armed by the call. */
  fingerprint: string;
  /** What to put back if the call breaks it: the HEAD (of a git folder) or the link itself. */
  saved?: { file: string; symlink?: string; bytes?: Buffer };
  /** A git folder's objects/ and refs/, when they are real folders (bound as mount points). */
  storeFolders: string[];
}

export interface RepositoryScan {
  workdir: string;
  candidates: Map<string, Candidate>;
  /** Folders read, and folders seen as an entry of one (read or not): a capped scan is repeated on them. */
  visited: Set<string>;
  seen: Set<string>;
  capped: boolean;
  /**
   * Per repository (its git folder or `.git` file) whose index could not be listed completely: why. A
   * folder such an index names past the scan's reach may go unchecked (see undoRepositoryChanges).
   */
  unlistedIndexes: Map<string, string>;
  /** Why the workdir was not scanned (then nothing is checked after the call either). */
  unchecked?: string;
}

/**
 * A workdir of `/` is not scanned: there the agent can replace the programs the user runs (git itself), so
 * no check of repositories could keep the rule, and the scan would take in every other program's folders.
 * Such a session needs the user's explicit confirmation (README, "Trusted folders").
 */
export function uncheckedScan(workdir: string, why: string): RepositoryScan {
  return {
    workdir,
    candidates: new Map(),
    visited: new Set(),
    seen: new Set(),
    capped: false,
    unlistedIndexes: new Map(),
    unchecked: why,
  };
}

/** Scans the workdir for repository candidates, never entering `skip` (read-only parts of the policy). */
export async function scanRepositories(
  workdir: string,
  skip: ReadonlySet<string>,
  previous?: RepositoryScan,
): Promise<RepositoryScan> {
  const scan: RepositoryScan = {
    workdir,
    candidates: new Map(),
    visited: new Set(),
    seen: new Set([workdir]),
    capped: false,
    unlistedIndexes: new Map(),
  };
  // A capped scan is repeated on the same folders, plus those that did not exist then.
  const follows = (folder: string): boolean =>
    !previous?.capped || previous.visited.has(folder) || !previous.seen.has(folder);
  const queue: string[] = [workdir];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < queue.length) {
      const folder = queue[next++]!;
      scan.visited.add(folder);
      let entries: Dirent[];
      try {
        entries = await readdir(folder, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const entry of entries) {
        if (!entry.isDirectory()) continue;
        const child = path.join(folder, entry.name);
        scan.seen.add(child);
        if (skip.has(child) || !follows(child)) continue;
        if (queue.length >= MAX_SCANNED_FOLDERS) scan.capped = true;
        else queue.push(child);
      }
      await addCandidates(scan, folder, entries);
    }
  };
  // Workers pick up folders as earlier ones add them; one pass of workers drains the queue.
  while (next < queue.length) await Promise.all(Array.from({ length: SCAN_CONCURRENCY }, worker));
  await followGitlinks(scan, skip, previous);
  return scan;
}

/**
 * The folders git reaches from the workdir through submodules, read whatever the cap: `git status` in a
 * repository runs `git status` in each folder its index names as a gitlink, with that folder's `.git` as
 * the repository — so a repository planted anywhere in the workdir is reached from the top once the
 * (writable) index names it. Each gitlink's folder and its `.git` folder are read like the scan's own, and
 * so are the repositories found there, in turn; so are the folders an earlier scan read this way.
 */
async function followGitlinks(
  scan: RepositoryScan,
  skip: ReadonlySet<string>,
  previous: RepositoryScan | undefined,
): Promise<void> {
  const listed = new Set<string>();
  const skipped = (folder: string): boolean => [...skip].some((area) => within(folder, area));
  const readFolder = async (folder: string): Promise<void> => {
    if (scan.visited.has(folder) || skipped(folder)) return;
    scan.visited.add(folder);
    scan.seen.add(folder);
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => undefined);
    if (entries) await addCandidates(scan, folder, entries);
  };
  // The folder a gitlink names, and its `.git` (a folder the scan may have seen but not read).
  const read = async (folder: string): Promise<void> => {
    await readFolder(folder);
    const git = path.join(folder, ".git");
    if (entryKind(git) === "other" && lstatSync(git).isDirectory()) await readFolder(git);
  };
  for (const folder of previous?.visited ?? []) await readFolder(folder);
  for (;;) {
    const repositories = [...scan.candidates.values()].filter(
      (candidate) => candidate.armed && !listed.has(candidate.path),
    );
    if (repositories.length === 0) return;
    for (const repository of repositories) {
      listed.add(repository.path);
      const worktree =
        repository.kind === "git-link"
          ? path.dirname(repository.path)
          : path.basename(repository.path) === ".git"
            ? path.dirname(repository.path)
            : undefined;
      // A bare repository has no work tree, so no submodule folders.
      if (worktree === undefined || !within(worktree, scan.workdir)) continue;
      const listing = await readGitlinks(repository.path, worktree);
      if (listing.problem) scan.unlistedIndexes.set(repository.path, listing.problem);
      for (const folder of listing.folders) await read(folder);
    }
  }
}

async function addCandidates(scan: RepositoryScan, folder: string, entries: Dirent[]): Promise<void> {
  const head = entries.find((entry) => entry.name.toLowerCase() === "head");
  if (head) {
    const candidate = await gitFolder(folder, head.name, entries).catch(() => undefined);
    if (candidate) scan.candidates.set(candidate.path, candidate);
  }
  for (const entry of entries) {
    if (entry.name.toLowerCase() !== ".git" || entry.isDirectory()) continue;
    const candidate = await gitLink(path.join(folder, entry.name)).catch(() => undefined);
    if (candidate) scan.candidates.set(candidate.path, candidate);
  }
}

async function gitFolder(folder: string, headName: string, entries: Dirent[]): Promise<Candidate> {
  const info = await lstat(folder, { bigint: true });
  const headFile = path.join(folder, headName);
  const head = await readHead(headFile);
  const lower = (name: string) => entries.find((entry) => entry.name.toLowerCase() === name);
  const objects = lower("objects");
  const refs = lower("refs");
  const commondir = lower("commondir");
  const commondirText = commondir
    ? ((await readStart(path.join(folder, commondir.name)).catch(() => undefined))?.bytes.toString("utf8") ??
      "(unreadable)")
    : undefined;
  const markers = looksLikeRepository(entries.map((entry) => entry.name));
  return {
    path: folder,
    kind: "git-folder",
    armed: head.valid && markers,
    fingerprint: [
      `${info.dev}:${info.ino}`,
      head.valid,
      objects ? "objects" : "-",
      refs ? "refs" : "-",
      commondirText === undefined ? "-" : digest(commondirText),
    ].join("|"),
    ...(head.saved ? { saved: head.saved } : {}),
    storeFolders: [objects, refs]
      .filter((entry): entry is Dirent => entry?.isDirectory() === true)
      .map((entry) => path.join(folder, entry.name)),
  };
}

/**
 * git's own test of a HEAD (setup.c, validate_headref): a symlink into refs/, or a file holding
 * `ref: refs/…` or an object id.
 */
async function readHead(
  file: string,
): Promise<{ valid: boolean; saved?: { file: string; symlink?: string; bytes?: Buffer } }> {
  const info = await lstat(file);
  if (info.isSymbolicLink()) {
    const target = await readlink(file);
    return { valid: target.startsWith("refs/"), saved: { file, symlink: target } };
  }
  if (!info.isFile()) return { valid: false };
  const read = await readStart(file);
  if (!read) return { valid: false };
  const text = read.bytes.subarray(0, 256).toString("latin1");
  return {
    valid: /^ref:\s*refs\//.test(text) || /^[0-9a-fA-F]{40}/.test(text),
    // A HEAD longer than what is read is no HEAD git writes: put back, its start is as good as any.
    saved: { file, bytes: read.bytes },
  };
}

/** What the scan reads of a file at most: git reads 256 bytes of a HEAD and 1 MiB of a `.git` file. */
const READ_LIMIT = 1024 * 1024;

/**
 * The start of `file` (at most READ_LIMIT bytes) and its size, or undefined when it is no regular file.
 * THE RULE: the scan reads any file the way git reads it — its start — and never waits on one. A call
 * decides what lies in the workdir: a HEAD of 2.2 GB (a sparse file, no disk) made Node's readFile throw,
 * and the repository it belonged to went unseen though git found it; a fifo named commondir held a
 * thread of libuv's pool forever. So the file is opened without following a link and without blocking (a
 * fifo opens at once, and is then no regular file), and only its start is read.
 */
async function readStart(file: string): Promise<{ bytes: Buffer; size: number } | undefined> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  try {
    const info = await handle.stat();
    if (!info.isFile()) return undefined;
    const buffer = Buffer.alloc(Math.min(READ_LIMIT, info.size));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return { bytes: buffer.subarray(0, bytesRead), size: info.size };
  } finally {
    await handle.close();
  }
}

async function gitLink(file: string): Promise<Candidate> {
  const info = await lstat(file, { bigint: true });
  const identity = `${info.dev}:${info.ino}`;
  if (info.isSymbolicLink()) {
    const target = await readlink(file);
    return {
      path: file,
      kind: "git-link",
      armed: true,
      fingerprint: `${identity}|link|${target}`,
      saved: { file, symlink: target },
      storeFolders: [],
    };
  }
  if (!info.isFile()) {
    return { path: file, kind: "git-link", armed: false, fingerprint: `${identity}|other`, storeFolders: [] };
  }
  const read = await readStart(file);
  if (!read)
    return { path: file, kind: "git-link", armed: false, fingerprint: `${identity}|other`, storeFolders: [] };
  const bytes = read.bytes;
  return {
    path: file,
    kind: "git-link",
    // git reads `gitdir: <path>` (setup.c, read_gitfile_gently); any other content makes git stop.
    armed: bytes.subarray(0, 16).toString("latin1").startsWith("gitdir:"),
    fingerprint: `${identity}|file|${read.size}|${digest(bytes)}`,
    saved: { file, bytes },
    storeFolders: [],
  };
}

function digest(data: string | Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}

/** The binds and absent parts that keep the repositories of a scan as they are during the call. */
export interface RepositoryProtection {
  /** Folders bound onto themselves (writable, but they cannot be moved aside or replaced). */
  mountPoints: string[];
  /** Existing configuration parts and `.git` files, bound read-only. */
  readOnly: string[];
  /** Configuration parts that do not exist: removed after the call if it made them. */
  mustStayAbsent: string[];
  /** Set when a part is a symbolic link: a bind would follow it, so the call is refused. */
  refusal?: string;
}

/**
 * What keeps the armed repositories of `scan` in place: for each git folder outside `readOnlyAreas`, the
 * folder, objects/ and refs/ as mount points, its configuration parts read-only or absent; `.git` files
 * read-only. A repository inside another's read-only part (a submodule's git folder) is covered by it.
 */
export function protectRepositories(
  scan: RepositoryScan,
  readOnlyAreas: readonly string[],
): RepositoryProtection {
  const protection: RepositoryProtection = { mountPoints: [], readOnly: [], mustStayAbsent: [] };
  const armed = [...scan.candidates.values()].filter((candidate) => candidate.armed);
  const configuration: string[] = [];
  for (const candidate of armed) {
    if (candidate.kind !== "git-folder") continue;
    for (const part of CONFIGURATION_PARTS) configuration.push(path.join(candidate.path, part));
  }
  const covered = [...readOnlyAreas, ...configuration];
  for (const candidate of armed) {
    if (covered.some((area) => within(candidate.path, area))) continue;
    if (candidate.kind === "git-link") {
      // A symlink cannot be bound (a bind follows it); the check after the call puts it back if changed.
      if (candidate.saved?.symlink === undefined) protection.readOnly.push(candidate.path);
      continue;
    }
    if (candidate.path !== scan.workdir) protection.mountPoints.push(candidate.path);
    protection.mountPoints.push(...candidate.storeFolders);
    for (const part of CONFIGURATION_PARTS) {
      const target = path.join(candidate.path, part);
      const kind = entryKind(target);
      if (kind === "symlink") {
        protection.refusal ??= `${target} is a symbolic link; the sandbox cannot keep it read-only`;
      } else if (kind) protection.readOnly.push(target);
      else protection.mustStayAbsent.push(target);
    }
  }
  return protection;
}

/**
 * Where git finds each repository of the scan (and the one holding the workdir): the workdir, the work tree
 * of each `.git` folder or file, and each bare repository's folder.
 */
export function repositoryStarts(scan: RepositoryScan): string[] {
  const starts = [scan.workdir];
  for (const candidate of scan.candidates.values()) {
    if (!candidate.armed) continue;
    const named = path.basename(candidate.path).toLowerCase() === ".git";
    starts.push(named ? path.dirname(candidate.path) : candidate.path);
  }
  return starts;
}

function entryKind(target: string): "symlink" | "other" | undefined {
  try {
    return lstatSync(target).isSymbolicLink() ? "symlink" : "other";
  } catch {
    return undefined;
  }
}

export function within(child: string, parent: string): boolean {
  if (parent === "/") return true;
  return child === parent || child.startsWith(parent.endsWith("/") ? parent : `${parent}/`);
}

/** What a call changed about the repositories of a workdir, found by comparing two scans. */
export interface RepositoryChanges {
  /** Armed now, and not armed (or not the same) before: planted, or armed again. */
  armed: Candidate[];
  /** Repositories whose index became unlistable: a gitlink past the scan's reach may hide there. */
  unlisted: [repository: string, problem: string][];
  /** Armed before, broken or replaced now. */
  broken: Candidate[];
}

/**
 * A candidate's fingerprint without its identity (device and inode): a scan through the merged view of an
 * overlay sees other device and inode numbers for the same folders, so there only the markers count.
 */
const markers = (candidate: Candidate): string =>
  candidate.fingerprint.slice(candidate.fingerprint.indexOf("|"));

export function compareScans(
  before: RepositoryScan,
  after: RepositoryScan,
  readOnlyAreas: readonly string[],
  sameIdentity: boolean,
): RepositoryChanges {
  const same = (a: Candidate, b: Candidate): boolean =>
    sameIdentity ? a.fingerprint === b.fingerprint : markers(a) === markers(b);
  const changes: RepositoryChanges = { armed: [], unlisted: [], broken: [] };
  for (const candidate of after.candidates.values()) {
    if (!candidate.armed) continue;
    const earlier = before.candidates.get(candidate.path);
    if (earlier?.armed && same(earlier, candidate)) continue;
    changes.armed.push(candidate);
  }
  // An index the call made unlistable (more gitlinks than can be followed, or one git cannot list in time)
  // may hide a gitlink to a repository past the scan's reach: it is treated like a planted repository.
  for (const [repository, problem] of after.unlistedIndexes)
    if (!before.unlistedIndexes.has(repository)) changes.unlisted.push([repository, problem]);
  for (const earlier of before.candidates.values()) {
    if (!earlier.armed || readOnlyAreas.some((area) => within(earlier.path, area))) continue;
    const now = after.candidates.get(earlier.path);
    // Unchanged, or else broken or replaced (a replacement is in `armed`): the earlier one comes back.
    if (now?.armed && same(now, earlier)) continue;
    changes.broken.push(earlier);
  }
  return changes;
}

/**
 * After the call (its processes are gone): scans again, disarms every repository the call armed, puts back
 * every one it broke, and says what was undone (empty when nothing was). `readOnlyAreas` were read-only
 * during the call: nothing in them changed, and they are not read again.
 */
export async function undoRepositoryChanges(
  before: RepositoryScan,
  readOnlyAreas: readonly string[],
): Promise<string[]> {
  if (before.unchecked !== undefined) return [];
  const skip = new Set(readOnlyAreas);
  const after = await scanRepositories(before.workdir, skip, before);
  const shown = (target: string): string => path.relative(before.workdir, target) || "the workdir";
  const changes = compareScans(before, after, readOnlyAreas, true);
  return [
    ...changes.armed.map((candidate) => disarm(candidate, shown)),
    ...changes.unlisted.map(([repository, problem]) => setIndexAside(repository, problem, shown)),
    ...changes.broken.map((earlier) => putBack(earlier, shown)),
  ];
}

export const armedWhy = (folder: string): string =>
  `git would have taken ${folder} for a repository whose configuration the call could write ` +
  "(repositories in the workdir are made by the user)";

export const unlistedWhy = (problem: string): string =>
  `${problem}, so the submodules it names could not all be checked (git status in the workdir would enter each)`;

/** Renames the index of a repository (its git folder, or the `.git` file naming it) to `index.disarmed`. */
function setIndexAside(repository: string, problem: string, shown: (target: string) => string): string {
  let gitDir = repository;
  try {
    if (!lstatSync(repository).isDirectory()) {
      const named = /^gitdir: (.*)$/m.exec(readFileSync(repository, "utf8"))?.[1]?.trim() ?? "";
      gitDir = path.resolve(path.dirname(repository), named);
    }
  } catch {
    // Gone since the scan: its index goes with it.
  }
  const index = path.join(gitDir, "index");
  const why = unlistedWhy(problem);
  const aside = freeName(`${index}.disarmed`);
  try {
    renameSync(index, aside);
    return `renamed ${shown(index)} to ${path.basename(aside)}: ${why}`;
  } catch (error) {
    return `could not set ${shown(index)} aside (${(error as Error).message}; remove it before you run git there): ${why}`;
  }
}

/** Renames what makes the candidate a repository: a git folder's HEAD, or the `.git` file itself. */
export function disarm(candidate: Candidate, shown: (target: string) => string): string {
  const target =
    candidate.kind === "git-link"
      ? candidate.path
      : (headEntry(candidate.path) ?? path.join(candidate.path, "HEAD"));
  const folder = candidate.kind === "git-link" ? path.dirname(candidate.path) : candidate.path;
  const why = armedWhy(shown(folder));
  const aside = freeName(`${target}.disarmed`);
  try {
    renameSync(target, aside);
    return `renamed ${shown(target)} to ${path.basename(aside)}: ${why}`;
  } catch {
    rmSync(target, { recursive: true, force: true });
    return entryKind(target) === undefined
      ? `removed ${shown(target)}: ${why}`
      : `could not disarm ${shown(target)} (remove it before you run git there): ${why}`;
  }
}

/** The HEAD entry of a folder (any case), read again after the call. */
function headEntry(folder: string): string | undefined {
  try {
    const name = readdirSync(folder).find((entry) => entry.toLowerCase() === "head");
    return name === undefined ? undefined : path.join(folder, name);
  } catch {
    return undefined;
  }
}

function freeName(base: string): string {
  for (let attempt = 1; ; attempt++) {
    const candidate = attempt === 1 ? base : `${base}-${attempt}`;
    if (entryKind(candidate) === undefined) return candidate;
  }
}

/** Writes back a repository's HEAD (or a `.git` link) the call removed or broke. */
function putBack(earlier: Candidate, shown: (target: string) => string): string {
  const saved = earlier.saved;
  const repository = earlier.kind === "git-link" ? path.dirname(earlier.path) : earlier.path;
  if (!saved) return `the repository at ${shown(repository)} was changed and could not be put back`;
  try {
    rmSync(saved.file, { recursive: true, force: true });
    if (saved.symlink !== undefined) symlinkSync(saved.symlink, saved.file);
    else writeFileSync(saved.file, saved.bytes ?? Buffer.alloc(0));
    return `put back ${shown(saved.file)}: the call had broken it, and git would no longer find the repository at ${shown(repository)}`;
  } catch (error) {
    return `could not put back ${shown(saved.file)} (${(error as Error).message}): check the repository at ${shown(repository)}`;
  }
}
