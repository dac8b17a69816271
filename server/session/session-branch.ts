// The start of a branch session: the copied (and edited) conversation of request #N goes into the new
// session's history as history_appended events, the skills that were active at #N are activated again
// (load_skill semantics, so their tools are registered and a reopen restores them from skill_activated),
// then branch_started. The session then runs once without a user message, so the first request of the
// branch is request #N again with the edits applied.
import type { BranchOrigin } from "../protocol/branch.ts";
import type { ChatMessage } from "../protocol/model.ts";
import type { SessionEvent } from "../protocol/wire.ts";
import { runLoadSkill } from "../skills/load-skill-tool.ts";
import type { SessionWorkspace } from "./session-types.ts";

export interface BranchSeed {
  branch: BranchOrigin;
  messages: ChatMessage[];
  /** The skills active at request #N, in activation order. */
  activeSkills: string[];
}

/** Emits the branch's conversation and activations; returns the problems (a skill that no longer loads). */
export async function seedBranch(
  seed: BranchSeed,
  workspace: SessionWorkspace,
  history: ChatMessage[],
  emit: (event: SessionEvent) => void,
): Promise<string[]> {
  const runId = `branch_${seed.branch.originSessionId.slice(-8)}_${seed.branch.requestIndex}`;
  for (const message of seed.messages) {
    history.push(message);
    emit({ type: "history_appended", runId, message: structuredClone(message) });
  }
  const problems: string[] = [];
  const controller = new AbortController();
  for (const name of seed.activeSkills) {
    const result = await runLoadSkill(
      workspace.registry,
      { name },
      { workdir: workspace.workdir, callId: `${runId}_${name}`, signal: controller.signal },
    );
    if (!result.ok) {
      problems.push(
        `skill "${name}" was active at request #${seed.branch.requestIndex} but does not load now: ${result.content}`,
      );
      continue;
    }
    for (const effect of result.effects ?? []) {
      if (effect.type === "skill_activated")
        emit({
          type: "skill_activated",
          runId,
          name: effect.skill,
          source: effect.source,
          position: effect.position,
          arguments: effect.arguments,
          ...(effect.resources ? { resources: effect.resources } : {}),
        });
      else if (effect.type === "tools_registered")
        emit({ type: "tools_registered", runId, skill: effect.skill, tools: effect.names });
    }
  }
  emit({ type: "branch_started", branch: seed.branch });
  return problems;
}
