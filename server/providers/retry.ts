// The bounded retry loop shared by the real providers. The SDKs' own retries are off (maxRetries: 0) so
// every retry is ours and shows up as a `retry` event in the UI.
import type { ProviderEvent } from "./types.ts";
import {
  classifyFailure,
  failureMessage,
  isRetryable,
  type ClassifiedFailure,
  type FailureContext,
} from "./failures.ts";

export interface RetryPolicy {
  /** Retries after the first attempt (default 3). */
  maxRetries: number;
  /** First backoff delay; doubles each retry (default 1000 ms; tests use a few ms). */
  baseDelayMs: number;
  /** Upper bound for one delay, Retry-After included (default 30 s). */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 3, baseDelayMs: 1000, maxDelayMs: 30_000 };

/** One attempt: yields non-terminal events, throws on failure. `markStreaming` is called once bytes flow. */
export type Attempt = (signal: AbortSignal, markStreaming: () => void) => AsyncIterable<ProviderEvent>;

export interface RetryingStreamOptions {
  attempt: Attempt;
  signal: AbortSignal;
  policy: RetryPolicy;
  context: FailureContext;
  isConnectionError: (error: unknown) => boolean;
}

/** Waits `ms`, or less if the signal aborts. Never rejects. */
export function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(finish, ms);
    function finish(): void {
      clearTimeout(timer);
      signal.removeEventListener("abort", finish);
      resolve();
    }
    signal.addEventListener("abort", finish, { once: true });
  });
}

export function backoffDelay(policy: RetryPolicy, retryNumber: number, failure: ClassifiedFailure): number {
  const exponential = policy.baseDelayMs * 2 ** (retryNumber - 1);
  return Math.min(policy.maxDelayMs, Math.max(exponential, failure.retryAfterMs ?? 0));
}

/**
 * Runs attempts until one completes, then yields `done`. A rate limit or overload before any content was
 * yielded is retried with exponential backoff; anything else, or running out of retries, yields exactly
 * one `error`. On abort the stream ends with `done` at once: the caller owns the signal and knows why.
 * Never throws.
 */
export async function* retryingStream(options: RetryingStreamOptions): AsyncGenerator<ProviderEvent> {
  const { signal, policy, context } = options;
  for (let retries = 0; ; retries++) {
    let phase: "connect" | "stream" = "connect";
    let yieldedContent = false;
    try {
      for await (const event of options.attempt(signal, () => (phase = "stream"))) {
        if (event.type === "text_delta" || event.type === "tool_call") yieldedContent = true;
        yield event;
      }
      yield { type: "done" };
      return;
    } catch (error) {
      if (signal.aborted) {
        yield { type: "done" };
        return;
      }
      const failure = classifyFailure(error, phase, options.isConnectionError);
      if (isRetryable(failure) && !yieldedContent && retries < policy.maxRetries) {
        const delayMs = backoffDelay(policy, retries + 1, failure);
        const status = failure.status !== undefined ? `${failure.status} ` : "";
        yield {
          type: "retry",
          attempt: retries + 1,
          delayMs,
          reason: context.secrets.redactSecrets(
            `${status}${failure.kind === "overloaded" ? "overloaded" : "rate limited"}: ${failure.detail}`,
          ),
        };
        await abortableDelay(delayMs, signal);
        if (signal.aborted) {
          yield { type: "done" };
          return;
        }
        continue;
      }
      yield { type: "error", message: failureMessage(failure, context, retries), status: failure.status };
      return;
    }
  }
}
