// The operating-system sandbox for every process the agent starts: bubblewrap (`bwrap`). This module
// answers whether it can be used on this machine (probed once, by really starting a sandboxed `true`).
import { spawnSync } from "node:child_process";
import {
  accessSync,
  constants,
  lstatSync,
  mkdirSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import type { SandboxState } from "../protocol/sandbox.ts";
import { bwrapEnvironmentArguments, LAUNCHER_ENVIRONMENT } from "./child-environment.ts";
import { findProgram } from "./find-program.ts";
import { unixSocketFilter } from "./seccomp-filter.ts";

export type { SandboxState };

export interface SandboxAvailability {
  available: boolean;
  /**
   * The bwrap program: an absolute path when available, found once (on the server's own PATH when given as
   * a name) and never looked up again — a PATH a workdir configures must not choose the launcher.
   */
  program: string;
  /** Why the sandbox cannot be used. */
  reason?: string;
}

/** `PSEUDOCLAUDE_BWRAP` names another bwrap (tests point it at a missing file to exercise "sandbox off"). */
export const BWRAP_ENV_VARIABLE = "PSEUDOCLAUDE_BWRAP";

const probes = new Map<string, SandboxAvailability>();

/**
 * Resolves bwrap to an absolute path and probes it, once per name: starts `true` in the namespaces the
 * sandbox uses, with the launcher's fixed environment. The server calls it at start. Never throws.
 */
export function detectSandbox(
  program: string = process.env[BWRAP_ENV_VARIABLE] || "bwrap",
): SandboxAvailability {
  const known = probes.get(program);
  if (known) return known;
  const absolute = findProgram(program);
  const result: SandboxAvailability = absolute
    ? probe(absolute)
    : {
        available: false,
        program,
        reason: `${program} not found${program.includes("/") ? "" : " on PATH"} (install the Debian package bubblewrap)`,
      };
  probes.set(program, result);
  return result;
}

/** The read-only root with a minimal /dev and a fresh /proc: the base every sandbox starts from. */
export const BASE_MOUNTS: readonly string[] = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"];
/**
 * The isolation of every call: own PIDs, dies with its parent, no controlling tty, and no capability —
 * started by root, bwrap keeps every capability unless told otherwise, and `mount -o remount,rw /` or an
 * `umount` of a read-only bind would undo the whole policy.
 */
export const ISOLATION_FLAGS: readonly string[] = [
  "--unshare-pid",
  "--die-with-parent",
  "--new-session",
  "--cap-drop",
  "ALL",
];

function probe(program: string): SandboxAvailability {
  if (process.platform !== "linux") {
    return { available: false, program, reason: `bubblewrap needs Linux (this is ${process.platform})` };
  }
  const run = spawnSync(program, [...BASE_MOUNTS, "--unshare-net", ...ISOLATION_FLAGS, "true"], {
    encoding: "utf8",
    timeout: 10_000,
    stdio: ["ignore", "ignore", "pipe"],
    // A plain string map: next-env.d.ts makes ProcessEnv demand NODE_ENV, which bwrap need not get.
    env: { ...LAUNCHER_ENVIRONMENT } as NodeJS.ProcessEnv,
  });
  if (run.error) {
    const code = (run.error as NodeJS.ErrnoException).code;
    if (code === "ENOENT")
      return {
        available: false,
        program,
        reason: `${program} not found (install the Debian package bubblewrap)`,
      };
    return { available: false, program, reason: `${program} could not start: ${run.error.message}` };
  }
  if (run.status !== 0) {
    const detail = (run.stderr ?? "").trim().split("\n")[0] || `exit code ${run.status ?? run.signal}`;
    return { available: false, program, reason: `${program} refused to create namespaces: ${detail}` };
  }
  return { available: true, program };
}

/** The state shown in the header, the CLI, `run_started` and every exec permission trace. */
export function sandboxState(
  network: boolean,
  availability: SandboxAvailability = detectSandbox(),
): SandboxState {
  return availability.available
    ? { enabled: true, mechanism: "bubblewrap", network }
    : { enabled: false, mechanism: "none", network: true, reason: availability.reason ?? "unavailable" };
}

// ---------------------------------------------------------------------------------------------------------
// The policy for one process and the bwrap argv that enforces it.

/** What a tool call needs to know to sandbox its process; from the session (ToolContext.sandbox). */
export interface SandboxSettings {
  /** Network inside the sandbox: the session's "allow network" setting (off by default). */
  network: boolean;
  /** Home folders whose secrets are hidden (the real home is always added). */
  homes: readonly string[];
  /** Whether bwrap can be used; default `detectSandbox()`. Tests pass it in to exercise "sandbox off". */
  availability?: SandboxAvailability;
}

/** Secrets under a home folder, hidden (an empty read-only file or folder in their place) when present. */
export const HIDDEN_HOME_ENTRIES: readonly string[] = [
  ".PseudoClaude/providers.json",
  ".PseudoClaude/playground",
  ".PseudoClaude/trusted-folders.json",
  ".ssh",
  ".aws",
  ".azure",
  ".gnupg",
  ".kube",
  ".docker/config.json",
  ".config/gh",
  ".config/hub",
  ".config/gcloud",
  ".config/anthropic",
  ".config/openai",
  ".claude/.credentials.json",
  ".netrc",
  ".npmrc",
  ".yarnrc.yml",
  ".pypirc",
  ".git-credentials",
  ".config/git/credentials",
  ".terraformrc",
  ".bash_history",
  ".zsh_history",
  ".python_history",
  ".node_repl_history",
];

/**
 * Files under a home that run code or grant permissions later, kept read-only when the home lies inside a
 * writable folder (a workdir of `/` or of the home itself). Elsewhere the whole home is read-only anyway.
 */
export const PROTECTED_HOME_ENTRIES: readonly string[] = [
  ".PseudoClaude",
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".bash_logout",
  ".profile",
  ".zshrc",
  ".zprofile",
  ".zshenv",
  ".gitconfig",
  ".config/git",
  ".config/autostart",
  ".config/systemd",
];

/** Everything bwrap needs for one process, computed per call from a fixed list of paths (no scanning). */
export interface SandboxPolicy {
  enabled: boolean;
  /** The bwrap program (absent when the sandbox is off). */
  program?: string;
  /** Why the sandbox is off. */
  reason?: string;
  network: boolean;
  /** Realpath of the workdir: the only writable folder (besides a private /tmp). */
  writable: string[];
  /** Read-only inside the writable folder, or extra read-only roots (a skill's folder). */
  readOnly: string[];
  /** Secrets replaced by an empty read-only file or folder. */
  hidden: string[];
  /** Set when the policy cannot be enforced for this workdir; the call fails with this message. */
  refusal?: string;
  /**
   * Absent paths no bind can keep absent (a stand-in would stay on disk and mean something): checked after
   * the call, removed if the process made them, and the call fails (see sandboxAftermath).
   */
  mustStayAbsent: string[];
  /**
   * With network off: a seccomp program refusing Unix-domain sockets (seccomp-filter.ts), given to bwrap
   * on file descriptor SECCOMP_DESCRIPTOR (process-runner passes it there).
   */
  seccomp?: Uint8Array;
  /** The mount part of the bwrap argv (without namespaces, cwd and command). */
  mounts: string[];
}

/** What the result metadata records about the sandbox a call ran in (explains a refused write). */
export interface SandboxSummary {
  enabled: boolean;
  network: boolean;
  reason?: string;
  writable: string[];
  readOnly: string[];
  hidden: string[];
}

export function sandboxSummary(policy: SandboxPolicy): SandboxSummary {
  return {
    enabled: policy.enabled,
    network: policy.network,
    ...(policy.reason ? { reason: policy.reason } : {}),
    writable: policy.writable,
    readOnly: policy.readOnly,
    hidden: policy.hidden,
  };
}

/**
 * An empty file and an empty folder to bind read-only over secrets and absent protected parts. They live
 * in one folder per user (`$TMPDIR/pseudoclaude-sandbox-<uid>`, reused by every server start, so nothing
 * piles up) and are checked on every call: still ours, still empty, else made again.
 */
function emptySources(): { file: string; folder: string } {
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

type Entry = { kind: "file" | "folder" | "symlink"; real: string } | undefined;

function entryAt(target: string): Entry {
  let info;
  try {
    info = lstatSync(target);
  } catch {
    return undefined;
  }
  if (info.isSymbolicLink()) {
    try {
      const real = realpathSync(target);
      return { kind: "symlink", real };
    } catch {
      return { kind: "symlink", real: target };
    }
  }
  return { kind: info.isDirectory() ? "folder" : "file", real: target };
}

function within(child: string, parent: string): boolean {
  if (parent === "/") return true;
  return child === parent || child.startsWith(parent.endsWith("/") ? parent : `${parent}/`);
}

function isWritable(folder: string): boolean {
  try {
    accessSync(folder, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function realOrSelf(target: string): string {
  try {
    return realpathSync(target);
  } catch {
    return path.resolve(target);
  }
}

/**
 * The policy for a process whose writable folder is `workdir` (run_command; skill tools add their folder
 * as `readOnlyRoots`): the whole filesystem read-only, a private /tmp, the workdir writable except
 * `.git` (kept in place), `.git/config`, `.git/hooks/` and `.PseudoClaude/`, secrets of every home hidden,
 * no network unless allowed, and (in the argv) a PID namespace that dies with its parent.
 */
export function sandboxPolicy(options: {
  workdir: string;
  readOnlyRoots?: readonly string[];
  /**
   * Paths the program needs to see (an MCP server's program, script and cwd). One the private /tmp would
   * hide is bound back read-only (see tmpFolderHolding); one under a hidden secret is a refusal.
   */
  visiblePaths?: readonly string[];
  settings?: SandboxSettings;
}): SandboxPolicy {
  const settings = options.settings ?? { network: false, homes: [] };
  const availability = settings.availability ?? detectSandbox();
  const workdir = realOrSelf(options.workdir);
  const off: SandboxPolicy = {
    enabled: false,
    reason: availability.reason ?? "unavailable",
    network: true,
    writable: ["/"],
    readOnly: [],
    hidden: [],
    mustStayAbsent: [],
    mounts: [],
  };
  if (!availability.available) return off;
  let empty: { file: string; folder: string };
  try {
    empty = emptySources();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ...off, enabled: true, network: settings.network, writable: [workdir], refusal: reason };
  }
  // A root that holds the workdir itself would make the workdir read-only: the workdir stays writable.
  const roots = (options.readOnlyRoots ?? []).map(realOrSelf).filter((rootDir) => !within(workdir, rootDir));
  const writableRoots = [workdir];
  // Both the path as given (what the process opens) and its realpath (where the kernel ends up).
  const needed = [
    ...new Set((options.visiblePaths ?? []).flatMap((target) => [path.resolve(target), realOrSelf(target)])),
  ];
  let refusal: string | undefined;
  const exposed: string[] = [];
  for (const target of needed) {
    if (within(target, workdir) || roots.some((rootDir) => within(target, rootDir))) continue;
    const folder = tmpFolderHolding(target);
    if (folder === "/tmp")
      refusal ??= `${target} is the sandbox's private /tmp: a server cannot be started from /tmp itself`;
    else if (folder && !exposed.some((done) => within(folder, done))) exposed.push(folder);
  }
  /** Paths the process can see at all: not under the private /tmp unless bound back. */
  const visible = (target: string): boolean =>
    within(target, workdir) ||
    [...roots, ...exposed].some((rootDir) => within(target, rootDir)) ||
    !within(target, "/tmp");
  const insideWritable = (target: string): boolean => writableRoots.some((dir) => within(target, dir));

  // Bound back read-only right after the private /tmp, so a workdir inside one is still bound over it.
  const exposedMounts = exposed.flatMap((folder) => ["--ro-bind", folder, folder]);
  const mounts: string[] =
    workdir === "/"
      ? ["--bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", ...exposedMounts]
      : [...BASE_MOUNTS, "--tmpfs", "/tmp", ...exposedMounts, "--bind", workdir, workdir];
  // The workdir's bind comes after `--tmpfs /tmp` so a workdir under /tmp stays visible; a workdir of `/`
  // is the base bind itself, so the private /tmp, /dev and /proc go over it.

  const readOnly: string[] = [...exposed];
  // Stand-ins for absent parts need a mount point created in the workdir; a workdir that is not writable
  // anyway (a read-only file system) needs none.
  const workdirWritable = isWritable(workdir);
  const protect = (target: string, absentAs: "file" | "folder" | "skip"): void => {
    const entry = entryAt(target);
    if (entry?.kind === "symlink") {
      // A symlink in a writable folder can be replaced by the process; a bind over it would follow it.
      refusal ??= `${target} is a symbolic link; the sandbox cannot keep it read-only`;
      return;
    }
    if (!entry && (absentAs === "skip" || !workdirWritable)) return;
    // An absent part gets an empty read-only stand-in; bwrap creates its mount point on disk.
    const source = entry ? target : absentAs === "file" ? empty.file : empty.folder;
    mounts.push("--ro-bind", source, target);
    readOnly.push(target);
  };

  const gitDir = path.join(workdir, ".git");
  const git = entryAt(gitDir);
  const mustStayAbsent: string[] = [];
  if (git?.kind === "folder") {
    // `.git` itself becomes a mount point, so it cannot be renamed aside and replaced by a new one.
    mounts.push("--bind", gitDir, gitDir);
    protect(path.join(gitDir, "config"), "file");
    protect(path.join(gitDir, "hooks"), "folder");
    // Also read by git on the host, and able to make it run code: the submodules' and linked worktrees'
    // git folders (their config, hooks, commondir) and `commondir`, which moves config and hooks elsewhere.
    protect(path.join(gitDir, "modules"), "folder");
    protect(path.join(gitDir, "worktrees"), "folder");
    const commondir = path.join(gitDir, "commondir");
    // An empty stand-in would break git on the host (it dies on an empty commondir): checked afterwards.
    if (entryAt(commondir)) protect(commondir, "skip");
    else mustStayAbsent.push(commondir);
  } else if (git) {
    // A `.git` file (worktree, submodule) names the git folder: rewriting it would redirect git.
    protect(gitDir, "skip");
  }
  protect(path.join(workdir, ".PseudoClaude"), "folder");
  // After the workdir's protected parts (their mount points may have to be made in the writable workdir).
  for (const rootDir of roots) {
    mounts.push("--ro-bind", rootDir, rootDir);
    readOnly.push(rootDir);
  }

  const homes = [...new Set([os.homedir(), ...settings.homes].map(realOrSelf))];
  for (const home of homes) {
    for (const relative of PROTECTED_HOME_ENTRIES) {
      const target = path.join(home, relative);
      if (!insideWritable(target) || target === path.join(workdir, ".PseudoClaude")) continue;
      if (entryAt(target)?.kind === "symlink") continue;
      protect(target, "skip");
    }
  }

  const hidden: string[] = [];
  for (const home of homes) {
    for (const relative of HIDDEN_HOME_ENTRIES) {
      const entry = entryAt(path.join(home, relative));
      if (!entry) continue;
      const target = entry.real;
      // Not visible anyway (under the private /tmp), or the user chose to work inside it.
      if (!visible(target) || within(workdir, target)) continue;
      const kind = entry.kind === "symlink" ? entryAt(target)?.kind : entry.kind;
      if (kind === undefined || kind === "symlink") continue;
      mounts.push("--ro-bind", kind === "folder" ? empty.folder : empty.file, target);
      hidden.push(target);
    }
  }
  for (const target of needed) {
    const secret = hidden.find((folder) => within(target, folder));
    if (secret)
      refusal ??= `${target} lies in ${secret}, which the sandbox hides (a secret); move it elsewhere`;
  }

  return {
    enabled: true,
    program: availability.program,
    network: settings.network,
    writable: writableRoots,
    readOnly,
    hidden,
    ...(refusal ? { refusal } : {}),
    mustStayAbsent,
    ...(settings.network ? {} : optional("seccomp", unixSocketFilter())),
    mounts,
  };
}

/**
 * The folder of the host's /tmp that holds `target` (`/tmp/<first segment>`; the target itself when it
 * lies directly in /tmp; `/tmp` for /tmp itself), or undefined outside /tmp. The whole folder, not just
 * the file: a script needs its neighbours (node_modules, a virtualenv, the checkout it belongs to).
 */
export function tmpFolderHolding(target: string): string | undefined {
  if (!within(target, "/tmp")) return undefined;
  const first = target.slice("/tmp/".length).split("/")[0];
  return first ? path.join("/tmp", first) : "/tmp";
}

function optional<Key extends string, Value>(key: Key, value: Value | undefined): { [K in Key]?: Value } {
  return (value === undefined ? {} : { [key]: value }) as { [K in Key]?: Value };
}

/** The file descriptor of the child on which bwrap reads the seccomp program. */
export const SECCOMP_DESCRIPTOR = 3;

/**
 * After a sandboxed call has ended (its PID namespace is gone, so nothing writes any more): removes what the
 * process made at a path of `mustStayAbsent` and says which, so the call fails with the policy's reason.
 */
export function sandboxAftermath(policy: SandboxPolicy): string | undefined {
  const made = policy.mustStayAbsent.filter((target) => entryAt(target) !== undefined);
  for (const target of made) rmSync(target, { recursive: true, force: true });
  if (made.length === 0) return undefined;
  return `the sandbox removed ${made.join(", ")}: git would read it as its config and hooks`;
}

/**
 * The full bwrap argv for a program under `policy`, run in `cwd` with exactly `env` (bwrap clears its own
 * environment, which is the launcher's fixed one, and sets these inside: see child-environment.ts).
 */
export function bwrapArguments(
  policy: SandboxPolicy,
  command: { cwd: string; file: string; args: readonly string[]; env: Readonly<Record<string, string>> },
): string[] {
  return [
    ...policy.mounts,
    ...bwrapEnvironmentArguments(command.env),
    ...(policy.network ? [] : ["--unshare-net"]),
    ...(policy.seccomp ? ["--seccomp", String(SECCOMP_DESCRIPTOR)] : []),
    ...ISOLATION_FLAGS,
    "--chdir",
    command.cwd,
    "--",
    command.file,
    ...command.args,
  ];
}
