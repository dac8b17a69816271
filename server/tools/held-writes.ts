// A call's writes held apart until they are checked (SECURITY S15, "while the call runs"). The rule: nothing
// an agent process writes reaches the real workdir before the call has ended and its result has been
// checked — a host program that reads the workdir meanwhile (an editor's git integration running
// `git status` on every change, a shell prompt) must never see a repository the call planted.
//
// How: an overlay over the workdir, mounted in a user + mount namespace of the call's own (a "holder"
// process, `unshare --user --map-root-user --mount`, which mounts it over the workdir's own path and then
// waits on its stdin). lower = the real workdir, upper = a private per-call folder outside it. bwrap is
// started inside the holder's namespaces (`nsenter`), so the policy's binds of the workdir bind the overlay
// and every write of the call lands in upper. When the call has ended, the server reads the merged result
// through `/proc/<holder>/root/<workdir>` (the holder's mount namespace, which it owns), checks it
// (sandbox-call.ts, sandboxAftermath) and applies upper to the workdir (held-writes-apply.ts), or applies
// nothing. Then the holder is ended (its namespace and the overlay go with it) and upper is removed.
//
// Where this cannot work (bubblewrap 0.8 has no `--overlay`, so the overlay is mounted by util-linux's
// `unshare` + `mount`; Ubuntu 24.04's AppArmor refuses `unshare --user` to unconfined programs while it
// allows bwrap; a kernel without unprivileged overlayfs), it is detected once, the call keeps the check
// after it ends, and the sandbox state says "writes held until checked: no — <reason>", never silently.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { chmod, readdir, rmdir, unlink } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { LAUNCHER_ENVIRONMENT } from "./child-environment.ts";
import { eachAtOnce } from "./held-writes-apply.ts";
import { findProgram } from "./find-program.ts";

/** `PSEUDOCLAUDE_SANDBOX_HOLD_WRITES=off` turns the overlay off (the check after the call stays). */
export const HOLD_WRITES_VARIABLE = "PSEUDOCLAUDE_SANDBOX_HOLD_WRITES";

export interface HeldWritesAvailability {
  available: boolean;
  /** Why writes are not held (then each call is checked after it ends, as without the overlay). */
  reason?: string;
  unshare?: string;
  nsenter?: string;
}

/** Found once per bwrap program (tests may name another). */
const detected = new Map<string, HeldWritesAvailability>();

/**
 * Whether calls can run over an overlay here: found once (the first call, or the server's start), by
 * mounting one in a throwaway namespace and starting bwrap in it. Never throws.
 */
export function detectHeldWrites(bwrap: string): HeldWritesAvailability {
  const setting = process.env[HOLD_WRITES_VARIABLE];
  if (setting === "off" || setting === "0" || setting === "false")
    return { available: false, reason: `turned off by ${HOLD_WRITES_VARIABLE}=${setting}` };
  const known = detected.get(bwrap);
  if (known) return known;
  const found = probe(bwrap);
  detected.set(bwrap, found);
  if (found.available) removeStaleCalls();
  return found;
}

/** The per-user folder holding each call's upper layer: private, and hidden from the sandbox by its /tmp. */
function baseFolder(): string {
  return path.join(os.tmpdir(), `pseudoclaude-held-${process.getuid?.() ?? 0}`);
}

function ownBase(): string {
  const base = baseFolder();
  mkdirSync(base, { recursive: true, mode: 0o700 });
  const info = lstatSync(base);
  if (!info.isDirectory() || info.uid !== (process.getuid?.() ?? 0) || (info.mode & 0o077) !== 0)
    throw new Error(`${base} is not a private folder of this user`);
  return base;
}

/** The arguments bwrap needs inside the holder: there the server's user is uid 0, so it maps it back. */
export function userArguments(): string[] {
  const uid = process.getuid?.() ?? 0;
  const gid = process.getgid?.() ?? 0;
  return uid === 0 ? [] : ["--unshare-user", "--uid", String(uid), "--gid", String(gid)];
}

const HOLDER_SCRIPT = [
  'mount -t overlay overlay -o "lowerdir=$1,upperdir=$2,workdir=$3,userxattr" "$1" || exit 97',
  'if [ -n "$4" ]; then shift 3; exec "$@"; fi',
  "echo ready",
  // Until the server closes stdin (it does when the call's result is applied, or when it dies).
  "read -r _",
].join("\n");

/**
 * `unshare`'s arguments for a holder: its own user namespace (the server's user as uid 0 there, which may
 * mount) and mount namespace, where /bin/sh mounts the overlay over `lower` itself.
 */
function holderArguments(lower: string, upper: string, work: string): string[] {
  return [
    "--user",
    "--map-root-user",
    "--mount",
    "/bin/sh",
    "-c",
    HOLDER_SCRIPT,
    "holder",
    lower,
    upper,
    work,
  ];
}

