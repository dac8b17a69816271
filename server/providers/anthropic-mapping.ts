// ModelRequest → Messages API request body (pure). The stable system and the environment are two system
// text blocks, and the first carries cache_control: the prefix tools + stable system is cached when it
// reaches the model's minimum (server/cache/cache-rules.json), and stays byte-identical when a skill is
// loaded, because skill bodies live in the second block. With `cacheBreakpoints: "rolling"` the last
// block of the conversation carries a second breakpoint, which moves forward with the conversation, so
// each iteration reads the previous one's messages from the cache instead of re-sending them uncached.
// With `cacheDiagnostics` the body asks for Anthropic's cache diagnostics (anthropic-diagnostics.ts); on
// models that accept them, a skill's SOP and tools arrive as a mid-conversation system message.
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

/** A tool made available mid-conversation, by value (beta inline-tools-2026-09-15). */
export interface AnthropicToolAdditionBlock {
  type: "tool_addition";
  tool: { type: "tool_definition"; definition: AnthropicTool };
  cache_control?: { type: "ephemeral" };
}

/** A mid-conversation system message: right after a user turn, text and tool additions only. */
export interface AnthropicSystemMessage {
  role: "system";
  content: (AnthropicTextBlock | AnthropicToolAdditionBlock)[];
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
  messages: (AnthropicMessage | AnthropicSystemMessage)[];
  tools?: AnthropicTool[];
  stream: true;
  /** Cache diagnostics: compare with this earlier response (null: the first request). */
  diagnostics?: { previous_message_id: string | null };
}

export function toAnthropicSystem(system: ModelRequest["system"]): AnthropicTextBlock[] {
  const blocks: AnthropicTextBlock[] = [];
  // The API rejects empty text blocks, so an empty part is left out rather than sent blank.
  if (system.stable) blocks.push({ type: "text", text: system.stable, cache_control: { type: "ephemeral" } });
  if (system.environment) blocks.push({ type: "text", text: system.environment });
  return blocks;
}

function toAnthropicTool(tool: ToolDefinition): AnthropicTool {
  return {
    name: tool.name,
    description: tool.description,
    input_schema: { type: "object", ...tool.inputSchema },
  };
}

export function toAnthropicTools(tools: ToolDefinition[]): AnthropicTool[] {
  return tools.map(toAnthropicTool);
}

/** Tools added mid-conversation, for a model that takes no tool change: they join `tools` instead. */
function withAddedTools(request: ModelRequest): ToolDefinition[] {
  const names = new Set(request.tools.map((tool) => tool.name));
  const added = request.messages.flatMap((message) =>
    message.role === "user" ? (message.addedTools ?? []) : [],
  );
  return [...request.tools, ...added.filter((tool) => !names.has(tool.name) && names.add(tool.name))];
}

/** Whether the body adds a tool mid-conversation (its beta header must go with it). */
export function hasToolAdditions(body: AnthropicRequestBody): boolean {
  return body.messages.some(
    (message) => message.role === "system" && message.content.some((block) => block.type === "tool_addition"),
  );
}

/** tool_use input must be a JSON object; anything else is wrapped so it still round-trips visibly. */
function asInputObject(input: unknown): Record<string, unknown> {
  if (input !== null && typeof input === "object" && !Array.isArray(input))
    return input as Record<string, unknown>;
  return input === undefined ? {} : { value: input };
}

/** A result's mid-conversation system text, folded into the result for a model that takes no system message. */
function foldedContent(message: ChatMessage & { role: "tool" }, midConversation: boolean): string {
  return message.system && !midConversation ? `${message.content}\n\n${message.system}` : message.content;
}

function blocksOf(message: ChatMessage, midConversation: boolean): AnthropicContentBlock[] {
  if (message.role === "user") return message.content ? [{ type: "text", text: message.content }] : [];
  if (message.role === "tool") {
    return [
      {
        type: "tool_result",
        tool_use_id: message.toolCallId,
        content: foldedContent(message, midConversation),
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

export interface MidConversationOptions {
  /** The model accepts {"role": "system"} messages inside messages. */
  system: boolean;
  /** It accepts tool_addition blocks in them. */
  toolChanges: boolean;
}

/**
 * ChatMessage history → Messages API turns. Tool results become tool_result blocks in a user turn;
 * consecutive messages of one role (several results, or results then the next user message) merge into
 * one turn, results first, as the API requires. What a user turn's messages carry for the model's
 * system (a result's `system` text, a message's `addedTools`) follows that turn as one system message,
 * which the placement rules allow: right after a user turn, followed by the assistant's turn or last,
 * never two in a row. A model without mid-conversation system messages gets the text inside the result
 * instead; without tool changes, the added tools go to `tools` (toAnthropicBody).
 */
export function toAnthropicMessages(
  messages: ChatMessage[],
  midConversation: MidConversationOptions = { system: false, toolChanges: false },
): (AnthropicMessage | AnthropicSystemMessage)[] {
  const turns: (AnthropicMessage | AnthropicSystemMessage)[] = [];
  let pending: AnthropicSystemMessage["content"] = [];
  const flush = () => {
    if (pending.length > 0) turns.push({ role: "system", content: pending });
    pending = [];
  };
  for (const message of pairToolResults(messages)) {
    const role = message.role === "assistant" ? "assistant" : "user";
    if (role === "assistant") flush();
    const blocks = blocksOf(message, midConversation.system);
    if (message.role === "tool" && message.system && midConversation.system)
      pending.push({ type: "text", text: message.system });
    if (message.role === "user" && midConversation.toolChanges)
      for (const tool of message.addedTools ?? [])
        pending.push({
          type: "tool_addition",
          tool: { type: "tool_definition", definition: toAnthropicTool(tool) },
        });
    if (blocks.length === 0) continue;
    const last = turns[turns.length - 1];
    if (last && last.role === role) (last as AnthropicMessage).content.push(...blocks);
    else turns.push({ role, content: blocks });
  }
  flush();
  return turns;
}

export function toAnthropicBody(
  request: ModelRequest,
  model: string,
  maxTokens: number,
  options: { diagnostics?: boolean } = {},
): AnthropicRequestBody {
  const midConversation = {
    system: request.midConversation?.system === true,
    toolChanges: request.midConversation?.system === true && request.midConversation.toolChanges,
  };
  const body: AnthropicRequestBody = {
    model,
    max_tokens: maxTokens,
    system: toAnthropicSystem(request.system),
    messages: toAnthropicMessages(request.messages, midConversation),
    stream: true,
  };
  const tools = midConversation.toolChanges ? request.tools : withAddedTools(request);
  if (tools.length > 0) body.tools = toAnthropicTools(tools);
  if (options.diagnostics && request.cacheDiagnostics)
    body.diagnostics = { previous_message_id: request.cacheDiagnostics.previousResponseId };
  if (request.cacheBreakpoints === "rolling") {
    const lastBlock = body.messages.at(-1)?.content.at(-1);
    if (lastBlock) lastBlock.cache_control = { type: "ephemeral" };
  }
  return body;
}
