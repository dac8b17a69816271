import type { ChatMessage, ToolCall, ToolDefinition, Usage } from "../protocol/model.ts";

/** What the Runner sends to a provider for one model request. */
export interface ModelRequest {
  system: { stable: string; environment: string };
  messages: ChatMessage[];
  tools: ToolDefinition[];
  /** A per-request model override (slash invocation of a skill with `model:`). */
  model?: string;
}

export type ProviderEvent =
  | { type: "text_delta"; text: string }
  | { type: "tool_call"; call: ToolCall }
  | { type: "usage"; usage: Usage }
  /** The exact payload sent to the API, keys redacted, for the inspector's Raw pane. */
  | { type: "payload"; payload: unknown }
  | { type: "retry"; attempt: number; delayMs: number; reason: string }
  /** Terminal: the response is complete. */
  | { type: "done" }
  /** Terminal: the request failed. `message` says what the server answered and what to do. */
  | { type: "error"; message: string; status?: number };

/**
 * A model. `stream` never throws into the Runner: every failure becomes a terminal `error` event.
 * Exactly one terminal event (`done` or `error`) ends each stream.
 */
export interface Provider {
  readonly name: string;
  readonly model: string;
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ProviderEvent>;
}
