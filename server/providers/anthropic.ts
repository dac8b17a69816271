// The Anthropic provider: the official SDK, streaming Messages API. Text deltas are passed on as they
// arrive; a tool_use block's input is assembled from its input_json_delta chunks and emitted as one
// tool_call when the block stops. A stream that ends without message_stop was cut and is an error.
import Anthropic, { APIConnectionError } from "@anthropic-ai/sdk";
import type { Usage } from "../protocol/model.ts";
import type { ModelRequest, Provider, ProviderEvent } from "./types.ts";
import { readAnthropicDiagnostics } from "./anthropic-diagnostics.ts";
import { hasToolAdditions, toAnthropicBody, type AnthropicRequestBody } from "./anthropic-mapping.ts";
import { StreamProtocolError, type FailureContext } from "./failures.ts";
import { SecretRedactor } from "./redact.ts";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry.ts";
import { SDK_CLIENT_DEFAULTS, streamRequest } from "./stream-driver.ts";

export const ANTHROPIC_DEFAULT_BASE_URL = "https://api.anthropic.com";
export const ANTHROPIC_DEFAULT_MODEL = "claude-haiku-4-5";

export interface AnthropicProviderOptions {
  apiKey: string;
  model?: string;
  /** Without `/v1` (the SDK adds it). */
  baseUrl?: string;
  maxTokens?: number;
  retry?: Partial<RetryPolicy>;
  /**
   * The composition root's provider keys: this provider's key joins them, and its payloads and error
   * messages are redacted of them. Absent: a redactor of its own (its key and the environment's).
   */
  secrets?: SecretRedactor;
}

type ContentBlockState =
  { kind: "text" } | { kind: "tool_use"; id: string; name: string; json: string } | { kind: "other" };

/** The parsed input, or the parse error (judged once the stop reason is known). */
function parseToolInput(json: string): { input: unknown } | { problem: string } {
  if (json.trim() === "") return { input: {} };
  try {
    return { input: JSON.parse(json) };
  } catch (error) {
    return { problem: (error as Error).message };
  }
}

/** Copies the non-null usage numbers the API reported (message_start, then cumulative message_delta). */
function mergeUsage(usage: Usage, reported: Record<string, unknown> | null | undefined): void {
  if (!reported) return;
  const number = (key: string) => (typeof reported[key] === "number" ? (reported[key] as number) : undefined);
  usage.inputTokens = number("input_tokens") ?? usage.inputTokens;
  usage.outputTokens = number("output_tokens") ?? usage.outputTokens;
  usage.cacheCreationInputTokens = number("cache_creation_input_tokens") ?? usage.cacheCreationInputTokens;
  usage.cacheReadInputTokens = number("cache_read_input_tokens") ?? usage.cacheReadInputTokens;
  // usage.cache_creation splits the writes by TTL; any 1-hour write makes the entry a 1-hour one.
  const creation = reported.cache_creation as Record<string, unknown> | null | undefined;
  const oneHour = creation?.ephemeral_1h_input_tokens;
  if (typeof oneHour === "number") usage.cacheWriteTtl = oneHour > 0 ? "1h" : "5m";
}

function malformedToolCallError(call: { name: string; problem: string }): StreamProtocolError {
  return new StreamProtocolError(
    "malformed",
    `the input of tool call "${call.name}" is not valid JSON after its last chunk (${call.problem})`,
  );
}

export class AnthropicProvider implements Provider {
  readonly name = "anthropic";
  readonly model: string;
  readonly baseUrl: string;
  private readonly client: Anthropic;
  private readonly maxTokens: number;
  private readonly retryPolicy: RetryPolicy;
  private readonly secrets: SecretRedactor;

  constructor(options: AnthropicProviderOptions) {
    this.model = options.model || ANTHROPIC_DEFAULT_MODEL;
    this.baseUrl = (options.baseUrl || ANTHROPIC_DEFAULT_BASE_URL).replace(/\/+$/, "");
    this.maxTokens = options.maxTokens ?? 4096;
    this.retryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.secrets = options.secrets ?? new SecretRedactor();
    this.secrets.register(options.apiKey, { name: "the Anthropic API key", source: "the provider settings" });
    // Key and URL are passed explicitly so the SDK's own credential chain (profiles, env) never decides.
    this.client = new Anthropic({
      apiKey: options.apiKey,
      baseURL: this.baseUrl,
      ...SDK_CLIENT_DEFAULTS,
    });
  }

  private failureContext(model: string): FailureContext {
    return {
      service: "Anthropic",
      baseUrl: this.baseUrl,
      model,
      secrets: this.secrets,
      keyVariable: "ANTHROPIC_API_KEY (or anthropic.apiKey in ~/.PseudoClaude/providers.json)",
      baseUrlSetting: "ANTHROPIC_BASE_URL or --base-url",
    };
  }

