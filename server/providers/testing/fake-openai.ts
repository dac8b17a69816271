// A fake OpenAI-compatible Chat Completions API on 127.0.0.1 speaking the real wire format: POST
// /v1/chat/completions answered with `data: {chat.completion.chunk}` lines (tool_calls deltas with
// arguments split across chunks, a finish_reason chunk, a usage chunk with empty choices when
// stream_options.include_usage is set) and `data: [DONE]`, or with the API's JSON error bodies.
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

export interface OpenAiFakeUsage {
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens?: number;
}

export interface OpenAiFakeToolCall {
  id?: string;
  name: string;
  arguments: Record<string, unknown>;
  /** How many chunks the arguments string is split into (default 1). */
  chunks?: number;
  /** The arguments text sent instead of `arguments`' JSON: a cut one is what finish_reason "length" leaves. */
  argumentsJson?: string;
}

export interface OpenAiFakeTurn extends FakeTurnBase {
  toolCalls?: OpenAiFakeToolCall[];
  usage?: OpenAiFakeUsage;
  /** Default: "tool_calls" when there are tool calls, else "stop". */
  finishReason?: string;
  /** Leave out the usage chunk, as servers do when include_usage is not honoured. */
  omitUsage?: boolean;
  /** A `prompt_cache_diagnostics` object on the usage chunk (a Responses API field some servers add). */
  promptCacheDiagnostics?: Record<string, unknown>;
}

export function openAiId(prefix: string): string {
  return `${prefix}-${randomBytes(12).toString("hex")}`;
}

/** The data lines of one streamed completion, [DONE] included. */
export function openAiTurnEvents(turn: OpenAiFakeTurn): SseEvent[] {
  const id = openAiId("chatcmpl");
  const created = Math.floor(Date.now() / 1000);
  const model = turn.model ?? "gpt-fake-1";
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}): SseEvent => ({
    data: JSON.stringify({
      id,
      object: "chat.completion.chunk",
      created,
      model,
      system_fingerprint: "fp_fake",
      choices,
      ...extra,
    }),
  });
  const choice = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
    index: 0,
    delta,
    logprobs: null,
    finish_reason: finishReason,
  });
  const events: SseEvent[] = [chunk([choice({ role: "assistant", content: "", refusal: null })])];
  for (const text of textDeltasOf(turn)) events.push(chunk([choice({ content: text })]));
  for (const [index, call] of (turn.toolCalls ?? []).entries()) {
    events.push(
      chunk([
        choice({
          tool_calls: [
            {
              index,
              id: call.id ?? openAiId("call"),
              type: "function",
              function: { name: call.name, arguments: "" },
            },
          ],
        }),
      ]),
    );
    for (const piece of splitText(call.argumentsJson ?? JSON.stringify(call.arguments), call.chunks ?? 1)) {
      events.push(chunk([choice({ tool_calls: [{ index, function: { arguments: piece } }] })]));
    }
  }
  events.push(
    chunk([choice({}, turn.finishReason ?? ((turn.toolCalls ?? []).length > 0 ? "tool_calls" : "stop"))]),
  );
  if (!turn.omitUsage) {
    const usage = turn.usage ?? { prompt_tokens: 10, completion_tokens: 5 };
    events.push(
      chunk([], {
        usage: {
          prompt_tokens: usage.prompt_tokens,
          completion_tokens: usage.completion_tokens,
          total_tokens: usage.prompt_tokens + usage.completion_tokens,
          prompt_tokens_details: { cached_tokens: usage.cached_tokens ?? 0, audio_tokens: 0 },
          completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 },
        },
        ...(turn.promptCacheDiagnostics ? { prompt_cache_diagnostics: turn.promptCacheDiagnostics } : {}),
      }),
    );
  }
  events.push({ data: "[DONE]" });
  return events;
}

export function openAiStream(turn: OpenAiFakeTurn, cutAfter?: number): FakeResponse {
  return sseResponse(openAiTurnEvents(turn), cutAfter);
}

/** The API's JSON error body, e.g. (401, "Incorrect API key provided", "invalid_request_error", "invalid_api_key"). */
export function openAiError(
  status: number,
  message: string,
  type: string,
  code: string | null = null,
  headers?: Record<string, string>,
): FakeResponse {
  return { kind: "json", status, body: { error: { message, type, param: null, code } }, headers };
}

export async function startFakeOpenAi(): Promise<FakeServer> {
  return startFakeHttpServer({
    paths: ["/v1/chat/completions"],
    responseHeaders: { "x-request-id": openAiId("req"), "openai-processing-ms": "1" },
    notFoundBody: (path) => ({
      error: {
        message: `Invalid URL (POST ${path})`,
        type: "invalid_request_error",
        param: null,
        code: null,
      },
    }),
  });
}
