// The check of a held call's result (held-writes.ts), before anything of it reaches the workdir: the same
// rules as the check after a call that wrote directly (sandbox-git.ts, sandbox.ts's mustStayAbsent), read
// in the merged view of its overlay; then the apply (held-writes-apply.ts), or nothing.
import { lstatSync } from "node:fs";
import { access } from "node:fs/promises";
import path from "node:path";
import { applyHeldWrites, nothingWritten } from "./held-writes-apply.ts";
import { opaqueFolders, type HeldCall } from "./held-writes.ts";
import { recordHeldWrites, withHiddenRemovals, type CallWrites } from "./held-writes-record.ts";
import type { SandboxPolicy } from "./sandbox.ts";
import {
  armedWhy,
  compareScans,
  disarm,
  scanRepositories,
  unlistedWhy,
  within,
  type Candidate,
  type RepositoryScan,
} from "./sandbox-git.ts";

/** Why a path of `mustStayAbsent` must stay absent (shown when a call made it). */
export function whyAbsent(target: string): string {
  switch (path.basename(target)) {
    case ".mcp.json":
      return "the playground would start the MCP servers it names";
    case ".PseudoClaude":
      return "the playground reads its settings, skills and evals from it";
    default:
      return "git would read it as configuration or run it as a hook";
  }
}

/** Whether anything (a file, a folder, a link) is at `target`. */
export function exists(target: string): boolean {
  try {
    lstatSync(target);
    return true;
  } catch {
    return false;
  }
}

/**
 * The rule for a held call (S15, "while the call runs"): its result — the workdir as the overlay shows it —
 * is checked by the same rules as a call checked after it ends, before anything reaches the workdir. A
 * result that breaks one is not applied at all (nothing to undo, nothing a host git could have seen); one
 * that keeps them is applied whole (held-writes-apply.ts). A call stopped or timed out is checked and
 * applied the same way: its writes so far are what the user would have had without the overlay. An apply
 * that fails part way says what, and keeps the call's writes (upper) for the user.
 */
export async function heldAftermath(
  policy: SandboxPolicy,
  held: HeldCall,
): Promise<{ message?: string; keep: boolean; writes?: CallWrites }> {
  // The common read-only call: nothing written, nothing to check or apply.
  if (nothingWritten(held.upper))
    return { keep: false, writes: { writes: [], omitted: 0, omittedAtLeast: false } };
  const workdir = held.workdir;
  const shown = (target: string): string => path.relative(workdir, target) || target;
  const inUpper = (target: string): boolean =>
    target === workdir || exists(path.join(held.upper, path.relative(workdir, target)));
  const refused = policy.mustStayAbsent
    // Made by the call (in upper, and not a deletion: the view shows it), not by another process meanwhile.
    .filter((target) => inUpper(target) && exists(path.join(held.view, path.relative(workdir, target))))
    .map((target) => `${shown(target)}: ${whyAbsent(target)}`);
  if (policy.repositories)
    refused.push(
      ...(await refusedRepositoryChanges(
        policy.repositories,
        [...policy.readOnly, ...policy.hidden],
        held.view,
        inUpper,
      )),
    );
  // THE HOLDER RULE: the merged view exists only while the holder runs. Ended from outside (the OOM
  // killer, a user's kill) before the check was done, its view read as empty — a `.mcp.json` the call made
  // was not seen, and was applied. So the holder must still run, and its view be readable, once the check
  // is done (a dead holder's pid is a zombie's until Node reaps it, and Node marks it ended then): else
  // nothing is applied, and the writes are kept for the user.
  if (
    !held.alive() ||
    !(await access(held.view).then(
      () => true,
      () => false,
    ))
  )
    return {
      message: `the sandbox could not check the call's writes: its overlay ended before the check was done (the holder, pid ${held.pid}, was ended from outside); none were applied, they are kept in ${held.upper}`,
      keep: true,
    };
  if (refused.length > 0)
    return {
      message: `the sandbox refused the call's writes and applied none of them (they never reached the workdir): ${refused.join("; ")}`,
      keep: false,
    };
  // What the call wrote, for the chat: read before the apply moves upper's entries into the workdir.
  const recorded = await recordHeldWrites(held.upper, workdir);
  const report = await applyHeldWrites(held.upper, workdir, held.view, (candidates) =>
    opaqueFolders(held, candidates),
  );
  const undone = policy.repositories
    ? await disarmPlantedTogether(policy.repositories, [...policy.readOnly, ...policy.hidden], (target) =>
        report.wrote(path.relative(workdir, target)),
      )
    : [];
  const messages = [
    ...(undone.length > 0
      ? [
          `the sandbox undid what the call's writes made together with another process's writes to the workdir (another call, an MCP server): ${undone.join("; ")}`,
        ]
      : []),
    ...(report.problems.length > 0
      ? [
          `the sandbox could not apply all of the call's writes: ${report.problems.join("; ")}; what could not be applied is kept in ${held.upper}`,
        ]
      : []),
  ];
  return {
    ...(messages.length > 0 ? { message: messages.join("; ") } : {}),
    keep: report.problems.length > 0,
    writes: withHiddenRemovals(recorded, report.removedHidden),
  };
}

