// Reopening a session from its log: the conversation, settings and request count the logged events
// imply, and the skills that were active, re-activated in their order (load_skill semantics).
import { LOAD_SKILL_TOOL_NAME, type ChatMessage } from "../protocol/model.ts";
import { runLoadSkill, type LoadSkillInput } from "../skills/load-skill-tool.ts";
import type { SessionSettings } from "../protocol/wire.ts";
import type { SequencedEvent } from "./event-stream.ts";
import type { SessionWorkspace } from "./session-types.ts";

export interface RestoredState {
  history: ChatMessage[];
  settings: SessionSettings;
  /** The highest request index logged; the next request continues after it. */
  lastRequestIndex: number;
}

/** What the logged events say about the conversation; `settings` are the header's, before any change. */
export function restoredState(restored: readonly SequencedEvent[], settings: SessionSettings): RestoredState {
  const state: RestoredState = { history: [], settings, lastRequestIndex: 0 };
  for (const { event } of restored) {
    if (event.type === "history_appended") state.history.push(event.message);
    if (event.type === "request")
      state.lastRequestIndex = Math.max(state.lastRequestIndex, event.snapshot.requestIndex);
    if (event.type === "settings_changed") state.settings = event.settings;
  }
  return state;
}

/**
 * The skills active when the log was written, in activation order, each with the arguments of its latest
 * activation. Logs written before `skill_activated` carried them: the arguments of the load_skill call
 * that activated it, when the model made one; none otherwise.
 */
export function loggedActivations(restored: readonly SequencedEvent[]): LoadSkillInput[] {
  const activations = new Map<string, string>();
  const loadCalls = new Map<string, unknown>();
  let lastLoadResult: unknown;
  for (const { event } of restored) {
    if (event.type === "tool_call" && event.call.name === LOAD_SKILL_TOOL_NAME)
      loadCalls.set(event.call.id, event.call.input);
    if (event.type === "tool_result" && loadCalls.has(event.callId))
      lastLoadResult = loadCalls.get(event.callId);
    if (event.type !== "skill_activated") continue;
    const fromCall = lastLoadResult as { name?: unknown; arguments?: unknown } | undefined;
    const logged =
      event.arguments ??
      (fromCall?.name === event.name && typeof fromCall.arguments === "string" ? fromCall.arguments : "");
    lastLoadResult = undefined;
    // A Map keeps the first activation's slot when a name is activated again, as ActiveSkills does.
    activations.set(event.name, logged);
  }
  return [...activations].map(([name, args]) => ({ name, ...(args ? { arguments: args } : {}) }));
}

/** Re-activates the skills that were active when the log was written, with their arguments; each failure is reported. */
export async function restoreActiveSkills(
  workspace: SessionWorkspace,
  restored: readonly SequencedEvent[],
  reportProblem: (message: string) => void,
): Promise<void> {
  const controller = new AbortController();
  for (const input of loggedActivations(restored)) {
    const result = await runLoadSkill(workspace.registry, input, {
      workdir: workspace.workdir,
      callId: `restore_${input.name}`,
      signal: controller.signal,
    });
    if (!result.ok) reportProblem(`could not re-activate skill "${input.name}" on reopen: ${result.content}`);
  }
}

/**
 * Settings after an update. Switching provider without naming a model picks the new provider's default
 * model: the old provider's model name means nothing to the new one.
 */
export function changedSettings(
  previous: SessionSettings,
  changes: Partial<Omit<SessionSettings, "workdir">>,
  defaultModel: (provider: string) => string | undefined,
): SessionSettings {
  const next: SessionSettings = { ...previous, ...changes };
  if (changes.model === undefined && next.provider !== previous.provider) {
    next.model = defaultModel(next.provider) ?? "";
  }
  return next;
}
