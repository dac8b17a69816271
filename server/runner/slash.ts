// Slash invocation: `/<skill> args` typed by the user. The skill is loaded (exactly as load_skill does) and
// the command followed by its rendered SOP becomes the user turn — in the current conversation (`mode: shared`) or in a separate
// Runner with only the skill's tools and a chosen slice of history (`mode: isolated`).
import { randomUUID } from "node:crypto";
import { PlaygroundError } from "../errors/index.ts";
import { LOAD_SKILL_TOOL_NAME, type ChatMessage } from "../protocol/model.ts";
import type { RunnerEvent } from "../protocol/runner-events.ts";
import { runLoadSkill } from "../skills/load-skill-tool.ts";
import { renderInvocation } from "../skills/render.ts";
import type { Skill } from "../skills/types.ts";
import { effectEvents } from "./effects.ts";
import { isolatedContext } from "./history-window.ts";
import { Runner } from "./runner.ts";
import type { RunnerDependencies, RunOptions, RunOutcome } from "./types.ts";

export interface SlashCommand {
  skill: string;
  args: string;
}

/** `/review src/app.ts` → {skill: "review", args: "src/app.ts"}; anything else → null. */
export function parseSlashCommand(text: string): SlashCommand | null {
  const match = /^\/([A-Za-z0-9][A-Za-z0-9._-]*)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!match) return null;
  return { skill: match[1], args: (match[2] ?? "").trim() };
}

export interface SlashDependencies extends RunnerDependencies {
  /** The catalog lookup (a Catalog satisfies it). */
  skills: { get(name: string): Skill | undefined };
}

interface Activation {
  registeredTools: string[];
  /** skill_activated + tools_registered, emitted once the run has started. */
  events: RunnerEvent[];
}

/** Runs load_skill from the Registry; returns the events a model-initiated call would produce. */
async function activate(
  command: SlashCommand,
  deps: SlashDependencies,
  runId: string,
  signal: AbortSignal,
): Promise<Activation> {
  const callId = `slash_${randomUUID().slice(0, 8)}`;
  const result = await runLoadSkill(
    deps.registry,
    { name: command.skill, arguments: command.args },
    { workdir: deps.workdir, callId, signal },
  );
  if (!result.ok) {
    if (result.errorType === "unknown_tool")
      throw new PlaygroundError("unknown_tool", `the ${LOAD_SKILL_TOOL_NAME} tool is not registered`);
    throw new PlaygroundError("unknown_skill", result.content);
  }
  const effects = result.effects ?? [];
  const registeredTools = effects.flatMap((effect) =>
    effect.type === "tools_registered" ? effect.names : [],
  );
  const figures = {
    tokens: deps.tokens,
    content: result.content,
    promptItems: () => deps.prompt.promptItems(),
  };
  return { registeredTools, events: effectEvents(runId, effects, figures) };
}

/** The SOP as rendered by the activation (fresh body from disk), or the catalog snapshot as a fallback. */
function renderedSop(skill: Skill, args: string, deps: SlashDependencies): string {
  const active = deps.prompt.activeSkills().find((entry) => entry.name === skill.meta.name);
  return active?.body ?? renderInvocation(skill, args);
}

/**
 * Runs a slash command. Throws PlaygroundError `unknown_skill` when the name is not in the catalog.
 * Isolated runs keep their messages in a private history: their request/text/tool events flow into the
 * same stream under their own runId, but their `history_appended` events are not forwarded, because
 * that event means "appended to the conversation" (their assistant messages go out as assistant_message). When an isolated run ends, the conversation gets the
 * command and the run's final answer as two messages (with history_appended events).
 */
export async function runSlashCommand(
  command: SlashCommand,
  deps: SlashDependencies,
  options: RunOptions = {},
): Promise<RunOutcome> {
  const skill = deps.skills.get(command.skill);
  if (!skill) throw new PlaygroundError("unknown_skill", `unknown skill "${command.skill}"`);
  const runId = options.runId ?? `run_${randomUUID().slice(0, 8)}`;
  const signal = options.signal ?? new AbortController().signal;
  const { registeredTools, events } = await activate(command, deps, runId, signal);
  const invocation = `/${command.skill}${command.args ? ` ${command.args}` : ""}`;
  // The typed command heads the user turn: the model (and the transcript) see what was asked, then the SOP.
  const sop = `${invocation}\n\n${renderedSop(skill, command.args, deps)}`;
  const runOptions: RunOptions = {
    ...options,
    runId,
    signal,
    skill: skill.meta.name,
    onStarted: () => {
      for (const event of events) deps.onEvent(event);
      options.onStarted?.();
    },
  };

  if (skill.meta.mode === "shared") return new Runner(deps).run(sop, runOptions);

  const context = isolatedContext(skill.meta.history, deps.history);
  const systemReadTools = deps.registry
    .definitions({ safety: "read_only" })
    .filter((definition) => definition.origin === "system")
    .map((definition) => definition.name);
  const toolNames = [...new Set([...skill.meta.tools, ...registeredTools, ...systemReadTools])];
  const isolatedHistory: ChatMessage[] = context.messages;
  const isolated = new Runner({
    ...deps,
    history: isolatedHistory,
    onEvent: (event) => {
      if (event.type !== "history_appended") return deps.onEvent(event);
      // Not appended to the conversation, but the run's own answers (text before a tool call, the final
      // one) still belong to the transcript and the log: as assistant_message, with their request.
      if (event.message.role === "assistant" && event.requestIndex !== undefined) {
        deps.onEvent({
          type: "assistant_message",
          runId: event.runId,
          requestIndex: event.requestIndex,
          message: event.message,
        });
      }
    },
  });
  const outcome = await isolated.run(`${context.preamble}${sop}`, {
    ...runOptions,
    toolNames,
    ...(skill.meta.model ? { model: skill.meta.model } : {}),
  });
  const answer = outcome.finalText || `(isolated run of skill "${command.skill}" stopped: ${outcome.reason})`;
  for (const message of [
    { role: "user", content: invocation },
    { role: "assistant", content: answer, toolCalls: [] },
  ] satisfies ChatMessage[]) {
    deps.history.push(message);
    deps.onEvent({ type: "history_appended", runId, message: structuredClone(message) });
  }
  return outcome;
}

/** A user message: a slash command for a known skill runs the skill; anything else is a normal run. */
export async function runUserMessage(
  text: string,
  deps: SlashDependencies,
  options: RunOptions = {},
): Promise<RunOutcome> {
  const command = parseSlashCommand(text);
  if (command && deps.skills.get(command.skill)) return runSlashCommand(command, deps, options);
  return new Runner(deps).run(text, options);
}
