// Resource limits of a sandboxed call (SECURITY S25): a filled /tmp or /dev/shm, or a fork bomb, must not
// take the machine's memory or process table from the server and everything else.
//  - /tmp and /dev/shm are the call's own tmpfs with a size (bwrap `--size`); tmpfs takes half the RAM
//    otherwise. bwrap's /dev is a tmpfs too: it is remounted read-only (device nodes still work).
//  - Processes: two kernel mechanisms, each used where it works (measured on Linux 6.x):
//    * RLIMIT_NPROC, set inside the sandbox (prlimit before the program). Counted per user namespace, so
//      it bounds the call alone when bwrap gives it its own user namespace (it does for every user but
//      root). The kernel never applies it to uid 0: for a server run as root it does nothing.
//    * a pids cgroup per call, where the server may create one (cgroup v1 `pids`, or a v2 subtree with
//      `pids` delegated): that is the limit for root. The call joins it itself, first thing inside the
//      sandbox, through its own cgroup.procs bound writable; every other cgroup file stays read-only, so it
//      can neither raise the limit nor leave.
//    Where neither works (root without a writable cgroup), the call has no process limit; its PID namespace
//    still ends everything with the call, at the latest at its timeout. README says so.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import path from "node:path";

export interface SandboxLimits {
  /** Size of the call's /tmp, in bytes. */
  tmpBytes: number;
  /** Size of the call's /dev/shm, in bytes. */
  shmBytes: number;
  /** Processes (threads count too) the call may have at once. */
  processes: number;
}

const MIB = 1024 * 1024;
/** The defaults: room for compilers and test runners, far below half the RAM of any machine. */
export const DEFAULT_LIMITS: SandboxLimits = { tmpBytes: 512 * MIB, shmBytes: 64 * MIB, processes: 1024 };

/** The settings, as environment variables of the server (and of `cli run`): whole MiB, a count. */
export const LIMIT_VARIABLES = {
  tmpBytes: "PSEUDOCLAUDE_SANDBOX_TMP_MB",
  shmBytes: "PSEUDOCLAUDE_SANDBOX_SHM_MB",
  processes: "PSEUDOCLAUDE_SANDBOX_PROCESSES",
} as const;

/**
 * The limits in force: the environment's settings over the defaults. A value that is not a whole number in
 * range is an error naming the variable (the call is refused with it), never silently replaced.
 */
export function sandboxLimits(
  environment: Readonly<Record<string, string | undefined>> = process.env,
): SandboxLimits | string {
  const limits = { ...DEFAULT_LIMITS };
  for (const key of Object.keys(LIMIT_VARIABLES) as (keyof SandboxLimits)[]) {
    const variable = LIMIT_VARIABLES[key];
    const text = environment[variable];
    if (text === undefined || text === "") continue;
    const number = /^\d+$/.test(text.trim()) ? Number(text.trim()) : NaN;
    const [low, high] = key === "processes" ? [16, 1_000_000] : [1, 1_048_576];
    if (!Number.isSafeInteger(number) || number < low || number > high) {
      const unit = key === "processes" ? "processes" : "MiB";
      return `${variable} must be a whole number of ${unit} from ${low} to ${high}, not "${text}"`;
    }
    limits[key] = key === "processes" ? number : number * MIB;
  }
  return limits;
}

/** The mounts giving a call its own size-limited /tmp and /dev/shm, and a read-only /dev. */
export function limitedTmpMounts(limits: SandboxLimits): string[] {
  return [
    "--remount-ro",
    "/dev",
    "--size",
    String(limits.shmBytes),
    "--tmpfs",
    "/dev/shm",
    "--size",
    String(limits.tmpBytes),
    "--tmpfs",
    "/tmp",
  ];
}

/** prlimit, looked up once where util-linux installs it (no PATH: the sandbox's root is the host's). */
const PRLIMIT = ["/usr/bin/prlimit", "/bin/prlimit"].find((candidate) => existsSync(candidate));

/** A call's own pids cgroup: its cgroup.procs is bound writable into the sandbox. */
export interface ProcessGroup {
  folder: string;
  procs: string;
}

/**
 * The program to run inside the sandbox: `command` itself, or a short /bin/sh that first joins the call's
 * cgroup, then execs it under prlimit. A program that does not exist is reported in bwrap's own words, so a
 * missing program reads the same with or without the wrapper.
 */
