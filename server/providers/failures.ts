// Turns whatever an SDK throws into one sentence a person can act on: what the server answered (or why
// there was no answer) and what to do about it. Both official SDKs throw APIError subclasses with
// `status`, `headers` and the parsed error body; connection problems carry the socket error as `cause`.
import { errorMessage } from "../errors/index.ts";
import type { SecretRedactor } from "./redact.ts";

export type FailureKind =
  | "auth"
  | "forbidden"
  | "not_found"
  | "rate_limited"
  | "overloaded"
  | "server"
  | "bad_request"
  | "connection"
  | "stream_cut"
  | "malformed"
  | "truncated"
  | "other";

export interface ClassifiedFailure {
  kind: FailureKind;
  status?: number;
  /** What the server said (its error type and message), or the low-level reason. */
  detail: string;
  /** From a Retry-After header, when the server sent one. */
  retryAfterMs?: number;
}

/** Where the request went, to name it in messages. */
export interface FailureContext {
  /** The provider keys its messages are redacted of (the provider's). */
  secrets: SecretRedactor;
  /** "Anthropic" or "OpenAI-compatible". */
  service: string;
  baseUrl: string;
  model: string;
  /** The variable a user sets to fix a bad key, e.g. "ANTHROPIC_API_KEY". */
  keyVariable: string;
  /** The variable or flag that points at the server, e.g. "ANTHROPIC_BASE_URL or --base-url". */
  baseUrlSetting: string;
  /** Added to a 404 message, e.g. that compatible base URLs end in /v1. */
  notFoundHint?: string;
}

/** Thrown by a provider's own stream reader when the stream is incomplete or not in the API's format. */
export class StreamProtocolError extends Error {
  readonly kind: "stream_cut" | "malformed" | "truncated";
  constructor(kind: "stream_cut" | "malformed" | "truncated", message: string) {
    super(message);
    this.name = "StreamProtocolError";
    this.kind = kind;
  }
}

export function isRetryable(failure: ClassifiedFailure): boolean {
  return failure.kind === "rate_limited" || failure.kind === "overloaded";
}

interface SdkErrorShape {
  status?: unknown;
  headers?: unknown;
  error?: unknown;
  message?: unknown;
  cause?: unknown;
  name?: unknown;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" ? (value as Record<string, unknown>) : undefined;
}

/** The error body's `{type, message}`: Anthropic nests it as `{type:"error", error:{…}}`, OpenAI not. */
function serverErrorBody(error: SdkErrorShape): { type?: string; message?: string } {
  const body = asRecord(error.error);
  const inner = asRecord(body?.error) ?? body;
  const type =
    typeof inner?.type === "string" ? inner.type : typeof inner?.code === "string" ? inner.code : undefined;
  const message = typeof inner?.message === "string" ? inner.message : undefined;
  return { type, message };
}

function headerValue(headers: unknown, name: string): string | undefined {
  if (headers && typeof (headers as Headers).get === "function")
    return (headers as Headers).get(name) ?? undefined;
  return undefined;
}

function retryAfterMs(headers: unknown): number | undefined {
  const milliseconds = Number(headerValue(headers, "retry-after-ms"));
  if (Number.isFinite(milliseconds) && milliseconds > 0) return milliseconds;
  const seconds = Number(headerValue(headers, "retry-after"));
  if (Number.isFinite(seconds) && seconds > 0) return seconds * 1000;
  return undefined;
}

/** The first `code` (ECONNREFUSED, ENOTFOUND, UND_ERR_SOCKET…) down the cause chain. */
function socketCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current; depth++) {
    const record = asRecord(current);
    if (typeof record?.code === "string" && /^(E[A-Z]+|UND_ERR_[A-Z_]+)$/.test(record.code))
      return record.code;
    current = record?.cause;
  }
  return undefined;
}

function describeServerAnswer(error: SdkErrorShape): string {
  const { type, message } = serverErrorBody(error);
  if (type && message) return `${type}: ${message}`;
  return message ?? type ?? errorMessage(error);
}

/**
 * Classifies an SDK error. `phase` is where it happened: before any response byte ("connect") or while
 * reading the stream ("stream") — a socket error while streaming is a cut stream, not a refused connection.
 */
