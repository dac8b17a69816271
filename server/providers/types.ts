import type { ChatMessage, ToolCall, ToolDefinition, Usage } from "../protocol/model.ts";
import type { RoutingDecision } from "../protocol/routing.ts";

/** What the Runner sends to a provider for one model request. */
export interface ModelRequest {
  system: { stable: string; environment: string };
  /**
   * The environment as the sections it is made of ("base", then one per active skill, by name), in
   * order; they concatenate to `system.environment`. Code finds a skill's block here, never by parsing.
   */
  environmentSections?: readonly { name: string; text: string }[];
  messages: ChatMessage[];
  tools: ToolDefinition[];
  /** A per-request model override (slash invocation of a skill with `model:`). */
  model?: string;
  /** Anthropic: also put a breakpoint on the conversation's last block ("rolling"); default the stable block only. */
  cacheBreakpoints?: "stable" | "rolling";
  /** OpenAI: sent as prompt_cache_key (one per session), so requests sharing a prefix meet the same cache. */
  promptCacheKey?: string;
  /**
   * Ask the provider for its cache diagnostics, compared with the response named here (null: the first
   * request, nothing to compare with). Absent: do not ask.
   */
  cacheDiagnostics?: { previousResponseId: string | null };
  /**
   * What the model accepts mid-conversation (server/cache/cache-rules.json): system messages (a tool
   * result's `system` text, a user message's `addedTools`) and tool changes, with the beta header those
   * need. Absent or false: the provider folds them back (the text into the result, the tools into `tools`).
   */
  midConversation?: { system: boolean; toolChanges: boolean; toolChangesBeta?: string };
}

export type ProviderEvent =
  | { type: "text_delta"; text: string }
  /**
   * A tool call, once its input is complete. `cutOff`: the output-token limit (Anthropic stop_reason
   * "max_tokens", Chat Completions finish_reason "length") cut its JSON input short; `call.input` is {} and
   * the Runner does not run it but answers it with an error result telling the model to retry smaller.
   */
  | { type: "tool_call"; call: ToolCall; cutOff?: true }
  | { type: "usage"; usage: Usage }
  /**
   * The exact payload sent to the API, keys redacted, for the inspector's Raw pane. The description
   * router adds its decision (`routing`: every skill's score), shown as "why this skill".
   */
  | { type: "payload"; payload: unknown; routing?: RoutingDecision }
  | { type: "retry"; attempt: number; delayMs: number; reason: string }
  /** Something the provider did on its own that the user should know (it goes on streaming). */
  | { type: "notice"; code: "cache_diagnostics_rejected"; message: string }
  /** Terminal: the response is complete. */
  | { type: "done" }
  /** Terminal: the request failed. `message` says what the server answered and what to do. */
  | { type: "error"; message: string; status?: number };

/** What a person answers for a model turn: the assistant text and the tool calls to make. */
export interface InputReply {
  text: string;
  toolCalls: { name: string; input: unknown }[];
}

export type InputReplyResult = { ok: true } | { ok: false; error: string };

/**
 * A provider is waiting for a person to answer a request (the manual provider: the person is the model).
 * Symmetric with an approval: the session shows the request, and the person's answer goes to `reply`.
 * An invalid answer is refused with the reason and the turn keeps waiting; once the turn is answered or
 * its run is stopped, `reply` refuses.
 */
export interface AwaitingInput {
  request: ModelRequest;
  reply(answer: InputReply): InputReplyResult;
}

/** Told when a provider starts waiting for a person's answer. */
export type AwaitingInputListener = (awaiting: AwaitingInput) => void;

/**
 * A model. `stream` never throws into the Runner: every failure becomes a terminal `error` event.
 * Exactly one terminal event (`done` or `error`) ends each stream.
 */
export interface Provider {
  readonly name: string;
  readonly model: string;
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ProviderEvent>;
}
