// The "system" SOP placement (a mid-conversation system message) and the tool change that goes with it,
// on the models cache-rules.json marks as accepting them. Neither touches the cached prefix: the SOP
// follows its load_skill result, and a skill tool that becomes visible in a later run is added after that
// run's user message instead of joining the request's `tools`. A model without them gets the tool-result
// placement and the usual tool list, and the ledger says so (placementNote).
import type { ChatMessage, ToolDefinition } from "../protocol/model.ts";
import type { SkillPlacement } from "../protocol/runner-events.ts";
import type { MidConversationSupport } from "../cache/rules.ts";

/** The placement a request really gets: "system" needs a model that takes mid-conversation system messages. */
export function effectivePlacement(
  placement: SkillPlacement,
  support: MidConversationSupport | undefined,
): SkillPlacement {
  return placement === "system" && !support?.system ? "message" : placement;
}

/** How the SOP placement in force affects this request's cache, in words. */
export function placementNote(
  placement: SkillPlacement,
  model: string,
  support: MidConversationSupport | undefined,
): string {
  if (placement === "environment")
    return "SOPs in the environment (the design): loading a skill changes the system block, so the conversation after it is written to the cache again once";
  if (placement === "message")
    return "SOPs in the load_skill result: loading a skill appends to the conversation, the prefix before it stays cached";
  if (support?.system)
    return `SOPs in a mid-conversation system message (${model} accepts one, ${support.source}): loading a skill appends to the conversation, the prefix before it stays cached${support.toolChanges ? "; a skill tool made visible later is added the same way (tool_addition), so tools stay as they were" : ""}`;
  return `SOPs in the load_skill result: ${model} takes no mid-conversation system message (${support?.source ?? "server/cache/cache-rules.json"}), so the "system" placement falls back to the result`;
}

/** The rendered SOPs of a load_skill call, on its result: in the content, or as its system message. */
export function withPlacedSops(
  message: ChatMessage & { role: "tool" },
  sops: string,
  placement: SkillPlacement,
): ChatMessage {
  return placement === "system"
    ? { ...message, system: sops }
    : { ...message, content: `${message.content}\n\n${sops}` };
}

const sameDefinition = (left: ToolDefinition, right: ToolDefinition) =>
  JSON.stringify(left) === JSON.stringify(right);

/**
 * What a run sends as `tools` and what it adds mid-conversation. The tools the conversation has already
 * shown (the previous request's `tools` and every `addedTools` in the history) keep their place; tools
 * visible now beyond those are added after this run's user message. Anything else (a tool gone, a
 * definition changed, nothing sent before) sends the visible list as it is.
 */
export function toolChangePlan(
  visible: readonly ToolDefinition[],
  previouslySent: readonly ToolDefinition[] | undefined,
  history: readonly ChatMessage[],
): { sent: ToolDefinition[]; added: ToolDefinition[] } {
  const plain = { sent: [...visible], added: [] };
  if (!previouslySent) return plain;
  const shown = new Map<string, ToolDefinition>();
  for (const tool of previouslySent) shown.set(tool.name, tool);
  for (const message of history)
    if (message.role === "user") for (const tool of message.addedTools ?? []) shown.set(tool.name, tool);
  const byName = new Map(visible.map((tool) => [tool.name, tool]));
  for (const [name, tool] of shown) {
    const now = byName.get(name);
    if (!now || !sameDefinition(now, tool)) return plain;
  }
  // In the order they were sent, so the prefix is byte for byte the same.
  return {
    sent: previouslySent.map((tool) => byName.get(tool.name)!),
    added: visible.filter((tool) => !shown.has(tool.name)),
  };
}
