// The OpenAI-compatible provider: the official `openai` SDK, streaming Chat Completions. Works with any
// server that speaks the API by base URL (OpenAI, Ollama, vLLM, llama.cpp server, LM Studio). Tool-call
// arguments arrive as string fragments keyed by index and are emitted once the choice finishes; a stream
// that ends without a finish_reason was cut and is an error.
import { randomUUID } from "node:crypto";
import OpenAI, { APIConnectionError } from "openai";
import type { Usage } from "../protocol/model.ts";
import type { ModelRequest, Provider, ProviderEvent } from "./types.ts";
import { toOpenAiBody, type OpenAiRequestBody } from "./openai-mapping.ts";
import { readOpenAiDiagnostics } from "./openai-diagnostics.ts";
import { StreamProtocolError, type FailureContext } from "./failures.ts";
import { SecretRedactor } from "./redact.ts";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry.ts";
import { SDK_CLIENT_DEFAULTS, streamRequest } from "./stream-driver.ts";

export const OPENAI_DEFAULT_BASE_URL = "https://api.openai.com/v1";
export const OPENAI_DEFAULT_MODEL = "gpt-5.4-mini";
/** Local servers (Ollama, llama.cpp) ignore the key, but the SDK insists on one. */
export const OPENAI_PLACEHOLDER_KEY = "no-key-needed";

export interface OpenAiProviderOptions {
  /** Optional for local servers. */
  apiKey?: string;
  model?: string;
  /** Including `/v1`, e.g. http://127.0.0.1:11434/v1 for Ollama. */
  baseUrl?: string;
  maxTokens?: number;
  retry?: Partial<RetryPolicy>;
  /**
   * The composition root's provider keys: this provider's key joins them, and its payloads and error
   * messages are redacted of them. Absent: a redactor of its own (its key and the environment's).
   */
  secrets?: SecretRedactor;
}

interface ToolCallState {
  id: string;
  name: string;
  arguments: string;
}

/** The parsed arguments; `cutOff` when the output-token limit cut them (the call is answered, not run). */
function parseArguments(
  text: string,
  toolName: string,
  finishReason: string,
): { input: unknown; cutOff?: true } {
  if (text.trim() === "") return { input: {} };
  try {
    return { input: JSON.parse(text) };
  } catch (error) {
    if (finishReason === "length") return { input: {}, cutOff: true };
    throw new StreamProtocolError(
      "malformed",
      `the arguments of tool call "${toolName}" are not valid JSON after the last chunk (${(error as Error).message})`,
    );
  }
}

function toUsage(reported: OpenAI.CompletionUsage): Usage {
  const usage: Usage = { inputTokens: reported.prompt_tokens, outputTokens: reported.completion_tokens };
  const cached = reported.prompt_tokens_details?.cached_tokens;
  if (typeof cached === "number") usage.cacheReadInputTokens = cached;
  return usage;
}

export class OpenAiProvider implements Provider {
  readonly name = "openai";
  readonly model: string;
  readonly baseUrl: string;
  private readonly client: OpenAI;
  private readonly maxTokens?: number;
  private readonly retryPolicy: RetryPolicy;
  private readonly secrets: SecretRedactor;
  private readonly hasKey: boolean;

  constructor(options: OpenAiProviderOptions = {}) {
    this.model = options.model || OPENAI_DEFAULT_MODEL;
    this.baseUrl = (options.baseUrl || OPENAI_DEFAULT_BASE_URL).replace(/\/+$/, "");
    this.maxTokens = options.maxTokens;
    this.retryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.hasKey = Boolean(options.apiKey);
    this.secrets = options.secrets ?? new SecretRedactor();
    this.secrets.register(options.apiKey, { name: "the OpenAI API key", source: "the provider settings" });
    this.client = new OpenAI({
      apiKey: options.apiKey || OPENAI_PLACEHOLDER_KEY,
      baseURL: this.baseUrl,
      ...SDK_CLIENT_DEFAULTS,
    });
  }

