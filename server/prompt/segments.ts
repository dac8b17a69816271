// The prompt as ordered segments with a content hash and a token count each, in the order a provider
// renders a request (Anthropic: tools → system → messages): every tool definition, the stable system,
// the environment's sections, the messages. Token counts use one tokenizer (o200k_base from
// gpt-tokenizer, in linear time: ../protocol/token-count.ts) and are cached by content hash in a
// TokenCounter, so the stable system of a large catalog (~41k tokens for 1,000 skills) is tokenized once,
// not on every iteration. The caches are the counter's (an instance the composition root makes), not this
// module's: module state here is only constants.
import { countTokensBounded as countTokens } from "../protocol/token-count.ts";
import type { ChatMessage, ToolDefinition } from "../protocol/model.ts";
import type { MessageFigures, PromptSegment } from "../protocol/runner-events.ts";
import type { EnvironmentSection } from "./environment.ts";
import { sha256Hex } from "./hash.ts";

/** Named in every snapshot, so the inspector says where its numbers come from. */
export const TOKENIZER_NAME = "o200k_base (gpt-tokenizer)" as const;

/** Distinct texts whose token count is remembered; past it the cache starts over (a new catalog, etc.). */
const TOKEN_CACHE_LIMIT = 20_000;
/** System texts remembered by their text (see TokenCounter.textFigures). */
const TEXT_CACHE_LIMIT = 2_000;
/** Longer texts (an eager stable system) are not kept alive by the cache: they are hashed each time. */
const TEXT_CACHE_MAX_CHARS = 64 * 1024;

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

/**
 * Messages longer than this are not tokenized when they are appended (a long streamed answer would hold
 * up the end of its run): their figures come with the first request that sends them.
 */
export const FIGURES_ON_APPEND_MAX_CHARS = 16 * 1024;

/**
 * The token counter: every figure of a segment (hash and o200k_base tokens), with the caches that make it
 * cheap — tokens by content hash, system texts by their text, messages by object (a history's messages are
 * not changed once appended) and by what the tokenizer reads. One instance per composition root
 * (server/index.ts, a CLI command, a test), passed down to what computes figures: its caches and its
 * `tokenizedCharacters` are that owner's, never shared through a module. Caches only save work: a fresh
 * counter gives the same figures.
 */
export class TokenCounter {
  private readonly tokensByHash = new Map<string, number>();
  private charactersTokenized = 0;
  /**
   * System texts seen lately (the environment's sections are rebuilt for every request, mostly with the
   * same bytes): comparing a string is much cheaper than hashing it again.
   */
  private readonly figuresByText = new Map<string, { hash: string; tokens: number }>();
  private readonly figuresByMessage = new WeakMap<ChatMessage, MessageFigures>();
  private readonly hashByMessage = new WeakMap<ChatMessage, string>();
  /**
   * Tokens of a message's text, remembered by that text: what the tokenizer counts leaves out the ids and
   * flags the hash covers, so two messages that read the same (the same tool result to another call, a
   * turn replayed) are counted once. Texts over TEXT_CACHE_MAX_CHARS are remembered by the message's hash.
   */
  private readonly tokensByMessageText = new Map<string, number>();
  /** A message keeps its index in its history, so its segment is made once and shared by every request. */
  private readonly segmentByMessage = new WeakMap<ChatMessage, PromptSegment>();

  /** Characters this counter has run through the tokenizer (cache misses only): what the cache saves. */
  get tokenizedCharacters(): number {
    return this.charactersTokenized;
  }

  /** Tokens of `text` (whose sha256 is `hash`), counted once per distinct content. */
  tokens(hash: string, text: string): number {
    const known = this.tokensByHash.get(hash);
    if (known !== undefined) return known;
    const tokens = countTokens(text);
    this.charactersTokenized += text.length;
    if (this.tokensByHash.size >= TOKEN_CACHE_LIMIT) this.tokensByHash.clear();
    this.tokensByHash.set(hash, tokens);
    return tokens;
  }

