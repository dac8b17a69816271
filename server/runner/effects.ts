// What a tool call changed, as the Runner's events: one mapping for the model's calls (tool-call.ts) and
// for the user's slash commands (slash.ts). Effects are typed data on the result, never read from metadata.
import type { ToolEffect } from "../protocol/model.ts";
import type { RunnerEvent } from "../protocol/runner-events.ts";

export function effectEvents(runId: string, effects: readonly ToolEffect[] | undefined): RunnerEvent[] {
  return (effects ?? []).map((effect): RunnerEvent => {
    switch (effect.type) {
      case "skill_activated":
        return {
          type: "skill_activated",
          runId,
          name: effect.skill,
          source: effect.source,
          position: effect.position,
          arguments: effect.arguments,
        };
      case "tools_registered":
        return { type: "tools_registered", runId, skill: effect.skill, tools: [...effect.names] };
    }
  });
}