function probe(bwrap: string): HeldWritesAvailability {
  const unshare = findProgram("/usr/bin/unshare") ?? findProgram("/bin/unshare");
  const nsenter = findProgram("/usr/bin/nsenter") ?? findProgram("/bin/nsenter");
  if (!unshare || !nsenter)
    return { available: false, reason: "util-linux's unshare and nsenter are not installed" };
  let folder: string | undefined;
  try {
    folder = mkdtempSync(path.join(ownBase(), "probe-"));
    const lower = path.join(folder, "lower");
    const layers = callLayers(folder);
    mkdirSync(lower);
    writeFileSync(path.join(lower, "kept"), "");
    const run = spawnSync(
      unshare,
      [
        ...holderArguments(lower, layers.upper, layers.work),
        bwrap,
        ...["--ro-bind", "/", "/", "--bind", lower, lower, ...userArguments(), "--cap-drop", "ALL"],
        ...["--", "/bin/sh", "-c", 'rm "$0/kept" && echo new > "$0/made"', lower],
      ],
      { encoding: "utf8", timeout: 10_000, env: { ...LAUNCHER_ENVIRONMENT } as NodeJS.ProcessEnv },
    );
    const upper = existsSync(path.join(layers.upper, "made")) && existsSync(path.join(lower, "kept"));
    if (run.status === 0 && upper) return { available: true, unshare, nsenter };
    const detail =
      (run.stderr ?? "").trim().split("\n")[0] ||
      (run.error?.message ?? `exit code ${run.status ?? run.signal}`);
    return { available: false, reason: `an overlay could not be mounted for the call: ${detail}` };
  } catch (error) {
    return { available: false, reason: `an overlay could not be prepared: ${(error as Error).message}` };
  } finally {
    if (folder) void removeCallFolder(folder);
  }
}

function callLayers(folder: string): { upper: string; work: string } {
  const upper = path.join(folder, "upper");
  const work = path.join(folder, "work");
  mkdirSync(upper);
  mkdirSync(work);
  return { upper, work };
}

/** The overlay of one call, and the process whose namespace holds it. */
export interface HeldCall {
  workdir: string;
  /** The call's private folder (upper/, work/). */
  folder: string;
  /** The call's writes: upper of the overlay. */
  upper: string;
  /** The holder's pid: bwrap joins its namespaces, and the merged view is read through its /proc root. */
  pid: number;
  /** The merged view of the workdir (`/proc/<pid>/root<workdir>`), readable while the holder lives. */
  view: string;
  nsenter: string;
  /** util-linux's unshare, for the opacity probe (opaqueFolders). */
  unshare: string;
  /**
   * Ends the holder (its namespace and the overlay go with it) and, once it is gone, removes the call's
   * folder unless `keep`. The call's result need not wait for that: the returned promise may be ignored.
   */
  end(keep?: boolean): Promise<void>;
  /** Whether the holder still runs (so `view` is its overlay, not a gone process's nor a new one's). */
  alive(): boolean;
}

/**
 * Mounts the overlay of one call over `workdir`; resolves once it is in place. A workdir the overlay's
 * option syntax cannot name (a `,`, `:` or `\` in its path) gets none: the reason is returned.
 */
export async function holdWrites(
  workdir: string,
  availability: HeldWritesAvailability,
): Promise<HeldCall | string> {
  if (!availability.available || !availability.unshare || !availability.nsenter)
    return availability.reason ?? "unavailable";
  if (/[,:\\\n]/.test(workdir))
    return `the workdir's path holds a character an overlay mount option cannot name (",", ":" or "\\")`;
  let folder: string | undefined;
  let layers: { upper: string; work: string };
  try {
    folder = mkdtempSync(path.join(ownBase(), `call-${process.pid}-`));
    layers = callLayers(folder);
  } catch (error) {
    if (folder) void removeCallFolder(folder);
    return `no private folder for the call's writes: ${(error as Error).message}`;
  }
  const callFolder = folder;
  const holder = spawn(availability.unshare, holderArguments(workdir, layers.upper, layers.work), {
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...LAUNCHER_ENVIRONMENT } as NodeJS.ProcessEnv,
    // Its own process group: a Ctrl-C to the server's terminal must not end it before the server has
    // checked and applied the call (it ends when the server closes its stdin, or dies).
    detached: true,
  });
  // A holder that could not start emits "error" and may never emit "close".
  const exited = new Promise<void>((resolve) => {
    holder.once("close", () => resolve());
    holder.once("error", () => resolve());
  });
  let stderr = "";
  holder.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  holder.stdin.on("error", () => undefined);
  const ready = await new Promise<boolean>((resolve) => {
    holder.stdout.on("data", (chunk: Buffer) => {
      if (chunk.toString("utf8").includes("ready")) resolve(true);
    });
    holder.once("error", () => resolve(false));
    holder.once("close", () => resolve(false));
  });
  const end = async (keep = false): Promise<void> => {
    holder.stdin.end();
    await exited;
    if (!keep) await removeCallFolder(callFolder);
  };
  if (!ready || holder.pid === undefined) {
    await end();
    return `an overlay could not be mounted for the call: ${stderr.trim().split("\n")[0] || "the holder exited"}`;
  }
  return {
    workdir,
    folder: callFolder,
    upper: layers.upper,
    pid: holder.pid,
    view: `/proc/${holder.pid}/root${workdir}`,
    nsenter: availability.nsenter,
    unshare: availability.unshare,
    end,
    // Node sets these when it reaps the holder: until then its pid is a zombie's, never another process's.
    alive: () => holder.exitCode === null && holder.signalCode === null,
  };
}

