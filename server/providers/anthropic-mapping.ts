// ModelRequest → Messages API request body (pure). The stable system and the environment are two system
// text blocks, and the first carries cache_control: the prefix tools + stable system is cached when it
// reaches the model's minimum (server/cache/cache-rules.json), and stays byte-identical when a skill is
// loaded, because skill bodies live in the second block. With `cacheBreakpoints: "rolling"` the last
// block of the conversation carries a second breakpoint, which moves forward with the conversation, so
// each iteration reads the previous one's messages from the cache instead of re-sending them uncached.
import type { ChatMessage, ToolDefinition } from "../protocol/model.ts";
import type { ModelRequest } from "./types.ts";
import { pairToolResults } from "./history.ts";

export interface AnthropicTextBlock {
  type: "text";
  text: string;
  cache_control?: { type: "ephemeral" };
}
export interface AnthropicToolUseBlock {
  type: "tool_use";
  id: string;
  name: string;
  input: Record<string, unknown>;
  cache_control?: { type: "ephemeral" };
}
export interface AnthropicToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  content: string;
  is_error: boolean;
  cache_control?: { type: "ephemeral" };
}
export type AnthropicContentBlock = AnthropicTextBlock | AnthropicToolUseBlock | AnthropicToolResultBlock;

export interface AnthropicMessage {
  role: "user" | "assistant";
  content: AnthropicContentBlock[];
}

export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

export interface AnthropicRequestBody {
  model: string;
  max_tokens: number;
  system: AnthropicTextBlock[];
  messages: AnthropicMessage[];
  tools?: AnthropicTool[];
  stream: true;
}

export function toAnthropicSystem(system: ModelRequest["system"]): AnthropicTextBlock[] {
  const blocks: AnthropicTextBlock[] = [];
  // The API rejects empty text blocks, so an empty part is left out rather than sent blank.
  if (system.stable) blocks.push({ type: "text", text: system.stable, cache_control: { type: "ephemeral" } });
  if (system.environment) blocks.push({ type: "text", text: system.environment });
  return blocks;
}

export function toAnthropicTools(tools: ToolDefinition[]): AnthropicTool[] {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: { type: "object", ...tool.inputSchema },
  }));
}

/** tool_use input must be a JSON object; anything else is wrapped so it still round-trips visibly. */
function asInputObject(input: unknown): Record<string, unknown> {
  if (input !== null && typeof input === "object" && !Array.isArray(input))
    return input as Record<string, unknown>;
  return input === undefined ? {} : { value: input };
}

function blocksOf(message: ChatMessage): AnthropicContentBlock[] {
  if (message.role === "user") return message.content ? [{ type: "text", text: message.content }] : [];
  if (message.role === "tool") {
    return [
      {
        type: "tool_result",
        tool_use_id: message.toolCallId,
        content: message.content,
        is_error: message.isError,
      },
    ];
  }
  const blocks: AnthropicContentBlock[] = [];
  if (message.content) blocks.push({ type: "text", text: message.content });
  for (const call of message.toolCalls) {
    blocks.push({ type: "tool_use", id: call.id, name: call.name, input: asInputObject(call.input) });
  }
  return blocks;
}

/**
 * ChatMessage history → Messages API turns. Tool results become tool_result blocks in a user turn;
 * consecutive messages of one role (several results, or results then the next user message) merge into
 * one turn, results first, as the API requires.
 */
export function toAnthropicMessages(messages: ChatMessage[]): AnthropicMessage[] {
  const turns: AnthropicMessage[] = [];
  for (const message of pairToolResults(messages)) {
    const role = message.role === "assistant" ? "assistant" : "user";
    const blocks = blocksOf(message);
    if (blocks.length === 0) continue;
    const last = turns[turns.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  }
  return turns;
}

export function toAnthropicBody(
  request: ModelRequest,
  model: string,
  maxTokens: number,
): AnthropicRequestBody {
  const body: AnthropicRequestBody = {
    model,
    max_tokens: maxTokens,
    system: toAnthropicSystem(request.system),
    messages: toAnthropicMessages(request.messages),
    stream: true,
  };
  if (request.tools.length > 0) body.tools = toAnthropicTools(request.tools);
  if (request.cacheBreakpoints === "rolling") {
    const lastBlock = body.messages.at(-1)?.content.at(-1);
    if (lastBlock) lastBlock.cache_control = { type: "ephemeral" };
  }
  return body;
}
