// The OTLP/JSON encoding of a trace (opentelemetry-proto's JSON mapping, with OTLP's own rules: trace and
// span ids as lowercase hex, not base64; enums as integers; 64-bit integers as decimal strings; field names
// in lowerCamelCase). Types mirror ExportTraceServiceRequest as far as this exporter fills it.
import { createHash } from "node:crypto";

export type OtlpAnyValue =
  | { stringValue: string }
  | { boolValue: boolean }
  | { intValue: string }
  | { doubleValue: number }
  | { arrayValue: { values: OtlpAnyValue[] } };

export interface OtlpKeyValue {
  key: string;
  value: OtlpAnyValue;
}

export interface OtlpEvent {
  timeUnixNano: string;
  name: string;
  attributes: OtlpKeyValue[];
}

/** opentelemetry.proto.trace.v1.Span.SpanKind */
export const SPAN_KIND = { internal: 1, server: 2, client: 3 } as const;
/** opentelemetry.proto.trace.v1.Status.StatusCode */
export const STATUS_CODE = { unset: 0, ok: 1, error: 2 } as const;

export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: OtlpKeyValue[];
  events: OtlpEvent[];
  status: { code: number; message?: string };
}

export interface OtlpTraceRequest {
  resourceSpans: {
    resource: { attributes: OtlpKeyValue[] };
    scopeSpans: { scope: { name: string; version: string }; spans: OtlpSpan[] }[];
  }[];
}

/** An attribute value as OTLP/JSON writes it; `undefined` and non-finite numbers give no attribute. */
export type AttributeInput = string | number | boolean | string[] | undefined | null;

function anyValue(value: string | number | boolean | string[]): OtlpAnyValue {
  if (Array.isArray(value)) return { arrayValue: { values: value.map((item) => ({ stringValue: item })) } };
  if (typeof value === "string") return { stringValue: value };
  if (typeof value === "boolean") return { boolValue: value };
  return Number.isInteger(value) ? { intValue: String(value) } : { doubleValue: value };
}

/** Key-value pairs from a plain object, skipping absent values (OTLP has no null). */
export function attributes(values: Record<string, AttributeInput>): OtlpKeyValue[] {
  const out: OtlpKeyValue[] = [];
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined || value === null) continue;
    if (typeof value === "number" && !Number.isFinite(value)) continue;
    out.push({ key, value: anyValue(value) });
  }
  return out;
}

/**
 * A stable id from what it names: the same session exports to the same ids every time, so posting a
 * trace twice updates it in a collector rather than duplicating it. 16 bytes for a trace, 8 for a span.
 */
export function stableId(bytes: 8 | 16, ...parts: string[]): string {
  const hex = createHash("sha256")
    .update(parts.join("\u0000"))
    .digest("hex")
    .slice(0, bytes * 2);
  // An all-zero id is invalid in OTLP; a sha256 prefix of zeros is astronomically unlikely, but never sent.
  return /^0+$/.test(hex) ? `${hex.slice(0, -1)}1` : hex;
}

/** An ISO timestamp as nanoseconds since the epoch, in a decimal string (OTLP/JSON's fixed64). */
export function unixNano(iso: string, offsetMs = 0): string {
  const ms = Date.parse(iso);
  return (BigInt(Number.isNaN(ms) ? 0 : ms + Math.round(offsetMs)) * 1_000_000n).toString();
}
