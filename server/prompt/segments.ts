// The prompt as ordered segments with a content hash and a token count each, in the order a provider
// renders a request (Anthropic: tools → system → messages): every tool definition, the stable system,
// the environment's sections, the messages. Token counts use one tokenizer (o200k_base from
// gpt-tokenizer, in linear time: ../protocol/token-count.ts) and are cached by content hash, so the stable system of a large catalog (~41k tokens
// for 1,000 skills) is tokenized once, not on every iteration. Pure apart from those caches.
import { countTokensBounded as countTokens } from "../protocol/token-count.ts";
import type { ChatMessage, ToolDefinition } from "../protocol/model.ts";
import type { MessageFigures, PromptSegment } from "../protocol/runner-events.ts";
import type { EnvironmentSection } from "./environment.ts";
import { sha256Hex } from "./hash.ts";

/** Named in every snapshot, so the inspector says where its numbers come from. */
export const TOKENIZER_NAME = "o200k_base (gpt-tokenizer)" as const;

/** Distinct texts whose token count is remembered; past it the cache starts over (a new catalog, etc.). */
const TOKEN_CACHE_LIMIT = 20_000;
const tokensByHash = new Map<string, number>();
let charactersTokenized = 0;

/** Characters this process has run through the tokenizer (cache misses only): what the cache saves. */
export function tokenizedCharacters(): number {
  return charactersTokenized;
}

/** Tokens of `text` (whose sha256 is `hash`), counted once per distinct content. */
export function cachedTokens(hash: string, text: string): number {
  const known = tokensByHash.get(hash);
  if (known !== undefined) return known;
  const tokens = countTokens(text);
  charactersTokenized += text.length;
  if (tokensByHash.size >= TOKEN_CACHE_LIMIT) tokensByHash.clear();
  tokensByHash.set(hash, tokens);
  return tokens;
}

/**
 * System texts seen lately (the environment's sections are rebuilt for every request, mostly with the
 * same bytes): comparing a string is much cheaper than hashing it again.
 */
const TEXT_CACHE_LIMIT = 2_000;
/** Longer texts (an eager stable system) are not kept alive by the cache: they are hashed each time. */
const TEXT_CACHE_MAX_CHARS = 64 * 1024;
const figuresByText = new Map<string, { hash: string; tokens: number }>();

/** Figures of a system text (the stable system, an environment section). */
export function textFigures(text: string): { hash: string; tokens: number } {
  const known = figuresByText.get(text);
  if (known) return known;
  const hash = sha256Hex(text);
  const figures = { hash, tokens: cachedTokens(hash, text) };
  if (text.length <= TEXT_CACHE_MAX_CHARS) {
    if (figuresByText.size >= TEXT_CACHE_LIMIT) figuresByText.clear();
    figuresByText.set(text, figures);
  }
  return figures;
}

/** A tool as the model reads it: name, description and input schema (the figures' text). */
function toolText(tool: ToolDefinition): string {
  return JSON.stringify({ name: tool.name, description: tool.description, input_schema: tool.inputSchema });
}

/** A message as the model reads it: role, text, and each tool call with its input (the figures' text). */
export function messageText(message: ChatMessage): string {
  if (message.role === "assistant") {
    const calls = message.toolCalls.map((call) => `${call.name}(${JSON.stringify(call.input)})`);
    return [`assistant: ${message.content}`, ...calls].join("\n");
  }
  // A mid-conversation system message (a result's `system`, a message's `addedTools`) is sent with it.
  if (message.role === "tool")
    return `tool ${message.toolName}: ${message.content}${message.system ? `\nsystem: ${message.system}` : ""}`;
  const added = (message.addedTools ?? []).map((tool) => `\nsystem: tool_addition ${toolText(tool)}`);
  return `user: ${message.content}${added.join("")}`;
}

/** Message objects of a history are not changed once appended, so their figures are kept per object. */
const figuresByMessage = new WeakMap<ChatMessage, MessageFigures>();
const hashByMessage = new WeakMap<ChatMessage, string>();

