// Reopening a session from its log: the conversation, settings and request count the logged events
// imply, and the skills that were active, re-activated in their order (load_skill semantics).
import type { ChatMessage } from "../protocol/model.ts";
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

/** Re-activates the skills that were active when the log was written; each failure is reported. */
export async function restoreActiveSkills(
  workspace: SessionWorkspace,
  restored: readonly SequencedEvent[],
  reportProblem: (message: string) => void,
): Promise<void> {
  const names: string[] = [];
  for (const { event } of restored) {
    if (event.type === "skill_activated" && !names.includes(event.name)) names.push(event.name);
  }
  const loadSkill = workspace.registry.get("load_skill");
  if (!loadSkill || names.length === 0) return;
  const controller = new AbortController();
  for (const name of names) {
    const { result } = await loadSkill.execute(
      { name },
      { workdir: workspace.workdir, callId: `restore_${name}`, signal: controller.signal },
    );
    if (!result.ok) reportProblem(`could not re-activate skill "${name}" on reopen: ${result.content}`);
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