  /**
   * Streams one request. With `request.cacheDiagnostics` it asks for Anthropic's cache diagnostics; a
   * server that answers that request 400 (a proxy or an older API that does not know the field) gets it
   * once more without the field, and when that succeeds a `notice` says so (the Runner's ledger and the
   * session stop asking). If the second answer fails too, the field was not the problem: that failure is
   * the answer.
   */
  async *stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ProviderEvent> {
    if (request.cacheDiagnostics === undefined) {
      yield* this.send(request, signal, false);
      return;
    }
    let refusal: Extract<ProviderEvent, { type: "error" }> | undefined;
    for await (const event of this.send(request, signal, true)) {
      if (event.type === "error" && event.status === 400) {
        refusal = event;
        break;
      }
      yield event;
    }
    if (!refusal) return;
    for await (const event of this.send(request, signal, false)) {
      if (event.type === "done" && !signal.aborted) {
        yield {
          type: "notice",
          code: "cache_diagnostics_rejected",
          message: `the server at ${this.baseUrl} refused the cache diagnostics parameter (${refusal.message}); the request was sent again without it, and this session no longer asks for diagnostics (turn them on again in the header)`,
        };
      }
      yield event;
    }
  }

  private send(
    request: ModelRequest,
    signal: AbortSignal,
    diagnostics: boolean,
  ): AsyncIterable<ProviderEvent> {
    const model = request.model || this.model;
    const comparedWith = request.cacheDiagnostics?.previousResponseId ?? null;
    return streamRequest({
      apiName: "Anthropic",
      buildBody: () => toAnthropicBody(request, model, this.maxTokens, { diagnostics }),
      signal,
      policy: this.retryPolicy,
      context: this.failureContext(model),
      isConnectionError: (error) => error instanceof APIConnectionError,
      attempt: (body, attemptSignal, markStreaming) =>
        this.attempt(body, attemptSignal, markStreaming, {
          ...(diagnostics ? { comparedWith } : {}),
          ...(hasToolAdditions(body) && request.midConversation?.toolChangesBeta
            ? { beta: request.midConversation.toolChangesBeta }
            : {}),
        }),
    });
  }

  private async *attempt(
    body: AnthropicRequestBody,
    signal: AbortSignal,
    markStreaming: () => void,
    options: { comparedWith?: string | null; beta?: string },
  ): AsyncGenerator<ProviderEvent> {
    const events = await this.client.messages.create(body as Anthropic.MessageCreateParamsStreaming, {
      signal,
      ...(options.beta ? { headers: { "anthropic-beta": options.beta } } : {}),
    });
    markStreaming();
    const blocks = new Map<number, ContentBlockState>();
    const usage: Usage = {};
    let sawStart = false;
    let sawStop = false;
    let brokenToolCall: { id: string; name: string; problem: string } | undefined;
    for await (const event of events) {
      switch (event.type) {
        case "message_start":
          sawStart = true;
          mergeUsage(usage, event.message.usage as unknown as Record<string, unknown>);
          // The stream's diagnostics ride on message_start's message (none on message_delta).
          if (options.comparedWith !== undefined)
            usage.cacheDiagnostics = readAnthropicDiagnostics(event.message, options.comparedWith);
          break;
        case "content_block_start": {
          const block = event.content_block;
          if (block.type === "text") {
            blocks.set(event.index, { kind: "text" });
            if (block.text) yield { type: "text_delta", text: block.text };
          } else if (block.type === "tool_use") {
            blocks.set(event.index, { kind: "tool_use", id: block.id, name: block.name, json: "" });
          } else {
            blocks.set(event.index, { kind: "other" });
          }
          break;
        }
        case "content_block_delta": {
          const block = blocks.get(event.index);
          if (event.delta.type === "text_delta") {
            yield { type: "text_delta", text: event.delta.text };
          } else if (event.delta.type === "input_json_delta") {
            if (!block) {
              throw new StreamProtocolError(
                "malformed",
                `input_json_delta for block ${event.index}, never started`,
              );
            }
            // Blocks we do not map (server tools, thinking…) may stream input too; only tool_use is ours.
            if (block.kind === "tool_use") block.json += event.delta.partial_json;
          }
          break;
        }
        case "content_block_stop": {
          const block = blocks.get(event.index);
          if (block?.kind !== "tool_use" || brokenToolCall) break;
          const parsed = parseToolInput(block.json);
          // Invalid JSON is judged at message_delta: hitting max_tokens mid-call is not a format error.
          if ("problem" in parsed)
            brokenToolCall = { id: block.id, name: block.name, problem: parsed.problem };
          else yield { type: "tool_call", call: { id: block.id, name: block.name, input: parsed.input } };
          break;
        }
        case "message_delta":
          mergeUsage(usage, event.usage as unknown as Record<string, unknown>);
          if (brokenToolCall) {
            // max_tokens cut the call's input: the model gets an error result and can retry smaller.
            if (event.delta.stop_reason !== "max_tokens") throw malformedToolCallError(brokenToolCall);
            yield {
              type: "tool_call",
              call: { id: brokenToolCall.id, name: brokenToolCall.name, input: {} },
              cutOff: true,
            };
            brokenToolCall = undefined;
          }
          break;
        case "message_stop":
          sawStop = true;
          break;
      }
    }
    if (!sawStart) throw new StreamProtocolError("malformed", "the response held no message_start event");
    if (brokenToolCall) throw malformedToolCallError(brokenToolCall);
    if (!sawStop) throw new StreamProtocolError("stream_cut", "the stream ended before message_stop");
    if (Object.keys(usage).length > 0) yield { type: "usage", usage };
  }
}
