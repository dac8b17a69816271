// ModelRequest → Chat Completions request body (pure). Stable system and environment are two system
// messages, in that order, so servers with prefix caching (OpenAI, vLLM, llama.cpp) can reuse the first.
import type { ChatMessage, ToolDefinition } from "../protocol/model.ts";
import type { ModelRequest } from "./types.ts";
import { pairToolResults } from "./history.ts";

export type OpenAiMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string }
  | {
      role: "assistant";
      content: string | null;
      tool_calls?: { id: string; type: "function"; function: { name: string; arguments: string } }[];
    }
  | { role: "tool"; tool_call_id: string; content: string };

export interface OpenAiTool {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface OpenAiRequestBody {
  model: string;
  messages: OpenAiMessage[];
  tools?: OpenAiTool[];
  stream: true;
  stream_options: { include_usage: true };
  max_completion_tokens?: number;
  /** One per session: requests sharing a prefix are routed to the same prompt cache. */
  prompt_cache_key?: string;
}

/** Chat Completions has no error flag on tool results, so a failed result says so in its text. */
export const TOOL_ERROR_PREFIX = "[tool error] ";

export function toOpenAiTools(tools: ToolDefinition[]): OpenAiTool[] {
  return tools.map((tool) => ({
    type: "function",
    function: {
      name: tool.name,
      description: tool.description,
      parameters: { type: "object", ...tool.inputSchema },
    },
  }));
}

function toOpenAiMessage(message: ChatMessage): OpenAiMessage {
  if (message.role === "user") return { role: "user", content: message.content };
  if (message.role === "tool") {
    // A mid-conversation system text (skill placement "system", an Anthropic feature) rides in the result.
    const content = message.system ? `${message.content}\n\n${message.system}` : message.content;
    return {
      role: "tool",
      tool_call_id: message.toolCallId,
      content: message.isError ? `${TOOL_ERROR_PREFIX}${content}` : content,
    };
  }
  const assistant: OpenAiMessage = { role: "assistant", content: message.content || null };
  if (message.toolCalls.length > 0) {
    assistant.tool_calls = message.toolCalls.map((call) => ({
      id: call.id,
      type: "function",
      function: { name: call.name, arguments: JSON.stringify(call.input ?? {}) },
    }));
  } else if (!message.content) {
    assistant.content = ""; // some compatible servers reject a null content without tool calls
  }
  return assistant;
}

export function toOpenAiMessages(request: ModelRequest): OpenAiMessage[] {
  const messages: OpenAiMessage[] = [];
  if (request.system.stable) messages.push({ role: "system", content: request.system.stable });
  if (request.system.environment) messages.push({ role: "system", content: request.system.environment });
  for (const message of pairToolResults(request.messages)) messages.push(toOpenAiMessage(message));
  return messages;
}

export function toOpenAiBody(request: ModelRequest, model: string, maxTokens?: number): OpenAiRequestBody {
  const body: OpenAiRequestBody = {
    model,
    messages: toOpenAiMessages(request),
    stream: true,
    stream_options: { include_usage: true },
  };
  // Tools a message added mid-conversation (an Anthropic feature) join the list here.
  const names = new Set(request.tools.map((tool) => tool.name));
  const added = request.messages
    .flatMap((message) => (message.role === "user" ? (message.addedTools ?? []) : []))
    .filter((tool) => !names.has(tool.name) && names.add(tool.name));
  const tools = [...request.tools, ...added];
  // An empty tools array is refused by some compatible servers; no tools means no field.
  if (tools.length > 0) body.tools = toOpenAiTools(tools);
  if (maxTokens !== undefined) body.max_completion_tokens = maxTokens;
  if (request.promptCacheKey) body.prompt_cache_key = request.promptCacheKey;
  return body;
}