  /** Figures of a system text (the stable system, an environment section). */
  textFigures(text: string): { hash: string; tokens: number } {
    const known = this.figuresByText.get(text);
    if (known) return known;
    const hash = sha256Hex(text);
    const figures = { hash, tokens: this.tokens(hash, text) };
    if (text.length <= TEXT_CACHE_MAX_CHARS) {
      if (this.figuresByText.size >= TEXT_CACHE_LIMIT) this.figuresByText.clear();
      this.figuresByText.set(text, figures);
    }
    return figures;
  }

  /** A message's content hash: sha256 of its JSON, every byte the provider is sent. */
  messageHash(message: ChatMessage): string {
    let hash = this.hashByMessage.get(message);
    if (hash === undefined) {
      hash = sha256Hex(JSON.stringify(message));
      this.hashByMessage.set(message, hash);
    }
    return hash;
  }

  private messageTokens(message: ChatMessage, hash: string): number {
    const text = messageText(message);
    if (text.length > TEXT_CACHE_MAX_CHARS) return this.tokens(hash, text);
    let tokens = this.tokensByMessageText.get(text);
    if (tokens === undefined) {
      tokens = countTokens(text);
      this.charactersTokenized += text.length;
      if (this.tokensByMessageText.size >= TOKEN_CACHE_LIMIT) this.tokensByMessageText.clear();
      this.tokensByMessageText.set(text, tokens);
    }
    return tokens;
  }

  /** A message's hash and tokens (of `messageText`). */
  messageFigures(message: ChatMessage): MessageFigures {
    const known = this.figuresByMessage.get(message);
    if (known) return known;
    const hash = this.messageHash(message);
    const figures = { hash, tokens: this.messageTokens(message, hash) };
    this.figuresByMessage.set(message, figures);
    return figures;
  }

  /** The figures to send with a message as it is appended: none for a long one (FIGURES_ON_APPEND_MAX_CHARS). */
  figuresOnAppend(message: ChatMessage): MessageFigures | undefined {
    const known = this.figuresByMessage.get(message);
    if (known) return known;
    return message.content.length > FIGURES_ON_APPEND_MAX_CHARS ? undefined : this.messageFigures(message);
  }

  /**
   * A tool's segment: tokens of what the model reads, and the hash of the definition as stored (its JSON,
   * with the playground's own fields: the blob the request refers to, server/protocol/request-model.ts).
   */
  toolSegments(tools: readonly ToolDefinition[]): PromptSegment[] {
    return tools.map((tool) => ({
      kind: "tool",
      name: tool.name,
      hash: sha256Hex(JSON.stringify(tool)),
      tokens: this.textFigures(toolText(tool)).tokens,
    }));
  }

  stableSegment(stable: string, stableHash = sha256Hex(stable)): PromptSegment {
    return {
      kind: "system",
      name: "stable",
      hash: stableHash,
      tokens: this.tokens(stableHash, stable),
      chars: stable.length,
    };
  }

  environmentSegments(sections: readonly EnvironmentSection[]): PromptSegment[] {
    return sections.map((section) => ({
      kind: "environment",
      name: section.name,
      ...this.textFigures(section.text),
      chars: section.text.length,
    }));
  }

  messageSegment(message: ChatMessage, index: number): PromptSegment {
    const known = this.segmentByMessage.get(message);
    if (known && known.name === String(index)) return known;
    const segment: PromptSegment = { kind: "message", name: String(index), ...this.messageFigures(message) };
    this.segmentByMessage.set(message, segment);
    return segment;
  }

  messageSegments(messages: readonly ChatMessage[]): PromptSegment[] {
    return messages.map((message, index) => this.messageSegment(message, index));
  }
}

/** Sum of the tokens of the segments of one kind (all kinds when none is given). */
export function segmentTokens(segments: readonly PromptSegment[], kind?: PromptSegment["kind"]): number {
  let total = 0;
  for (const segment of segments) if (!kind || segment.kind === kind) total += segment.tokens;
  return total;
}
