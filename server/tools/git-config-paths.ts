// The paths a repository's configuration names as something git runs or loads as configuration, read the
// way the user's git reads them (SECURITY S15; the rule is stated in protected-paths.ts).
//
// THE RULE: a path the configuration names is protected like `.git/hooks` wherever it lies — read-only in
// the sandbox (or kept absent), and asking in the file tools — when git may run it or read it as
// configuration. The config is the user's (it is read-only during every call), but it can name files in the
// work tree, which the agent can write: a hooks folder (`core.hooksPath = .husky`, as husky sets up), an
// included config file (`include.path`, `includeIf.<condition>.path`), and programs of command lines
// (filter and diff drivers, `core.fsmonitor`, `core.sshCommand`, `diff.external`, aliases, credential
// helpers…). Writing any of them is as good as writing `.git/config` or a hook.
//
// Read, not listed: the host's git lists the configuration (`git config --list --show-origin`, with the
// fixed environment and settings of host-git.ts: no system or global config, nothing run while it reads),
// so includes are followed as the user's git follows them and every file it loaded is kept. Which keys
// hold command lines cannot be read from git, and new ones appear with each release, so every value is read
// as a possible command line: each word of it that names a path (a word with a `/`, or one naming an
// existing file of the work tree, which `sh tidy.sh` runs) is kept. Only the keys whose whole value is a
// path are named here: the two git loads or runs as a path (includes, relative to the file that includes
// them; the hooks folder, relative to the top of the work tree). Not paths: words with a `:` (URLs,
// `host:path`), a `*` (refspecs, patterns) and ref names (`refs/…`), which values name often and git never
// runs. A folder counts only as a hooks folder: git runs programs, not folders.
//
// A hooks folder kept inside a dot-folder is a hook manager's (husky 9: `.husky/_` holds stubs that run
// `.husky/<hook>`, which the user edits): the dot-folder is kept whole. An include that git skips today (a
// file not there, a condition not met) is kept all the same: the condition is the agent's to meet.
//
// The price, on purpose: a file a value names that git only reads as data (`commit.template`) is kept too —
// one question more, where guessing wrong would run code. Not covered: what a hook script itself runs from
// the work tree (a hook is the user's program; husky's layout is the one read here), and the user's global
// config (`~/.gitconfig` is protected as a file of the home, home-secrets.ts).
import { spawn, spawnSync } from "node:child_process";
import { lstatSync, realpathSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { HOST_GIT_ENVIRONMENT, HOST_GIT_SAFE_SETTINGS, hostGitProgram } from "./host-git.ts";

/** A configuration listing larger than this is read partially (the user's own config is a few kilobytes). */
const MAX_OUTPUT_BYTES = 4 * 1024 * 1024;
const TIMEOUT_MS = 10_000;
/** Repositories whose configuration is read at the same time. */
const READ_CONCURRENCY = 4;
/** The synchronous read blocks the server's thread: a healthy git answers in milliseconds. */
const SYNC_TIMEOUT_MS = 2_000;

/** Keys whose whole value is a path git loads as configuration (relative to the file that names it). */
const INCLUDE_KEY = /^include(if\..*)?\.path$/i;
/** The key whose whole value is the folder git runs hooks from (relative to the top of the work tree). */
const HOOKS_KEY = "core.hookspath";

export interface ConfiguredPath {
  /** Absolute path, as git would open it. */
  path: string;
  /** The config key that names it, or `loaded` for a config file git read. */
  key: string;
  /** A plain word of a command line: a path only when a file of that name exists. */
  ifFile?: boolean;
}

export interface RepositoryConfiguration {
  /** The repository's git folder (absolute). */
  gitDir: string;
  paths: ConfiguredPath[];
  /** Why the configuration could not be read completely. */
  problem?: string;
}

interface GitOutput {
  stdout: string;
  problem?: string;
}

function runGit(git: string, cwd: string, args: string[]): Promise<GitOutput> {
  return new Promise((resolve) => {
    const child = spawn(git, [...HOST_GIT_SAFE_SETTINGS, ...args], {
      cwd,
      env: HOST_GIT_ENVIRONMENT,
      stdio: ["ignore", "pipe", "ignore"],
      timeout: TIMEOUT_MS,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    let problem: string | undefined;
    child.stdout.on("data", (chunk: Buffer) => {
      if (size >= MAX_OUTPUT_BYTES) return;
      size += chunk.length;
      chunks.push(chunk);
      if (size >= MAX_OUTPUT_BYTES) {
        problem = `git listed more than ${MAX_OUTPUT_BYTES} bytes`;
        child.kill("SIGKILL");
      }
    });
    child.on("error", (error) => {
      problem ??= `git could not run (${error.message})`;
    });
    child.on("close", (_code, signal) => {
      if (signal && !problem) problem = `git did not answer within ${TIMEOUT_MS / 1000} s`;
      resolve({ stdout: Buffer.concat(chunks).toString("utf8"), ...(problem ? { problem } : {}) });
    });
  });
}

/** The questions asked of git, and how their answers read: where the repository is, then its config. */
const WHERE_ARGS = ["rev-parse", "--absolute-git-dir", "--is-bare-repository", "--show-toplevel"];
const LIST_ARGS = ["config", "--list", "--show-origin", "-z"];

/** The git folder, and the folder commands and the hooks folder are relative to, from rev-parse's answer. */
function located(answer: string): { gitDir: string; base: string } | undefined {
  // In a bare repository `--show-toplevel` fails after printing the first two answers.
  const [gitDir, bare, top] = answer.split("\n");
  if (!gitDir || !path.isAbsolute(gitDir)) return undefined;
  // Commands and the hooks folder are relative to the top of the work tree; a bare repository's to itself.
  return { gitDir, base: bare === "false" && top && path.isAbsolute(top) ? top : gitDir };
}

/**
 * The configuration of the repository git finds from `start` (a folder of a work tree, or a bare
 * repository's folder), and the paths it names. Undefined when git finds no repository there, or when no
 * git is installed (then there is no git to obey it). A configuration git rejects stops the user's git
 * too: it runs nothing, and nothing is named.
 */
export async function readRepositoryConfiguration(
  start: string,
): Promise<RepositoryConfiguration | undefined> {
  const git = hostGitProgram();
  if (!git) return undefined;
  const where = located((await runGit(git, start, WHERE_ARGS)).stdout);
  if (!where) return undefined;
  const listing = await runGit(git, where.base, LIST_ARGS);
  return {
    gitDir: where.gitDir,
    paths: namedPaths(listing.stdout, where.base),
    ...(listing.problem ? { problem: listing.problem } : {}),
  };
}

/**
 * The same, read synchronously for the file tools' path decisions (they are made before a call runs, in a
 * synchronous step): two short git runs, bounded by a timeout like the asynchronous ones.
 */
export function readRepositoryConfigurationSync(start: string): RepositoryConfiguration | undefined {
  const git = hostGitProgram();
  if (!git) return undefined;
  const run = (cwd: string, args: string[]) =>
    spawnSync(git, [...HOST_GIT_SAFE_SETTINGS, ...args], {
      cwd,
      env: HOST_GIT_ENVIRONMENT,
      stdio: ["ignore", "pipe", "ignore"],
      encoding: "utf8",
      timeout: SYNC_TIMEOUT_MS,
      maxBuffer: MAX_OUTPUT_BYTES,
    });
  const where = located(run(start, WHERE_ARGS).stdout ?? "");
  if (!where) return undefined;
  const listing = run(where.base, LIST_ARGS);
  const problem = listing.error ? `git did not list it (${listing.error.message})` : undefined;
  return {
    gitDir: where.gitDir,
    paths: namedPaths(listing.stdout ?? "", where.base),
    ...(problem ? { problem } : {}),
  };
}

/** The paths named in `git config --list --show-origin -z` output (`origin\0key\nvalue\0` records). */
export function namedPaths(listing: string, base: string): ConfiguredPath[] {
  const records = listing.split("\0");
  const found: ConfiguredPath[] = [];
  for (let index = 0; index + 1 < records.length; index += 2) {
    const origin = records[index]!;
    const entry = records[index + 1]!;
    const newline = entry.indexOf("\n");
    const key = newline < 0 ? entry : entry.slice(0, newline);
    const value = newline < 0 ? "" : entry.slice(newline + 1);
    const file = origin.startsWith("file:") ? path.resolve(base, origin.slice("file:".length)) : undefined;
    if (file) found.push({ path: file, key: "loaded" });
    if (INCLUDE_KEY.test(key)) {
      const named = expandHome(value);
      if (named) found.push({ path: path.resolve(file ? path.dirname(file) : base, named), key });
    } else if (key.toLowerCase() === HOOKS_KEY) {
      const named = expandHome(value);
      if (named) found.push(...hooksFolder(path.resolve(base, named), base, key));
    } else {
      for (const word of commandWords(value))
        found.push({ path: path.resolve(base, word.path), key, ...(word.plain ? { ifFile: true } : {}) });
    }
  }
  return found;
}

/**
 * The hooks folder, and the dot-folder holding it inside the work tree when there is one (a hook
 * manager's: husky 9). Not the top itself, nor a git folder (whose hooks are kept already, and whose
 * objects git must write).
 */
function hooksFolder(folder: string, base: string, key: string): ConfiguredPath[] {
  const parent = path.dirname(folder);
  const name = path.basename(parent);
  const managed =
    parent !== base && within(parent, base) && name.startsWith(".") && name.toLowerCase() !== ".git";
  return managed
    ? [
        { path: folder, key },
        { path: parent, key },
      ]
    : [{ path: folder, key }];
}

function expandHome(value: string): string | undefined {
  if (value === "") return undefined;
  if (value === "~" || value.startsWith("~/")) return path.join(os.homedir(), value.slice(1));
  return value;
}

/**
 * The words of a value read as a shell command line that may name a path: those with a `/` (not URLs or
 * ref names), and every other plain word (checked against the work tree by the caller: `sh tidy.sh`).
 */
function commandWords(value: string): { path: string; plain: boolean }[] {
  const words = value.split(/[\s;|&()<>`'"=]+/).filter((word) => word !== "" && !word.startsWith("-"));
  const found: { path: string; plain: boolean }[] = [];
  for (const raw of words) {
    const word = raw.replace(/^\$\{?\w*\}?/, "").replace(/^!/, "");
    // A URL or `host:path` has a `:`, a refspec or pattern a `*`: names git never runs.
    if (word === "" || /[:*?[]/.test(word) || /^\+?refs\//.test(word)) continue;
    const expanded = expandHome(word) ?? word;
    found.push({ path: expanded, plain: !expanded.includes("/") });
  }
  return found;
}

/** What keeps the configured paths of a workdir's repositories as they are during a call. */
export interface ConfiguredProtection {
  /** Folders on the way to a kept path, bound onto themselves so they cannot be moved aside. */
  mountPoints: string[];
  /** Existing files and hooks folders, bound read-only. */
  readOnly: string[];
  /** Named paths that do not exist: removed after the call if it made them. */
  mustStayAbsent: string[];
  /** Why a configuration could not be read, or a kept path is a symbolic link: the call is refused. */
  refusal?: string;
}

/**
 * The configured paths inside `workdir` of the repositories git finds from `starts` (the workdir, and each
 * repository's work tree or bare folder the scan found), outside `readOnlyAreas` (kept already).
 */
export async function protectConfiguredPaths(
  workdir: string,
  starts: readonly string[],
  readOnlyAreas: readonly string[],
): Promise<ConfiguredProtection> {
  const protection: ConfiguredProtection = { mountPoints: [], readOnly: [], mustStayAbsent: [] };
  const read = new Set<string>();
  const named: ConfiguredPath[] = [];
  // A workdir with many repositories (submodules) is read a few at a time, each a pair of short git runs.
  const queue = [...new Set(starts)];
  const configurations: (RepositoryConfiguration | undefined)[] = [];
  const worker = async (): Promise<void> => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift())
      configurations.push(await readRepositoryConfiguration(next));
  };
  await Promise.all(Array.from({ length: READ_CONCURRENCY }, worker));
  for (const configuration of configurations) {
    if (!configuration || read.has(configuration.gitDir)) continue;
    read.add(configuration.gitDir);
    if (configuration.problem)
      protection.refusal ??= `the configuration of the repository at ${configuration.gitDir} could not be read (${configuration.problem}), so what it runs cannot be kept read-only`;
    named.push(...configuration.paths);
  }
  const kept = (target: string): boolean =>
    [...readOnlyAreas, ...protection.readOnly].some((area) => within(target, area));
  // Shortest first: a folder kept whole covers what lies in it.
  named.sort((a, b) => a.path.length - b.path.length);
  for (const { path: target, key, ifFile } of named) {
    if (target === workdir || !within(target, workdir) || kept(target)) continue;
    const kind = entryKind(target);
    if (kind === undefined) {
      if (!ifFile) protection.mustStayAbsent.push(target);
      continue;
    }
    // Git runs programs and reads config files; a folder counts only as the hooks folder.
    if (kind === "other" || (kind === "folder" && key.toLowerCase() !== HOOKS_KEY)) continue;
    const linked = symbolicLinkOnTheWay(workdir, target);
    if (linked) {
      protection.refusal ??= `${linked} is a symbolic link on the way to ${target}, which the configuration names (${key}); the sandbox cannot keep it read-only`;
      continue;
    }
    protection.readOnly.push(target);
    for (let folder = path.dirname(target); folder !== workdir; folder = path.dirname(folder))
      protection.mountPoints.push(folder);
  }
  protection.mustStayAbsent = [...new Set(protection.mustStayAbsent)].filter((target) => !kept(target));
  protection.mountPoints = [...new Set(protection.mountPoints)]
    .filter((folder) => !kept(folder))
    .sort((a, b) => a.length - b.length);
  return protection;
}

function entryKind(target: string): "file" | "folder" | "symlink" | "other" | undefined {
  try {
    const info = lstatSync(target);
    if (info.isSymbolicLink()) return "symlink";
    return info.isFile() ? "file" : info.isDirectory() ? "folder" : "other";
  } catch {
    return undefined;
  }
}

/** The first symbolic link among the parts of `target` below `workdir` (a bind would follow it). */
function symbolicLinkOnTheWay(workdir: string, target: string): string | undefined {
  const parts = path.relative(workdir, target).split(path.sep);
  let current = workdir;
  for (const part of parts) {
    current = path.join(current, part);
    if (entryKind(current) === "symlink") return current;
  }
  return undefined;
}

function within(child: string, parent: string): boolean {
  if (parent === "/") return true;
  return child === parent || child.startsWith(parent.endsWith("/") ? parent : `${parent}/`);
}

/**
 * Whether writing `target` (absolute, inside `workdir`) writes something the configuration of a repository
 * git finds from the workdir or from the target's folder names for git to run or load: the named file, or
 * anything in a named hooks folder. A configuration that cannot be read counts as naming it (asking costs
 * a question; guessing wrong runs code).
 */
export function configuredPathAt(workdir: string, target: string): string | undefined {
  let folder = path.dirname(target);
  while (entryKind(folder) === undefined && within(folder, workdir) && folder !== workdir)
    folder = path.dirname(folder);
  for (const start of new Set([workdir, folder])) {
    const configuration = readRepositoryConfigurationSync(start);
    if (!configuration) continue;
    if (configuration.problem) return `the configuration of ${configuration.gitDir} could not be read`;
    for (const named of configuration.paths) {
      if (named.ifFile && entryKind(named.path) !== "file") continue;
      const folderKey = named.key.toLowerCase() === HOOKS_KEY;
      // The file tools write real paths: a named path that is a symbolic link is kept where it leads too.
      const places = new Set([named.path, realPath(named.path)]);
      if ([...places].some((place) => target === place || (folderKey && within(target, place))))
        return `${path.relative(workdir, named.path) || "."} (${named.key === "loaded" ? "a config file git reads" : named.key})`;
    }
  }
  return undefined;
}

function realPath(target: string): string {
  try {
    return realpathSync(target);
  } catch {
    return target;
  }
}
