// One model response, read from the provider's stream: text deltas and usage forwarded as they come, tool
// calls collected (those the output-token limit cut marked, never run), and the three ways a stream ends
// told apart — done, the provider's failure (an error event, a throw, a stream that just stops) and the
// user's stop. The loop (runner.ts) decides what each outcome means for the run.
import { errorMessage } from "../errors/index.ts";
import type { ToolCall } from "../protocol/model.ts";
import type { RunnerEvent } from "../protocol/runner-events.ts";
import type { ModelRequest, ProviderEvent } from "../providers/types.ts";
import { ABORTED, unlessAborted } from "./abortable.ts";
import type { RunnerDependencies } from "./types.ts";

export interface ModelResponse {
  text: string;
  calls: ToolCall[];
  /** Ids of calls the output-token limit cut (answered with an error result, never run). */
  cutOff: Set<string>;
  /** Set when the provider ended with a terminal error event (or broke its contract). */
  error?: string;
  canceled: boolean;
}

/** The event sink (onEvent) threw: not the provider's failure, so it is not reported as one. */
export class EventSinkError extends Error {
  constructor(readonly sinkError: unknown) {
    super(`the runner's event sink failed: ${errorMessage(sinkError)}`);
    this.name = "EventSinkError";
  }
}

/**
 * Streams one response, forwarding deltas. A throwing provider is a provider_error; a throwing event
 * sink is not the provider's failure: the stream is closed and the sink's error is thrown as such.
 */
export async function streamModelResponse(
  request: ModelRequest,
  signal: AbortSignal,
  at: { runId: string; requestIndex: number },
  deps: Pick<RunnerDependencies, "provider" | "hooks">,
  emit: (event: RunnerEvent) => void,
): Promise<ModelResponse> {
  const { runId, requestIndex } = at;
  let text = "";
  const calls: ToolCall[] = [];
  const cutOff = new Set<string>();
  const forward = (event: RunnerEvent): void => {
    try {
      emit(event);
    } catch (error) {
      throw new EventSinkError(error);
    }
  };
  let iterator: AsyncIterator<ProviderEvent> | undefined;
  try {
    iterator = deps.provider.stream(request, signal)[Symbol.asyncIterator]();
    for (;;) {
      const next = await unlessAborted(iterator.next(), signal);
      if (next === ABORTED) return { text, calls, cutOff, canceled: true };
      if (next.done) {
        return {
          text,
          calls,
          cutOff,
          canceled: false,
          error: "the provider stream ended without a done or error event",
        };
      }
      const event = next.value;
      switch (event.type) {
        case "text_delta":
          text += event.text;
          forward({ type: "text_delta", runId, requestIndex, text: event.text });
          break;
        case "tool_call": {
          const id = event.call.id || `call_${requestIndex}_${calls.length + 1}`;
          calls.push({ ...event.call, id });
          if (event.cutOff) cutOff.add(id);
          break;
        }
        case "usage": {
          forward({
            type: "usage",
            runId,
            requestIndex,
            usage: event.usage,
            ...deps.hooks?.afterUsage?.(requestIndex, event.usage),
          });
          break;
        }
        case "notice":
          // The server refused the diagnostics parameter: this ledger (session, CLI command) stops asking.
          if (event.code === "cache_diagnostics_rejected") deps.hooks?.diagnosticsRefused?.();
          forward({
            type: "provider_notice",
            runId,
            requestIndex,
            code: event.code,
            message: event.message,
          });
          break;
        case "payload":
          forward({
            type: "provider_payload",
            runId,
            requestIndex,
            payload: event.payload,
            ...(event.routing ? { routing: event.routing } : {}),
          });
          break;
        case "retry":
          forward({
            type: "provider_retry",
            runId,
            requestIndex,
            attempt: event.attempt,
            delayMs: event.delayMs,
            reason: event.reason,
          });
          break;
        case "done":
          return { text, calls, cutOff, canceled: signal.aborted };
        case "error":
          if (signal.aborted) return { text, calls, cutOff, canceled: true };
          return { text, calls, cutOff, canceled: false, error: event.message };
      }
    }
  } catch (error) {
    if (error instanceof EventSinkError) {
      // Close the provider's stream (it may hold a connection); its own failure to close adds nothing.
      await Promise.resolve(iterator?.return?.()).catch((closeError: unknown) => {
        error.message += ` (closing the provider stream also failed: ${errorMessage(closeError)})`;
      });
      throw error;
    }
    if (signal.aborted) return { text, calls, cutOff, canceled: true };
    return {
      text,
      calls,
      cutOff,
      canceled: false,
      error: `the provider failed: ${errorMessage(error)}`,
    };
  }
}