export function limitedCommand(
  command: { file: string; args: readonly string[] },
  processes: number | undefined,
  group: ProcessGroup | undefined,
): { file: string; args: string[] } {
  const rlimit = processes !== undefined && PRLIMIT !== undefined;
  if (!rlimit && !group) return { file: command.file, args: [...command.args] };
  const script = [
    "cg=$1; n=$2; shift 2",
    'if [ -n "$cg" ]; then echo 0 > "$cg" || exit 125; fi',
    'command -v -- "$1" >/dev/null 2>&1 || { echo "bwrap: execvp $1: No such file or directory" >&2; exit 1; }',
    `if [ -n "$n" ]; then exec ${PRLIMIT ?? "false"} --nproc="$n:$n" -- "$@"; fi`,
    'exec "$@"',
  ].join("\n");
  return {
    file: "/bin/sh",
    args: [
      "-c",
      script,
      "sandbox-limits",
      group?.procs ?? "",
      rlimit ? String(processes) : "",
      command.file,
      ...command.args,
    ],
  };
}

/** What enforces the process limit of a call on this machine, for the result metadata and the README. */
export function processLimitMechanism(): "cgroup" | "rlimit" | "none" {
  if (cgroupBase()) return "cgroup";
  return PRLIMIT !== undefined && process.getuid?.() !== 0 ? "rlimit" : "none";
}

// ---------------------------------------------------------------------------------------------------------
// pids cgroups: found once, one per call, removed when the call has ended.

let base: string | undefined | null = null;
let created = 0;

/** The pids cgroup folder this server may create children in, or undefined (then RLIMIT_NPROC only). */
function cgroupBase(): string | undefined {
  if (base !== null) return base;
  base = findCgroupBase();
  if (base) removeStaleGroups(base);
  return base;
}

function findCgroupBase(): string | undefined {
  let lines: string[];
  try {
    lines = readFileSync("/proc/self/cgroup", "utf8").trim().split("\n");
  } catch {
    return undefined;
  }
  for (const line of lines) {
    const [, controllers = "", own = "/"] = line.split(":");
    const candidate = controllers.split(",").includes("pids")
      ? path.join("/sys/fs/cgroup/pids", own)
      : controllers === ""
        ? path.join("/sys/fs/cgroup", own)
        : undefined;
    if (candidate === undefined) continue;
    // cgroup v2: the children get a pids.max only where the controller is delegated to them.
    if (
      controllers === "" &&
      !readText(path.join(candidate, "cgroup.subtree_control")).split(" ").includes("pids")
    )
      continue;
    if (canCreateChild(candidate)) return candidate;
  }
  return undefined;
}

function canCreateChild(folder: string): boolean {
  const probe = path.join(folder, `pseudoclaude-${process.pid}-probe`);
  try {
    mkdirSync(probe);
    const writable = existsSync(path.join(probe, "pids.max"));
    rmdirSync(probe);
    return writable;
  } catch {
    return false;
  }
}

function readText(file: string): string {
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    return "";
  }
}

/** Groups left by a server that was killed (`pseudoclaude-<pid>-<n>` of a pid no longer running). */
function removeStaleGroups(folder: string): void {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return;
  }
  for (const name of names) {
    const owner = /^pseudoclaude-(\d+)-/.exec(name)?.[1];
    if (owner === undefined || Number(owner) === process.pid || existsSync(`/proc/${owner}`)) continue;
    try {
      rmdirSync(path.join(folder, name));
    } catch {
      // Still has processes, or gone already: left for the next start.
    }
  }
}

/** A new pids cgroup for one call, limited to `processes`; undefined where none can be made. */
export function createProcessGroup(processes: number): ProcessGroup | undefined {
  const parent = cgroupBase();
  if (!parent) return undefined;
  const folder = path.join(parent, `pseudoclaude-${process.pid}-${++created}`);
  try {
    mkdirSync(folder);
    writeFileSync(path.join(folder, "pids.max"), String(processes));
    return { folder, procs: path.join(folder, "cgroup.procs") };
  } catch {
    void removeProcessGroup({ folder, procs: "" });
    return undefined;
  }
}

/**
 * Removes a call's cgroup once its processes are gone (the kernel ends a PID namespace's members when its
 * first process dies; that may take a moment): tries for up to a second, then once more later.
 */
export async function removeProcessGroup(group: ProcessGroup): Promise<void> {
  for (let attempt = 0; attempt < 20; attempt++) {
    try {
      rmdirSync(group.folder);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return;
      if (code !== "EBUSY") return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  setTimeout(() => {
    try {
      rmdirSync(group.folder);
    } catch {
      // Left for removeStaleGroups at the next start.
    }
  }, 5_000).unref();
}
