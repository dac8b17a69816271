// What the real providers share around their wire-specific `attempt`: building the request body (a
// mapping failure is data, one `error` event), showing it redacted as `payload`, then the retry loop.
import type { ProviderEvent } from "./types.ts";
import { retryingStream, type RetryingStreamOptions } from "./retry.ts";

/** SDK client settings both providers use: the SDK never retries on its own, so every retry is ours. */
export const SDK_CLIENT_DEFAULTS = { maxRetries: 0, timeout: 10 * 60 * 1000, logLevel: "off" } as const;

export interface ProviderStreamOptions<Body> extends Omit<RetryingStreamOptions, "attempt"> {
  /** Names the API when the request cannot be built, e.g. "Anthropic". */
  apiName: string;
  buildBody: () => Body;
  attempt: (body: Body, signal: AbortSignal, markStreaming: () => void) => AsyncIterable<ProviderEvent>;
}

/** Builds the body, yields it as `payload`, then streams it with retries. Never throws. */
export async function* streamRequest<Body>(
  options: ProviderStreamOptions<Body>,
): AsyncGenerator<ProviderEvent> {
  let body: Body;
  try {
    body = options.buildBody();
  } catch (error) {
    yield {
      type: "error",
      message: `could not build the ${options.apiName} request: ${(error as Error).message}`,
    };
    return;
  }
  yield { type: "payload", payload: options.context.secrets.redactSecrets(body) };
  yield* retryingStream({
    signal: options.signal,
    policy: options.policy,
    context: options.context,
    isConnectionError: options.isConnectionError,
    attempt: (signal, markStreaming) => options.attempt(body, signal, markStreaming),
  });
}
