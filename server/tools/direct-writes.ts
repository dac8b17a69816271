// The check of writes that reached the workdir directly (S15, S17): a call whose writes were not held in an
// overlay (held-writes.ts) — a command where the overlay is unavailable, or a tool call of a sandboxed MCP
// server, which writes the workdir for as long as it lives — is checked after it has written, by comparing
// the workdir with a baseline taken before: a path that had to stay absent and now exists is removed, a
// repository armed since is disarmed and one broken since is put back (sandbox-git.ts). Only what changed
// between the baseline and the check counts, so what another process (the user) made before the baseline
// is left alone.
import { rmSync } from "node:fs";
import path from "node:path";
import { exists, whyAbsent } from "./held-writes-check.ts";
import { scanRepositories, undoRepositoryChanges, type RepositoryScan } from "./sandbox-git.ts";
import type { SandboxPolicy } from "./sandbox.ts";

/** What the workdir looked like before a call that writes it directly. */
export interface DirectWriteBaseline {
  workdir: string;
  /** Paths that were absent then and must stay absent (the policy's, less those present then). */
  mustStayAbsent: string[];
  /** Areas the call could not write (read-only or hidden); not read again. */
  readOnlyAreas: string[];
  /** The repositories git could find in the workdir then (unchecked for a workdir of `/`). */
  repositories: RepositoryScan | undefined;
}

/** The policy's areas the call cannot write: never scanned, since nothing in them can change. */
export function readOnlyAreasOf(policy: SandboxPolicy): string[] {
  return [...policy.readOnly, ...policy.hidden];
}

/**
 * A fresh baseline for a guarded policy (guardRepositories has run): its scan of the workdir's
 * repositories now, read asynchronously (the server keeps answering), and which of its must-stay-absent
 * paths are absent now. A workdir the policy leaves unchecked (`/`) is not scanned.
 */
export async function directWriteBaseline(policy: SandboxPolicy): Promise<DirectWriteBaseline> {
  const workdir = policy.writable[0] ?? "/";
  const readOnlyAreas = readOnlyAreasOf(policy);
  const unchecked = policy.repositories?.unchecked !== undefined;
  return {
    workdir,
    mustStayAbsent: policy.mustStayAbsent.filter((target) => !exists(target)),
    readOnlyAreas,
    repositories: unchecked ? policy.repositories : await scanRepositories(workdir, new Set(readOnlyAreas)),
  };
}

/** The words a call's failure gives when the sandbox undid something (run_command, skill tools, MCP). */
export function undoneMessage(undone: readonly string[]): string | undefined {
  return undone.length === 0
    ? undefined
    : `the sandbox undid what the call must not do: ${undone.join("; ")}`;
}

/**
 * After a call that wrote the workdir directly: removes what it made at a path that had to stay absent,
 * disarms any repository it armed and puts back any it broke, and says what was undone (undefined when
 * nothing was), so the call fails with `sandbox_violation`.
 */
export async function undoDirectWrites(baseline: DirectWriteBaseline): Promise<string | undefined> {
  const made = baseline.mustStayAbsent.filter(exists);
  for (const target of made) rmSync(target, { recursive: true, force: true });
  const undone = made.map(
    (target) => `removed ${path.relative(baseline.workdir, target) || target}: ${whyAbsent(target)}`,
  );
  if (baseline.repositories)
    undone.push(...(await undoRepositoryChanges(baseline.repositories, baseline.readOnlyAreas)));
  return undoneMessage(undone);
}
