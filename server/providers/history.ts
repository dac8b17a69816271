// Both APIs refuse a history where a tool call has no result (or a result has no call). A run that was
// canceled or failed between the model's tool calls and their results leaves exactly that, and "the next
// message works" must still hold. So before mapping, the history is paired up: a missing result becomes
// an error result that says why, and a stray result is dropped.
import type { ChatMessage } from "../protocol/model.ts";

export const MISSING_RESULT_TEXT = "no result: the run stopped before this tool call finished";

export function pairToolResults(messages: ChatMessage[]): ChatMessage[] {
  const paired: ChatMessage[] = [];
  let index = 0;
  while (index < messages.length) {
    const message = messages[index];
    index++;
    if (message.role === "tool") continue; // a result whose call is not just before it
    paired.push(message);
    if (message.role !== "assistant" || message.toolCalls.length === 0) continue;
    const results = new Map<string, ChatMessage & { role: "tool" }>();
    while (index < messages.length && messages[index].role === "tool") {
      const result = messages[index] as ChatMessage & { role: "tool" };
      if (!results.has(result.toolCallId)) results.set(result.toolCallId, result);
      index++;
    }
    for (const call of message.toolCalls) {
      paired.push(
        results.get(call.id) ?? {
          role: "tool",
          toolCallId: call.id,
          toolName: call.name,
          content: MISSING_RESULT_TEXT,
          isError: true,
        },
      );
    }
  }
  return paired;
}