const PROBE_NAME = ".pseudoclaude-opaque-probe";
const PROBE_SCRIPT = [
  'mount -t overlay overlay -o "ro,lowerdir=$1:$2,userxattr" "$3" || exit 97',
  'm=$3; shift 3; for d do if [ ! -e "$m/$d/' + PROBE_NAME + '" ]; then printf "%s\\0" "$d"; fi; done',
].join("\n");

/**
 * Which of `candidates` (folders of the call's upper, relative to the workdir) the overlay marks opaque —
 * removed and made again by the call, so what the workdir had in them must go — as opposed to folders the
 * call made new while another process (a second call, the user's editor) made the same folder in the
 * workdir, whose entries must stay. The mark is an xattr Node cannot read, so the kernel is asked: a fresh
 * read-only overlay with upper on top of a folder tree holding one probe file in each candidate; a probe
 * that does not show was hidden by an opaque folder. Undefined when the probe could not run.
 */
export async function opaqueFolders(
  held: HeldCall,
  candidates: readonly string[],
): Promise<Set<string> | undefined> {
  if (candidates.length === 0) return new Set();
  const probe = path.join(held.folder, "probe");
  const mount = path.join(held.folder, "probe-mount");
  try {
    mkdirSync(mount, { recursive: true });
    for (const folder of candidates) {
      mkdirSync(path.join(probe, folder), { recursive: true });
      writeFileSync(path.join(probe, folder, PROBE_NAME), "");
    }
  } catch {
    return undefined;
  }
  const child = spawn(
    held.unshare,
    [
      "--user",
      "--map-root-user",
      "--mount",
      "/bin/sh",
      "-c",
      PROBE_SCRIPT,
      "probe",
      held.upper,
      probe,
      mount,
      ...candidates,
    ],
    { stdio: ["ignore", "pipe", "ignore"], env: { ...LAUNCHER_ENVIRONMENT } as NodeJS.ProcessEnv },
  );
  const chunks: Buffer[] = [];
  child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
  const code = await new Promise<number | null>((resolve) => {
    child.once("error", () => resolve(-1));
    child.once("close", (exit) => resolve(exit));
  });
  if (code !== 0) return undefined;
  return new Set(Buffer.concat(chunks).toString("utf8").split("\0").filter(Boolean));
}

/** The program and arguments that run bwrap (with `bwrapArgs`) inside the call's overlay. */
export function heldLaunch(
  held: HeldCall,
  bwrap: string,
  bwrapArgs: readonly string[],
): { file: string; args: string[] } {
  return {
    file: held.nsenter,
    args: [
      "--target",
      String(held.pid),
      "--user",
      "--mount",
      "--preserve-credentials",
      "--",
      bwrap,
      ...userArguments(),
      ...bwrapArgs,
    ],
  };
}

/**
 * Removes a call's private folder (overlay's work/work is mode 000: made writable first). Asynchronous: a
 * refused call's upper may hold 100,000 files, and removing them must not stop the server answering.
 */
export async function removeCallFolder(folder: string): Promise<void> {
  try {
    await chmod(path.join(folder, "work", "work"), 0o700);
  } catch {
    // Not made (the overlay never mounted).
  }
  try {
    await removeTree(folder);
  } catch {
    // Left for the next start (removeStaleCalls); never an error of the call.
  }
}

/**
 * `rm -r`, a few entries at a time: fs.promises.rm starts one unlink per entry of a folder at once, and
 * 60,000 completions handled in one turn held the event loop for 0.7 s. Never follows a symlink.
 */
async function removeTree(folder: string): Promise<void> {
  const entries = await readdir(folder, { withFileTypes: true });
  await eachAtOnce(entries, 16, async (entry) => {
    const child = path.join(folder, entry.name);
    if (entry.isDirectory()) await removeTree(child);
    else await unlink(child);
  });
  await rmdir(folder);
}

/** Folders of calls whose server died before it could remove them (`call-<pid>-…` of a pid gone). */
function removeStaleCalls(): void {
  let names: string[];
  try {
    names = readdirSync(ownBase());
  } catch {
    return;
  }
  for (const name of names) {
    const owner = /^call-(\d+)-/.exec(name)?.[1];
    if (owner === undefined || Number(owner) === process.pid || existsSync(`/proc/${owner}`)) continue;
    void removeCallFolder(path.join(baseFolder(), name));
  }
}
