// What a tool call changed, as the Runner's events: one mapping for the model's calls (tool-call.ts) and
// for the user's slash commands (slash.ts). Effects are typed data on the result, never read from metadata.
import type { ToolEffect } from "../protocol/model.ts";
import type { RunnerEvent } from "../protocol/runner-events.ts";
import type { TokenCounter } from "../prompt/segments.ts";
import { indexLine } from "../prompt/stable-system.ts";
import type { PromptItem } from "../skills/types.ts";

/** What the figures of the events need besides the effects themselves. */
export interface EffectFigures {
  /** The token counter of the run (the composition root's). */
  tokens: TokenCounter;
  /** The result text the model received (a skill file read: its tokens are level 3's cost). */
  content?: string;
  /** The skills index, for the tokens of an activated skill's index line (level 1's cost). */
  promptItems?: () => readonly PromptItem[];
}

function indexTokens(skill: string, figures: EffectFigures): number | undefined {
  const item = figures.promptItems?.().find((candidate) => candidate.name === skill);
  return item ? figures.tokens.textFigures(indexLine(item)).tokens : undefined;
}

export function effectEvents(
  runId: string,
  effects: readonly ToolEffect[] | undefined,
  figures: EffectFigures,
): RunnerEvent[] {
  return (effects ?? []).map((effect): RunnerEvent => {
    switch (effect.type) {
      case "skill_activated": {
        const tokens = indexTokens(effect.skill, figures);
        return {
          type: "skill_activated",
          runId,
          name: effect.skill,
          source: effect.source,
          position: effect.position,
          arguments: effect.arguments,
          ...(effect.resources ? { resources: effect.resources } : {}),
          ...(tokens !== undefined ? { indexTokens: tokens } : {}),
        };
      }
      case "tools_registered":
        return { type: "tools_registered", runId, skill: effect.skill, tools: [...effect.names] };
      case "skill_resource_read":
        return {
          type: "skill_resource_read",
          runId,
          skill: effect.skill,
          path: effect.path,
          bytes: effect.bytes,
          tokens: figures.content === undefined ? 0 : figures.tokens.textFigures(figures.content).tokens,
        };
    }
  });
}
