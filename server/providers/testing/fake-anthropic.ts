// A fake Anthropic Messages API on 127.0.0.1 speaking the real wire format: POST /v1/messages answered
// with the SSE events of the public streaming reference (message_start, content_block_start,
// content_block_delta with text_delta / input_json_delta, content_block_stop, message_delta,
// message_stop, ping, error) or with the API's JSON error bodies.
import { randomBytes } from "node:crypto";
import {
  splitText,
  sseResponse,
  startFakeHttpServer,
  textDeltasOf,
  type FakeResponse,
  type FakeServer,
  type FakeTurnBase,
  type SseEvent,
} from "./fake-http.ts";

export interface AnthropicFakeUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
  /** The writes split by TTL, as the API reports them. */
  cache_creation?: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
}

export interface AnthropicFakeToolUse {
  id?: string;
  name: string;
  input: Record<string, unknown>;
  /** How many input_json_delta chunks the JSON is split into (default 1). */
  chunks?: number;
  /** The JSON text sent instead of `input`'s: a cut one (e.g. `{"text": "ab`) is what max_tokens leaves. */
  inputJson?: string;
}

export interface AnthropicFakeTurn extends FakeTurnBase {
  toolUses?: AnthropicFakeToolUse[];
  usage?: AnthropicFakeUsage;
  /** Default: "tool_use" when there are tool uses, else "end_turn". */
  stopReason?: string;
  /** The message id (default a fresh `msg_…`). */
  id?: string;
  /**
   * The message's `diagnostics` (cache diagnostics), as the API puts it on message_start's message:
   * null (no divergence), {cache_miss_reason: null} (still running), or {cache_miss_reason: {type, …}}.
   * Left out when undefined.
   */
  diagnostics?: unknown;
}

function sse(type: string, payload: Record<string, unknown>): SseEvent {
  return { event: type, data: JSON.stringify({ type, ...payload }) };
}

export function anthropicId(prefix: string): string {
  return `${prefix}_01${randomBytes(10).toString("hex")}`;
}

/** The SSE events of one assistant message: text block first, then one tool_use block per call. */
export function anthropicTurnEvents(turn: AnthropicFakeTurn): SseEvent[] {
  const usage = turn.usage ?? { input_tokens: 10, output_tokens: 5 };
  const events: SseEvent[] = [
    sse("message_start", {
      message: {
        id: turn.id ?? anthropicId("msg"),
        type: "message",
        role: "assistant",
        model: turn.model ?? "claude-fake-1",
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: usage.input_tokens,
          cache_creation_input_tokens: usage.cache_creation_input_tokens ?? 0,
          cache_read_input_tokens: usage.cache_read_input_tokens ?? 0,
          ...(usage.cache_creation ? { cache_creation: usage.cache_creation } : {}),
          output_tokens: 1,
        },
        ...(turn.diagnostics !== undefined ? { diagnostics: turn.diagnostics } : {}),
      },
    }),
    sse("ping", {}),
  ];
  let index = 0;
  const textDeltas = textDeltasOf(turn);
  if (textDeltas.length > 0) {
    events.push(sse("content_block_start", { index, content_block: { type: "text", text: "" } }));
    for (const text of textDeltas) {
      events.push(sse("content_block_delta", { index, delta: { type: "text_delta", text } }));
    }
    events.push(sse("content_block_stop", { index }));
    index++;
  }
  for (const toolUse of turn.toolUses ?? []) {
    events.push(
      sse("content_block_start", {
        index,
        content_block: {
          type: "tool_use",
          id: toolUse.id ?? anthropicId("toolu"),
          name: toolUse.name,
          input: {},
        },
      }),
    );
    for (const partial of splitText(
      toolUse.inputJson ?? JSON.stringify(toolUse.input),
      toolUse.chunks ?? 1,
    )) {
      events.push(
        sse("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: partial } }),
      );
    }
    events.push(sse("content_block_stop", { index }));
    index++;
  }
  events.push(
    sse("message_delta", {
      delta: {
        stop_reason: turn.stopReason ?? ((turn.toolUses ?? []).length > 0 ? "tool_use" : "end_turn"),
        stop_sequence: null,
      },
      usage: { output_tokens: usage.output_tokens },
    }),
  );
  events.push(sse("message_stop", {}));
  return events;
}

export function anthropicStream(turn: AnthropicFakeTurn, cutAfter?: number): FakeResponse {
  return sseResponse(anthropicTurnEvents(turn), cutAfter);
}

/** The API's JSON error body, e.g. (401, "authentication_error", "invalid x-api-key"). */
export function anthropicError(
  status: number,
  type: string,
  message: string,
  headers?: Record<string, string>,
): FakeResponse {
  return {
    kind: "json",
    status,
    body: { type: "error", error: { type, message }, request_id: anthropicId("req") },
    headers,
  };
}

/** An `error` event inside a 200 stream (how the API reports overload after the stream began). */
export function anthropicStreamErrorEvent(type: string, message: string): FakeResponse {
  return { kind: "sse", events: [sse("error", { error: { type, message } })] };
}

export async function startFakeAnthropic(): Promise<FakeServer> {
  return startFakeHttpServer({
    paths: ["/v1/messages"],
    responseHeaders: { "request-id": anthropicId("req"), "anthropic-organization-id": "fake-org" },
    notFoundBody: (path) => ({
      type: "error",
      error: { type: "not_found_error", message: `Not Found: ${path}` },
    }),
  });
}
