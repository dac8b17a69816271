// Anthropic's cache diagnostics, read from a response (pure). The request carries `diagnostics:
// {previous_message_id}` (null on the first turn, to opt in without a comparison); the response's
// message (a stream's `message_start` message) carries `diagnostics`:
// - null or absent: no divergence from the previous request (or the request did not ask);
// - `{cache_miss_reason: null}`: the comparison was still running when the response was serialized;
// - `{cache_miss_reason: {type, cache_missed_input_tokens?}}`: model_changed, system_changed,
//   tools_changed or messages_changed (with the estimated tokens after the divergence), or
//   previous_message_not_found / unavailable (no comparison; not evidence that the request changed).
// Sources: https://platform.claude.com/docs/en/build-with-claude/cache-diagnostics and the official
// SDK's `Diagnostics` / `DiagnosticsParam` / `CacheMissReason` types (@anthropic-ai/sdk 1.15).
import type { ReportedCacheDiagnostics } from "../protocol/cache-report.ts";

const DIVERGENCES = new Set(["model_changed", "system_changed", "tools_changed", "messages_changed"]);
const NO_COMPARISON = new Set(["previous_message_not_found", "unavailable"]);
export const ANTHROPIC_DIAGNOSTICS_SOURCE = "Anthropic message_start message.diagnostics";

function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** The diagnostics of one response (`message`: the message_start event's message), provider-neutral. */
export function readAnthropicDiagnostics(
  message: unknown,
  comparedWith: string | null,
): ReportedCacheDiagnostics {
  const fields = record(message);
  const id = typeof fields?.id === "string" ? fields.id : undefined;
  const base = {
    provider: "anthropic" as const,
    ...(id ? { responseId: id } : {}),
    comparedWith,
    source: ANTHROPIC_DIAGNOSTICS_SOURCE,
  };
  // The first request opts in with previous_message_id null: there is nothing to compare with.
  if (comparedWith === null) return { ...base, outcome: "inconclusive" };
  const diagnostics = record(fields?.diagnostics);
  if (!diagnostics) return { ...base, outcome: "same" };
  const reason = record(diagnostics.cache_miss_reason);
  if (!reason) return { ...base, outcome: "pending" };
  const type = typeof reason.type === "string" ? reason.type : "unknown";
  const missed = reason.cache_missed_input_tokens;
  const missedInputTokens =
    typeof missed === "number" && Number.isFinite(missed) && missed >= 0 ? missed : undefined;
  if (DIVERGENCES.has(type)) {
    return {
      ...base,
      outcome: "diverged",
      type,
      ...(missedInputTokens !== undefined ? { missedInputTokens } : {}),
    };
  }
  // previous_message_not_found, unavailable, or a type this version does not know: no verdict on the request.
  return {
    ...base,
    outcome: "inconclusive",
    type: NO_COMPARISON.has(type) ? type : `unknown type "${type}"`,
  };
}
