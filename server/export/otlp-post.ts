// Posting an OTLP/JSON trace to a collector over OTLP/HTTP (Phoenix, Langfuse, an OpenTelemetry
// Collector). The endpoint is read as OTEL_EXPORTER_OTLP_ENDPOINT is: a base URL gets `/v1/traces`
// appended (`https://cloud.langfuse.com/api/public/otel`, `http://localhost:6006`); a URL that already
// ends in `/v1/traces` is used as is. Headers come from OTEL_EXPORTER_OTLP_TRACES_HEADERS or
// OTEL_EXPORTER_OTLP_HEADERS (`key=value,key2=value2`, values URL-encoded), as every OTLP exporter reads them.
import { PlaygroundError, errorMessage } from "../errors/index.ts";
import type { OtlpTraceRequest } from "./otlp-json.ts";

export const OTLP_POST_TIMEOUT_MS = 30_000;

/** The URL the trace is posted to. */
export function tracesUrl(endpoint: string): URL {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new PlaygroundError("invalid_arguments", `--endpoint "${endpoint}" is not a URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new PlaygroundError(
      "invalid_arguments",
      `--endpoint must be http:// or https:// (got ${url.protocol})`,
    );
  if (!url.pathname.endsWith("/v1/traces")) url.pathname = `${url.pathname.replace(/\/+$/, "")}/v1/traces`;
  return url;
}

/** `key=value,key2=value2` (values URL-encoded), the OTLP exporters' header variable format. */
export function parseOtlpHeaders(text: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (text ?? "").split(",")) {
    const at = pair.indexOf("=");
    if (at <= 0) continue;
    const key = pair.slice(0, at).trim();
    let value = pair.slice(at + 1).trim();
    try {
      value = decodeURIComponent(value);
    } catch {
      // A value that is not URL-encoded is used as written.
    }
    if (key) headers[key] = value;
  }
  return headers;
}

export interface OtlpPostResult {
  url: string;
  status: number;
  bytes: number;
  /** The collector's partial-success note (spans it rejected and why), when it sent one. */
  partial?: string;
}

/** Posts the trace; a non-2xx answer is an error naming the status and the collector's words. */
export async function postOtlpTrace(
  endpoint: string,
  trace: OtlpTraceRequest,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<OtlpPostResult> {
  const url = tracesUrl(endpoint);
  const body = JSON.stringify(trace);
  const headers = {
    ...parseOtlpHeaders(env.OTEL_EXPORTER_OTLP_HEADERS),
    ...parseOtlpHeaders(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS),
    "content-type": "application/json",
  };
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers,
      body,
      signal: AbortSignal.timeout(OTLP_POST_TIMEOUT_MS),
    });
  } catch (error) {
    throw new PlaygroundError("io_error", `POST ${url.href} failed: ${errorMessage(error)}`);
  }
  const text = await response.text().catch(() => "");
  if (!response.ok)
    throw new PlaygroundError(
      "io_error",
      `POST ${url.href} answered ${response.status} ${response.statusText}${text ? `: ${text.slice(0, 500)}` : ""}`,
    );
  return {
    url: url.href,
    status: response.status,
    bytes: Buffer.byteLength(body),
    ...partialSuccess(text),
  };
}

/** ExportTraceServiceResponse.partialSuccess, when the collector rejected some spans. */
function partialSuccess(text: string): { partial?: string } {
  try {
    const parsed = JSON.parse(text) as {
      partialSuccess?: { rejectedSpans?: string | number; errorMessage?: string };
    };
    const partial = parsed.partialSuccess;
    if (!partial || (!Number(partial.rejectedSpans) && !partial.errorMessage)) return {};
    return {
      partial: `${partial.rejectedSpans ?? 0} spans rejected${partial.errorMessage ? `: ${partial.errorMessage}` : ""}`,
    };
  } catch {
    return {};
  }
}