  private failureContext(model: string): FailureContext {
    return {
      service: "OpenAI-compatible",
      baseUrl: this.baseUrl,
      model,
      secrets: this.secrets,
      keyVariable: this.hasKey
        ? "OPENAI_API_KEY (or openai.apiKey in ~/.PseudoClaude/providers.json)"
        : "OPENAI_API_KEY: none is set, and this server wants one",
      baseUrlSetting: "OPENAI_BASE_URL or --base-url",
      // The most common local-server mistake: http://127.0.0.1:11434 instead of …/v1.
      ...(/\/v\d+$/.test(this.baseUrl)
        ? {}
        : { notFoundHint: "compatible base URLs usually end in /v1, e.g. http://127.0.0.1:11434/v1" }),
    };
  }

  async *stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ProviderEvent> {
    const model = request.model || this.model;
    yield* streamRequest({
      apiName: "OpenAI",
      buildBody: (): OpenAiRequestBody => toOpenAiBody(request, model, this.maxTokens),
      signal,
      policy: this.retryPolicy,
      context: this.failureContext(model),
      isConnectionError: (error) => error instanceof APIConnectionError,
      attempt: (body, attemptSignal, markStreaming) => this.attempt(body, attemptSignal, markStreaming),
    });
  }

  private async *attempt(
    body: OpenAiRequestBody,
    signal: AbortSignal,
    markStreaming: () => void,
  ): AsyncGenerator<ProviderEvent> {
    const chunks = await this.client.chat.completions.create(
      body as unknown as OpenAI.ChatCompletionCreateParamsStreaming,
      { signal },
    );
    markStreaming();
    const calls = new Map<number, ToolCallState>();
    let finishReason: string | null = null;
    let usage: Usage | undefined;
    let diagnostics: Usage["cacheDiagnostics"];
    let chunkCount = 0;
    for await (const chunk of chunks) {
      chunkCount++;
      if (chunk.usage) usage = toUsage(chunk.usage);
      // Not part of Chat Completions; read when a compatible server adds it (openai-diagnostics.ts).
      const reported = (chunk as { prompt_cache_diagnostics?: unknown }).prompt_cache_diagnostics;
      diagnostics = readOpenAiDiagnostics(reported, chunk.id, null) ?? diagnostics;
      // Only the first choice is ours (we never ask for n > 1).
      const choice = chunk.choices?.find((candidate) => candidate.index === 0) ?? chunk.choices?.[0];
      if (!choice) continue;
      const delta = choice.delta ?? {};
      if (typeof delta.content === "string" && delta.content !== "")
        yield { type: "text_delta", text: delta.content };
      for (const fragment of delta.tool_calls ?? []) {
        const index = typeof fragment.index === "number" ? fragment.index : calls.size;
        const state = calls.get(index) ?? { id: "", name: "", arguments: "" };
        calls.set(index, state);
        if (fragment.id) state.id = fragment.id;
        // The name comes whole in the first fragment; a repeat of it must not be appended.
        if (fragment.function?.name && state.name !== fragment.function.name)
          state.name += fragment.function.name;
        if (fragment.function?.arguments) state.arguments += fragment.function.arguments;
      }
      if (choice.finish_reason) finishReason = choice.finish_reason;
    }
    if (chunkCount === 0)
      throw new StreamProtocolError("malformed", "the response held no chat.completion.chunk data");
    if (!finishReason)
      throw new StreamProtocolError("stream_cut", "the stream ended without a finish_reason");
    for (const index of [...calls.keys()].sort((a, b) => a - b)) {
      const state = calls.get(index)!;
      if (!state.name)
        throw new StreamProtocolError("malformed", `tool call #${index} arrived without a function name`);
      const { input, cutOff } = parseArguments(state.arguments, state.name, finishReason);
      yield {
        type: "tool_call",
        call: { id: state.id || `call_${randomUUID()}`, name: state.name, input },
        ...(cutOff ? { cutOff } : {}),
      };
    }
    if (usage)
      yield { type: "usage", usage: diagnostics ? { ...usage, cacheDiagnostics: diagnostics } : usage };
  }
}