/**
 * THE CONCURRENCY RULE: the check above reads the workdir as the call's overlay shows it, and that is not
 * the workdir the apply writes into when another process wrote it meanwhile — another session's call
 * (checked in its own overlay, which does not show this one's writes), an MCP server, a `cli run`. Two
 * calls ending at once each wrote half of a bare repository at the workdir's root (one objects/, refs/
 * and config, the other HEAD): each half passed its check, both were applied, and the user's next
 * `git status` ran the config's fsmonitor. So after the apply the real workdir is scanned again, as after
 * a call that wrote directly, and every repository armed since the call began at a path the call wrote
 * is disarmed (its HEAD or `.git` file renamed aside) and the call fails. Whichever of two such calls
 * applies last sees both halves. The residual: between that apply and this scan (a moment, the scan's
 * time) the halves stand together in the workdir. Repositories armed where the call wrote nothing are
 * another process's, and stay.
 */
async function disarmPlantedTogether(
  before: RepositoryScan,
  readOnlyAreas: readonly string[],
  wrote: (target: string) => boolean,
): Promise<string[]> {
  if (before.unchecked !== undefined) return [];
  const after = await scanRepositories(before.workdir, new Set(readOnlyAreas), before);
  const shown = (target: string): string => path.relative(before.workdir, target) || "the workdir";
  return compareScans(before, after, readOnlyAreas, true)
    .armed.filter((candidate) => wrote(candidate.path))
    .map((candidate) => disarm(candidate, shown));
}

/**
 * Before a held call's writes are applied (held-writes.ts): the same check, on the merged result read
 * through `view` (the workdir's path as the overlay shows it), changing nothing. Says what the call's
 * writes would have done that the rule forbids; `touched` tells whether the call wrote at a path (its
 * upper layer has it), so a repository another process made or changed in the real workdir meanwhile is
 * not laid to the call. Empty: the writes may be applied.
 */
export async function refusedRepositoryChanges(
  before: RepositoryScan,
  readOnlyAreas: readonly string[],
  view: string,
  touched: (target: string) => boolean,
): Promise<string[]> {
  if (before.unchecked !== undefined) return [];
  const toView = (target: string): string => rebasePath(target, before.workdir, view);
  const seen = await scanRepositories(
    view,
    new Set(readOnlyAreas.map(toView)),
    rebaseScan(before, before.workdir, view),
  );
  const after = rebaseScan(seen, view, before.workdir);
  const shown = (target: string): string => path.relative(before.workdir, target) || "the workdir";
  const changes = compareScans(before, after, readOnlyAreas, false);
  const folderOf = (candidate: Candidate): string =>
    candidate.kind === "git-link" ? path.dirname(candidate.path) : candidate.path;
  return [
    ...changes.armed
      .filter((candidate) => touched(candidate.path))
      .map(
        (candidate) =>
          `${shown(candidate.kind === "git-link" ? candidate.path : path.join(candidate.path, "HEAD"))}: ${armedWhy(shown(folderOf(candidate)))}`,
      ),
    ...changes.unlisted
      .filter(([repository]) => touched(repository))
      .map(([repository, problem]) => `${shown(repository)}: ${unlistedWhy(problem)}`),
    ...changes.broken
      .filter((earlier) => touched(earlier.path))
      .map(
        (earlier) =>
          `${shown(earlier.saved?.file ?? earlier.path)}: the call broke it, and git would no longer find the repository at ${shown(folderOf(earlier))}`,
      ),
  ];
}

function rebasePath(target: string, from: string, to: string): string {
  if (target === from) return to;
  return within(target, from) ? to + target.slice(from.length) : target;
}

/** The same scan with every path under `from` moved under `to`. */
function rebaseScan(scan: RepositoryScan, from: string, to: string): RepositoryScan {
  const move = (target: string): string => rebasePath(target, from, to);
  const candidates = new Map<string, Candidate>();
  for (const candidate of scan.candidates.values()) {
    const moved: Candidate = {
      ...candidate,
      path: move(candidate.path),
      storeFolders: candidate.storeFolders.map(move),
      ...(candidate.saved ? { saved: { ...candidate.saved, file: move(candidate.saved.file) } } : {}),
    };
    candidates.set(moved.path, moved);
  }
  return {
    ...scan,
    workdir: move(scan.workdir),
    candidates,
    visited: new Set([...scan.visited].map(move)),
    seen: new Set([...scan.seen].map(move)),
    unlistedIndexes: new Map([...scan.unlistedIndexes].map(([key, value]) => [move(key), value])),
  };
}
