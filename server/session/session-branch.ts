// The start of a branch session: the copied (and edited) conversation of request #N goes into the new
// session's history as history_appended events, the skills that were active at #N are activated again
// with the arguments they were loaded with (load_skill semantics, so their tools are registered and a
// reopen restores them from skill_activated), then branch_started. The session then runs once without a
// user message (session.ts), so the branch's first request (#N+1: numbering continues from the fork) is
// request #N again with the edits applied, checked segment by segment against it (branch-check.ts).
import type { BranchOrigin, RequestEdit } from "../protocol/branch.ts";
import type { ChatMessage } from "../protocol/model.ts";
import type { RequestSnapshot } from "../protocol/runner-events.ts";
import { effectEvents } from "../runner/effects.ts";
import { runLoadSkill } from "../skills/load-skill-tool.ts";
import type { OriginSkill } from "./branch-source.ts";
import type { TokenCounter } from "../prompt/segments.ts";
import type { StreamInput } from "./request-writer.ts";
import type { SessionWorkspace } from "./session-types.ts";

export interface BranchSeed {
  branch: BranchOrigin;
  messages: ChatMessage[];
  /** The skills active at request #N, in activation order, with their arguments. */
  activeSkills: OriginSkill[];
  /** Request #N as the origin's log holds it: what the branch's first request is checked against. */
  origin: RequestSnapshot & { messages: ChatMessage[] };
  /** This fork's own edits (a branch of a branch inherits others, which request #N already had). */
  edits: RequestEdit[];
}

/** The date (YYYY-MM-DD) of request #N's environment: the Runner dates it by the clock it stamps `at` with. */
export function originDate(origin: RequestSnapshot): string | undefined {
  const date = origin.at?.slice(0, 10);
  return date && /^\d{4}-\d{2}-\d{2}$/.test(date) ? date : undefined;
}

/** Emits the branch's conversation and activations; returns the problems (a skill that no longer loads). */
export async function seedBranch(
  seed: BranchSeed,
  workspace: SessionWorkspace,
  history: ChatMessage[],
  emit: (event: StreamInput) => void,
  tokens: TokenCounter,
): Promise<string[]> {
  const runId = `branch_${seed.branch.originSessionId.slice(-8)}_${seed.branch.requestIndex}`;
  for (const message of seed.messages) {
    history.push(message);
    emit({ type: "history_appended", runId, message: structuredClone(message) });
  }
  const problems: string[] = [];
  const controller = new AbortController();
  for (const skill of seed.activeSkills) {
    const result = await runLoadSkill(
      workspace.registry,
      { name: skill.name, ...(skill.arguments ? { arguments: skill.arguments } : {}) },
      { workdir: workspace.workdir, callId: `${runId}_${skill.name}`, signal: controller.signal },
    );
    if (!result.ok) {
      problems.push(
        `skill "${skill.name}" was active at request #${seed.branch.requestIndex} but does not load now: ${result.content}`,
      );
      continue;
    }
    const figures = { tokens, promptItems: () => workspace.prompt.promptItems() };
    for (const event of effectEvents(runId, result.effects, figures)) emit(event);
  }
  emit({ type: "branch_started", branch: seed.branch });
  return problems;
}