/** A message's content hash: sha256 of its JSON, every byte the provider is sent. */
export function messageHash(message: ChatMessage): string {
  let hash = hashByMessage.get(message);
  if (hash === undefined) {
    hash = sha256Hex(JSON.stringify(message));
    hashByMessage.set(message, hash);
  }
  return hash;
}

/**
 * Tokens of a message's text, remembered by that text: what the tokenizer counts leaves out the ids and
 * flags the hash covers, so two messages that read the same (the same tool result to another call, a turn
 * replayed) are counted once. Texts over TEXT_CACHE_MAX_CHARS are remembered by the message's hash instead.
 */
const tokensByMessageText = new Map<string, number>();

function messageTokens(message: ChatMessage, hash: string): number {
  const text = messageText(message);
  if (text.length > TEXT_CACHE_MAX_CHARS) return cachedTokens(hash, text);
  let tokens = tokensByMessageText.get(text);
  if (tokens === undefined) {
    tokens = countTokens(text);
    charactersTokenized += text.length;
    if (tokensByMessageText.size >= TOKEN_CACHE_LIMIT) tokensByMessageText.clear();
    tokensByMessageText.set(text, tokens);
  }
  return tokens;
}

/** A message's hash and tokens (of `messageText`). */
export function messageFigures(message: ChatMessage): MessageFigures {
  const known = figuresByMessage.get(message);
  if (known) return known;
  const hash = messageHash(message);
  const figures = { hash, tokens: messageTokens(message, hash) };
  figuresByMessage.set(message, figures);
  return figures;
}

/**
 * Messages longer than this are not tokenized when they are appended (a long streamed answer would hold
 * up the end of its run): their figures come with the first request that sends them.
 */
export const FIGURES_ON_APPEND_MAX_CHARS = 16 * 1024;

/** The figures to send with a message as it is appended: none for a long one (see above). */
export function figuresOnAppend(message: ChatMessage): MessageFigures | undefined {
  const known = figuresByMessage.get(message);
  if (known) return known;
  return message.content.length > FIGURES_ON_APPEND_MAX_CHARS ? undefined : messageFigures(message);
}

/**
 * A tool's segment: tokens of what the model reads, and the hash of the definition as stored (its JSON,
 * with the playground's own fields: the blob the request refers to, server/protocol/request-model.ts).
 */
export function toolSegments(tools: readonly ToolDefinition[]): PromptSegment[] {
  return tools.map((tool) => ({
    kind: "tool",
    name: tool.name,
    hash: sha256Hex(JSON.stringify(tool)),
    tokens: textFigures(toolText(tool)).tokens,
  }));
}

export function stableSegment(stable: string, stableHash = sha256Hex(stable)): PromptSegment {
  return {
    kind: "system",
    name: "stable",
    hash: stableHash,
    tokens: cachedTokens(stableHash, stable),
    chars: stable.length,
  };
}

export function environmentSegments(sections: readonly EnvironmentSection[]): PromptSegment[] {
  return sections.map((section) => ({
    kind: "environment",
    name: section.name,
    ...textFigures(section.text),
    chars: section.text.length,
  }));
}

/** A message keeps its index in its history, so its segment is made once and shared by every request. */
const segmentByMessage = new WeakMap<ChatMessage, PromptSegment>();

export function messageSegment(message: ChatMessage, index: number): PromptSegment {
  const known = segmentByMessage.get(message);
  if (known && known.name === String(index)) return known;
  const segment: PromptSegment = { kind: "message", name: String(index), ...messageFigures(message) };
  segmentByMessage.set(message, segment);
  return segment;
}

export function messageSegments(messages: readonly ChatMessage[]): PromptSegment[] {
  return messages.map(messageSegment);
}

/** Sum of the tokens of the segments of one kind (all kinds when none is given). */
export function segmentTokens(segments: readonly PromptSegment[], kind?: PromptSegment["kind"]): number {
  let total = 0;
  for (const segment of segments) if (!kind || segment.kind === kind) total += segment.tokens;
  return total;
}
