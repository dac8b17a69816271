// One sandboxed launch from start to end: its policy completed (the workdir's repositories guarded, its
// own process group, its overlay where writes can be held), the program that starts it, and what happens
// when it has ended (held writes checked and applied, or a direct call's writes checked). sandbox.ts says
// whether the sandbox can run here and builds the policy and bwrap's argv; this module uses them per call.
import { readOnlyAreasOf, undoDirectWrites } from "./direct-writes.ts";
import { heldAftermath } from "./held-writes-check.ts";
import type { CallWrites } from "./held-writes-record.ts";
import { detectHeldWrites, heldLaunch, holdWrites, type HeldCall } from "./held-writes.ts";
import { protectConfiguredPaths } from "./git-config-paths.ts";
import type { SandboxPolicy } from "./sandbox.ts";
import { protectRepositories, repositoryStarts, scanRepositories, uncheckedScan } from "./sandbox-git.ts";
import { createProcessGroup, removeProcessGroup } from "./sandbox-limits.ts";

/**
 * Completes a policy for one launch: scans the workdir for the repositories git could find in it, keeps
 * them as they are (sandbox-git.ts: git folders, objects/ and refs/ as mount points; configuration parts
 * read-only, or absent after the call) and records the scan for sandboxAftermath. Every launch of a
 * sandboxed process calls it (process-runner, the MCP stdio transport); bwrapArguments refuses a policy
 * that skipped it. The scan reads folders asynchronously: the server keeps answering meanwhile.
 */
export async function guardRepositories(policy: SandboxPolicy): Promise<SandboxPolicy> {
  if (!policy.enabled || policy.refusal || policy.repositories) return policy;
  const workdir = policy.writable[0]!;
  if (workdir === "/")
    return {
      ...policy,
      repositories: uncheckedScan(workdir, "a workdir of / holds the programs themselves"),
    };
  const readOnlyAreas = [...policy.readOnly, ...policy.hidden];
  const scan = await scanRepositories(workdir, new Set(readOnlyAreas));
  const repositories = protectRepositories(scan, readOnlyAreas);
  // What their configuration names for git to run or load (git-config-paths.ts), read as the user's git does.
  const configured = await protectConfiguredPaths(workdir, repositoryStarts(scan), [
    ...readOnlyAreas,
    ...repositories.readOnly,
  ]);
  const protection = {
    mountPoints: [...new Set([...repositories.mountPoints, ...configured.mountPoints])].sort(
      (a, b) => a.length - b.length,
    ),
    readOnly: [...repositories.readOnly, ...configured.readOnly],
    mustStayAbsent: [...repositories.mustStayAbsent, ...configured.mustStayAbsent],
    refusal: repositories.refusal ?? configured.refusal,
  };
  const writableBinds = protection.mountPoints.flatMap((folder) => ["--bind", folder, folder]);
  const readOnlyBinds = protection.readOnly.flatMap((target) => ["--ro-bind", target, target]);
  const mounts = [...policy.mounts];
  // Writable mount points before every read-only bind: a later writable bind would loosen an earlier one.
  mounts.splice(policy.mountPointsAt, 0, ...writableBinds);
  mounts.push(...readOnlyBinds);
  const refusal = protection.refusal;
  return {
    ...policy,
    readOnly: [...policy.readOnly, ...protection.readOnly],
    mustStayAbsent: [...policy.mustStayAbsent, ...protection.mustStayAbsent],
    mountPointsAt: policy.mountPointsAt + writableBinds.length,
    repositories: scan,
    ...(refusal ? { refusal } : {}),
    mounts,
  };
}

/**
 * Completes a policy for one call of the process runner (run_command, skill tools): its repositories
 * guarded, its own pids cgroup where the server can make one (sandbox-limits.ts), and its overlay where
 * writes can be held (held-writes.ts; made while the workdir is scanned). A long-lived MCP server gets
 * guardRepositories alone: an overlay would hold its writes until it stops, so each of its tool calls is
 * checked after it instead (server/mcp/call-check.ts, docs/permissions.md).
 */
export async function prepareSandboxedCall(policy: SandboxPolicy): Promise<SandboxPolicy> {
  const [guarded, held] = await Promise.all([guardRepositories(policy), startHolding(policy)]);
  if (!guarded.enabled || guarded.refusal) {
    if (typeof held !== "string" && held) await held.end();
    return guarded;
  }
  const processGroup = createProcessGroup(guarded.limits.processes);
  return {
    ...guarded,
    ...(processGroup ? { processGroup } : {}),
    ...(typeof held === "string" ? { notHeld: held } : held ? { held } : {}),
  };
}

async function startHolding(policy: SandboxPolicy): Promise<HeldCall | string | undefined> {
  if (!policy.enabled || policy.refusal || !policy.program) return undefined;
  const workdir = policy.writable[0]!;
  if (workdir === "/") return "a workdir of / cannot be overlaid (it holds the programs themselves)";
  return holdWrites(workdir, detectHeldWrites(policy.program));
}

/** Gives back what prepareSandboxedCall took for a call that never started (its cgroup, its overlay). */
export async function releaseSandboxedCall(policy: SandboxPolicy): Promise<void> {
  if (policy.held) await policy.held.end();
  if (policy.processGroup) await removeProcessGroup(policy.processGroup);
}

/**
 * After a sandboxed call has ended (its PID namespace is gone, so nothing writes any more): removes what the
 * process made at a path of `mustStayAbsent`, disarms any repository it armed and puts back any it broke
 * (sandbox-git.ts), and says what was undone, so the call fails with `sandbox_violation`. A call whose
 * writes were held is checked before anything reaches the workdir instead (heldAftermath), and what it
 * wrote is recorded as it is applied (`writes`, held-writes-record.ts).
 */
export async function sandboxAftermath(
  policy: SandboxPolicy,
): Promise<{ violation?: string; writes?: CallWrites }> {
  if (policy.held) {
    const held = policy.held;
    const outcome = await heldAftermath(policy, held).catch(
      (error: unknown) =>
        ({
          message: `the sandbox could not check the call's writes (${(error as Error).message}); none were applied, they are kept in ${held.upper}`,
          keep: true,
        }) as const,
    );
    // The holder's exit and the folder's removal need not delay the result.
    void held.end(outcome.keep);
    if (policy.processGroup) await removeProcessGroup(policy.processGroup);
    return {
      ...(outcome.message !== undefined ? { violation: outcome.message } : {}),
      ...("writes" in outcome && outcome.writes ? { writes: outcome.writes } : {}),
    };
  }
  // Not held: the call wrote the workdir directly; the baseline is the workdir as guardRepositories found it.
  const message = await undoDirectWrites({
    workdir: policy.writable[0] ?? "/",
    mustStayAbsent: policy.mustStayAbsent,
    readOnlyAreas: readOnlyAreasOf(policy),
    repositories: policy.repositories,
  });
  await releaseSandboxedCall(policy);
  // What a call that wrote directly wrote is not known (only an overlay's upper layer says it).
  return message !== undefined ? { violation: message } : {};
}

/**
 * The program that starts the sandbox, and its arguments: bwrap with `bwrapArgs`, inside the call's overlay
 * when its writes are held.
 */
export function sandboxLaunch(
  policy: SandboxPolicy,
  bwrapArgs: readonly string[],
): { file: string; args: string[] } {
  return policy.held
    ? heldLaunch(policy.held, policy.program!, bwrapArgs)
    : { file: policy.program!, args: [...bwrapArgs] };
}
