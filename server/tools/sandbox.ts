// The operating-system sandbox for every process the agent starts: bubblewrap (`bwrap`). This module
// answers whether it can be used on this machine (probed once, by really starting a sandboxed `true`).
import { spawnSync } from "node:child_process";
import { lstatSync, realpathSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { SandboxState } from "../protocol/sandbox.ts";
import { detectHeldWrites, type HeldCall } from "./held-writes.ts";
import type { RepositoryScan } from "./sandbox-git.ts";
import {
  DEFAULT_LIMITS,
  limitedCommand,
  limitedTmpMounts,
  processLimitMechanism,
  sandboxLimits,
  type ProcessGroup,
  type SandboxLimits,
} from "./sandbox-limits.ts";
import { emptySources } from "./sandbox-stand-ins.ts";
import { bwrapEnvironmentArguments, LAUNCHER_ENVIRONMENT } from "./child-environment.ts";
import { findProgram } from "./find-program.ts";
import { sandboxSeccompFilter } from "./seccomp-filter.ts";

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
  if (!availability.available)
    return { enabled: false, mechanism: "none", network: true, reason: availability.reason ?? "unavailable" };
  const held = detectHeldWrites(availability.program);
  return {
    enabled: true,
    mechanism: "bubblewrap",
    network,
    writesHeld: held.available,
    ...(held.available ? {} : { writesHeldReason: held.reason ?? "unavailable" }),
  };
}

/** The line the server's start and the CLI print about held writes (sandbox on). */
export function heldWritesLine(state: SandboxState): string {
  return state.writesHeld
    ? "writes held until checked: yes (each command writes to an overlay, applied when it ends and is checked)"
    : `writes held until checked: no — ${state.writesHeldReason ?? "unavailable"} (each command is checked after it ends)`;
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
  /** Limits of /tmp, /dev/shm and processes; default the server's settings (sandbox-limits.ts). */
  limits?: Partial<SandboxLimits>;
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

/** Everything bwrap needs for one process: fixed paths per call, and the repositories guardRepositories finds. */
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
  /** Sizes of the call's /tmp and /dev/shm, and how many processes it may have (sandbox-limits.ts). */
  limits: SandboxLimits;
  /** The call's own pids cgroup (prepareSandboxedCall), removed by sandboxAftermath. */
  processGroup?: ProcessGroup;
  /**
   * Protected paths that are absent: no bind is made over them (it would leave a mount point on disk, see
   * sandboxPolicy's no-mount-point rule), so they are checked after the call instead — removed if the
   * process made them (a held call's writes are refused whole), and the call fails (see sandboxAftermath).
   */
  mustStayAbsent: string[];
  /** Where in `mounts` writable binds may go: before every read-only bind, which they must not loosen. */
  mountPointsAt: number;
  /**
   * The repositories git could find in the workdir when the call started (guardRepositories): kept as they
   * are by binds and checked again after the call (sandbox-git.ts). Absent until the policy is guarded.
   */
  repositories?: RepositoryScan;
  /**
   * The seccomp program (seccomp-filter.ts): set-user/group-ID bits refused always, Unix-domain sockets
   * with network off; given to bwrap on file descriptor SECCOMP_DESCRIPTOR (process-runner passes it there).
   */
  seccomp?: Uint8Array;
  /** The mount part of the bwrap argv (without namespaces, cwd and command). */
  mounts: string[];
  /**
   * The call's overlay (held-writes.ts): its writes stay in upper until sandboxAftermath has checked and
   * applied them. Absent: the call writes the workdir directly and is checked after it ends.
   */
  held?: HeldCall;
  /** Why this call's writes are not held (set by prepareSandboxedCall when it made no overlay). */
  notHeld?: string;
}

/** What the result metadata records about the sandbox a call ran in (explains a refused write). */
export interface SandboxSummary {
  enabled: boolean;
  network: boolean;
  reason?: string;
  writable: string[];
  readOnly: string[];
  hidden: string[];
  /** The limits in force, and what enforces the process limit here ("cgroup", "rlimit" or "none"). */
  limits?: SandboxLimits & { processLimit: string };
  /** Whether the call's writes were held until checked (held-writes.ts), and if not, why. */
  writesHeld?: boolean;
  writesHeldReason?: string;
}

