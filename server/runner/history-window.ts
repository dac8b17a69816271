// What an isolated skill run (mode: isolated) gets of the main conversation, per the skill's `history`.
import type { ChatMessage } from "../protocol/model.ts";
import type { SkillHistory } from "../skills/types.ts";

/** Messages kept by `history: recent`. */
export const RECENT_MESSAGE_COUNT = 6;
const SUMMARY_LINE_LIMIT = 12;
const SUMMARY_SNIPPET_CHARS = 160;

function snippet(text: string): string {
  const folded = text.replace(/\s+/g, " ").trim();
  return folded.length > SUMMARY_SNIPPET_CHARS ? `${folded.slice(0, SUMMARY_SNIPPET_CHARS - 1)}…` : folded;
}

/**
 * The last RECENT_MESSAGE_COUNT messages, starting at a user message: a window that began with a tool
 * result (or an assistant turn whose results were cut off) would be rejected by the model APIs.
 */
export function recentMessages(history: readonly ChatMessage[]): ChatMessage[] {
  const window = history.slice(-RECENT_MESSAGE_COUNT);
  const firstUser = window.findIndex((message) => message.role === "user");
  return firstUser === -1 ? [] : structuredClone(window.slice(firstUser));
}

/** A short, deterministic, textual summary of the conversation (no model call needed). */
export function summarizeHistory(history: readonly ChatMessage[]): string {
  const lines: string[] = [];
  let toolCounts = new Map<string, number>();
  const flushTools = () => {
    if (toolCounts.size === 0) return;
    const used = [...toolCounts].map(([name, count]) => (count > 1 ? `${name} ×${count}` : name)).join(", ");
    lines.push(`- Tools used: ${used}`);
    toolCounts = new Map();
  };
  for (const message of history) {
    if (message.role === "tool") {
      toolCounts.set(message.toolName, (toolCounts.get(message.toolName) ?? 0) + 1);
      continue;
    }
    flushTools();
    if (message.role === "user") lines.push(`- User: ${snippet(message.content)}`);
    else if (message.content.trim()) lines.push(`- Assistant: ${snippet(message.content)}`);
  }
  flushTools();
  if (lines.length === 0) return "(no earlier conversation)";
  const kept = lines.slice(-SUMMARY_LINE_LIMIT);
  const dropped = lines.length - kept.length;
  return [...(dropped > 0 ? [`- (${dropped} earlier entries omitted)`] : []), ...kept].join("\n");
}

/** The starting history and the user-text preamble of an isolated run. */
export function isolatedContext(
  mode: SkillHistory,
  history: readonly ChatMessage[],
): { messages: ChatMessage[]; preamble: string } {
  if (mode === "none") return { messages: [], preamble: "" };
  if (mode === "recent") return { messages: recentMessages(history), preamble: "" };
  return {
    messages: [],
    preamble: `Summary of the earlier conversation:\n${summarizeHistory(history)}\n\n---\n\n`,
  };
}
