// The operating-system sandbox for every process the agent starts: bubblewrap (`bwrap`). This module
// answers whether it can be used on this machine (probed once, by really starting a sandboxed `true`).
import { spawnSync } from "node:child_process";
import type { SandboxState } from "../protocol/sandbox.ts";

export type { SandboxState };

export interface SandboxAvailability {
  available: boolean;
  /** The bwrap program used (absolute path or a name looked up on PATH). */
  program: string;
  /** Why the sandbox cannot be used. */
  reason?: string;
}

/** `PSEUDOCLAUDE_BWRAP` names another bwrap (tests point it at a missing file to exercise "sandbox off"). */
export const BWRAP_ENV_VARIABLE = "PSEUDOCLAUDE_BWRAP";

const probes = new Map<string, SandboxAvailability>();

/** Probes bwrap once per program: starts `true` in the namespaces the sandbox uses. Never throws. */
export function detectSandbox(
  program: string = process.env[BWRAP_ENV_VARIABLE] || "bwrap",
): SandboxAvailability {
  const known = probes.get(program);
  if (known) return known;
  const result = probe(program);
  probes.set(program, result);
  return result;
}

function probe(program: string): SandboxAvailability {
  if (process.platform !== "linux") {
    return { available: false, program, reason: `bubblewrap needs Linux (this is ${process.platform})` };
  }
  const run = spawnSync(
    program,
    [
      "--ro-bind",
      "/",
      "/",
      "--dev",
      "/dev",
      "--proc",
      "/proc",
      "--unshare-pid",
      "--unshare-net",
      "--die-with-parent",
      "--new-session",
      "true",
    ],
    { encoding: "utf8", timeout: 10_000, stdio: ["ignore", "ignore", "pipe"] },
  );
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