export function sandboxSummary(policy: SandboxPolicy): SandboxSummary {
  return {
    enabled: policy.enabled,
    network: policy.network,
    ...(policy.reason ? { reason: policy.reason } : {}),
    writable: policy.writable,
    readOnly: policy.readOnly,
    hidden: policy.hidden,
    ...(policy.enabled ? { limits: { ...policy.limits, processLimit: processLimitMechanism() } } : {}),
    ...(policy.held ? { writesHeld: true } : {}),
    ...(policy.notHeld !== undefined ? { writesHeld: false, writesHeldReason: policy.notHeld } : {}),
  };
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

function realOrSelf(target: string): string {
  try {
    return realpathSync(target);
  } catch {
    return path.resolve(target);
  }
}

/**
 * The policy for a process whose writable folder is `workdir` (run_command; skill tools add their folder
 * as `readOnlyRoots`): the whole filesystem read-only, a private /tmp, the workdir writable except what a
 * host program reads from it as configuration (protected-paths.ts: `.PseudoClaude/` and `.mcp.json` here,
 * git's repositories once guardRepositories has scanned them), secrets of every home hidden, no network
 * unless allowed, and (in the argv) a PID namespace that dies with its parent.
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
    mountPointsAt: 0,
    limits: DEFAULT_LIMITS,
    mounts: [],
  };
  if (!availability.available) return off;
  const configured = sandboxLimits();
  if (typeof configured === "string")
    return { ...off, enabled: true, network: settings.network, writable: [workdir], refusal: configured };
  const limits: SandboxLimits = { ...configured, ...settings.limits };
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
      ? [
          "--bind",
          "/",
          "/",
          "--dev",
          "/dev",
          "--proc",
          "/proc",
          ...limitedTmpMounts(limits),
          ...exposedMounts,
        ]
      : [...BASE_MOUNTS, ...limitedTmpMounts(limits), ...exposedMounts, "--bind", workdir, workdir];
  // The workdir's bind comes after `--tmpfs /tmp` so a workdir under /tmp stays visible; a workdir of `/`
  // is the base bind itself, so the private /tmp, /dev and /proc go over it.

  const readOnly: string[] = [...exposed];
  // THE NO-MOUNT-POINT RULE: nothing is bound over a path that does not exist inside a writable folder.
  // bwrap would create the target as a mount point on the real disk (or in the call's overlay), so the
  // user's folder would gain an entry it never had, listed as the call's write. A protected part that is
  // absent must stay absent instead (mustStayAbsent, checked after the call: a held call's writes are
  // refused whole, a direct call's are removed), which protects it as well as an empty read-only stand-in.
  const protect = (target: string): void => {
    const entry = entryAt(target);
    if (entry?.kind === "symlink") {
      // A symlink in a writable folder can be replaced by the process; a bind over it would follow it.
      refusal ??= `${target} is a symbolic link; the sandbox cannot keep it read-only`;
      return;
    }
    if (!entry) return;
    mounts.push("--ro-bind", target, target);
    readOnly.push(target);
  };

  const mountPointsAt = mounts.length;
  const mustStayAbsent: string[] = [];
  // git's repositories (the workdir's `.git`, and any below it) are scanned and kept when the call starts:
  // guardRepositories. A `.git` symlink cannot be kept by a bind, which would follow it.
  if (entryAt(path.join(workdir, ".git"))?.kind === "symlink")
    refusal ??= `${path.join(workdir, ".git")} is a symbolic link; the sandbox cannot keep it read-only`;
  // What the playground reads from the workdir as configuration (protected-paths.ts): `.PseudoClaude/`
  // and `.mcp.json`, read-only when present and kept absent when absent (the no-mount-point rule above).
  for (const name of [".PseudoClaude", ".mcp.json"]) {
    const target = path.join(workdir, name);
    if (entryAt(target)) protect(target);
    else mustStayAbsent.push(target);
  }
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
      protect(target);
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
    mountPointsAt,
    limits,
    ...optional("seccomp", sandboxSeccompFilter({ refuseUnixSockets: !settings.network })),
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
 * The full bwrap argv for a program under `policy`, run in `cwd` with exactly `env` (bwrap clears its own
 * environment, which is the launcher's fixed one, and sets these inside: see child-environment.ts).
 */
export function bwrapArguments(
  policy: SandboxPolicy,
  command: { cwd: string; file: string; args: readonly string[]; env: Readonly<Record<string, string>> },
): string[] {
  if (policy.enabled && !policy.repositories)
    throw new Error("sandbox policy used without guardRepositories: the workdir's repositories are not kept");
  const group = policy.processGroup;
  const program = limitedCommand(command, policy.enabled ? policy.limits.processes : undefined, group);
  return [
    ...policy.mounts,
    // The call's own cgroup.procs, the one cgroup file it may write: it joins its group through it.
    ...(group ? ["--bind", group.procs, group.procs] : []),
    ...bwrapEnvironmentArguments(command.env),
    ...(policy.network ? [] : ["--unshare-net"]),
    ...(policy.seccomp ? ["--seccomp", String(SECCOMP_DESCRIPTOR)] : []),
    ...ISOLATION_FLAGS,
    "--chdir",
    command.cwd,
    "--",
    program.file,
    ...program.args,
  ];
}