export function classifyFailure(
  error: unknown,
  phase: "connect" | "stream",
  isConnectionError: (error: unknown) => boolean,
): ClassifiedFailure {
  if (error instanceof StreamProtocolError) return { kind: error.kind, detail: error.message };
  if (error instanceof SyntaxError)
    return { kind: "malformed", detail: `could not parse an event as JSON (${error.message})` };
  const sdkError = (asRecord(error) ?? {}) as SdkErrorShape;
  const status = typeof sdkError.status === "number" ? sdkError.status : undefined;
  if (status !== undefined) {
    const detail = describeServerAnswer(sdkError);
    const retryAfter = retryAfterMs(sdkError.headers);
    if (status === 401) return { kind: "auth", status, detail };
    if (status === 403) return { kind: "forbidden", status, detail };
    if (status === 404) return { kind: "not_found", status, detail };
    if (status === 429) return { kind: "rate_limited", status, detail, retryAfterMs: retryAfter };
    if (status === 529) return { kind: "overloaded", status, detail, retryAfterMs: retryAfter };
    if (status >= 500) return { kind: "server", status, detail };
    return { kind: "bad_request", status, detail };
  }
  if (isConnectionError(error)) {
    const code = socketCode(error);
    if (phase === "stream") return { kind: "stream_cut", detail: code ?? errorMessage(error) };
    return { kind: "connection", detail: code ?? errorMessage(asRecord(error)?.cause ?? error) };
  }
  // An error event inside the SSE stream (no HTTP status): the body names its type.
  const { type } = serverErrorBody(sdkError);
  if (type === "overloaded_error") return { kind: "overloaded", detail: describeServerAnswer(sdkError) };
  if (type === "rate_limit_error") return { kind: "rate_limited", detail: describeServerAnswer(sdkError) };
  if (type) return { kind: "server", detail: `error event in the stream: ${describeServerAnswer(sdkError)}` };
  if (phase === "stream") return { kind: "stream_cut", detail: socketCode(error) ?? errorMessage(error) };
  return { kind: "other", detail: errorMessage(error) };
}

function answered(failure: ClassifiedFailure): string {
  return failure.status !== undefined
    ? `the server answered ${failure.status} (${failure.detail})`
    : `the server sent ${failure.detail}`;
}

/** One message for the terminal `error` event: what happened, and what to do. Keys redacted. */
export function failureMessage(failure: ClassifiedFailure, context: FailureContext, retries: number): string {
  const where = `${context.service} at ${context.baseUrl}`;
  const afterRetries = retries > 0 ? ` after ${retries} ${retries === 1 ? "retry" : "retries"}` : "";
  let message: string;
  switch (failure.kind) {
    case "auth":
      message = `${where}: ${answered(failure)}: the API key was refused; check ${context.keyVariable}`;
      break;
    case "forbidden":
      message = `${where}: ${answered(failure)}: the key is not allowed to do this; check ${context.keyVariable} and that your account can use model "${context.model}"`;
      break;
    case "not_found":
      message = `${where}: ${answered(failure)}: model "${context.model}" is unknown there (or the URL is wrong); pick another model with --model, or check ${context.baseUrlSetting}${context.notFoundHint ? ` (${context.notFoundHint})` : ""}`;
      break;
    case "rate_limited":
      message = `${where}: rate limited${afterRetries} (${failure.status ?? "error event"}: ${failure.detail}); wait a minute and send the message again`;
      break;
    case "overloaded":
      message = `${where}: overloaded${afterRetries} (${failure.status ?? "error event"}: ${failure.detail}); the service is busy, try again in a few minutes`;
      break;
    case "server":
      message = `${where}: ${answered(failure)}: a failure on the server's side; send the message again, and if it persists check the service status or the local server's log`;
      break;
    case "bad_request":
      message = `${where}: ${answered(failure)}: the request was refused; the exact payload is in the Raw pane`;
      break;
    case "connection":
      message = `could not connect to ${context.baseUrl} (${failure.detail}): is the ${context.service} server running and reachable? Check ${context.baseUrlSetting}`;
      break;
    case "stream_cut":
      message = `${where}: the stream was cut mid-message (${failure.detail}); the answer is incomplete, send the message again`;
      break;
    case "malformed":
      message = `${where}: the stream was not in the ${context.service} streaming format (${failure.detail}); check that ${context.baseUrlSetting} points at the right server`;
      break;
    case "truncated":
      message = `${where}: ${failure.detail}; the call was dropped: ask for a smaller step, or raise the output token limit`;
      break;
    default:
      message = `${where}: the request failed (${failure.detail})`;
  }
  return context.secrets.redactSecrets(message);
}
