// OpenAI's prompt-cache diagnostics, read into the same provider-neutral fields as Anthropic's (pure).
// The Responses API (GPT-5.6 and later) answers `prompt_cache_options.comparison_response_id` with
// `prompt_cache_diagnostics`: {type: "cache_hit"} (no miss detected for the comparison), {type:
// "cache_miss", reason, cache_missed_tokens, comparison_reusable_tokens?}, {type:
// "comparison_response_not_found"} or {type: "unavailable"} (not ready; no verdict). Reasons: model_changed,
// prompt_cache_key_changed, tools_changed, text_format_changed, reasoning_effort_changed,
// verbosity_changed, context_compacted, input_changed, service_tier_changed.
// Source: https://developers.openai.com/api/docs/guides/prompt-caching/diagnostics (read 2026-12-03).
// The playground speaks Chat Completions, which reports `prompt_tokens_details.cached_tokens` only; a
// compatible server that adds this object to a chunk is read the same way.
import type { ReportedCacheDiagnostics } from "../protocol/cache-report.ts";

export const OPENAI_DIAGNOSTICS_SOURCE = "OpenAI prompt_cache_diagnostics";

export function readOpenAiDiagnostics(
  value: unknown,
  responseId: string | undefined,
  comparedWith: string | null,
): ReportedCacheDiagnostics | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const fields = value as Record<string, unknown>;
  const base = {
    provider: "openai" as const,
    ...(responseId ? { responseId } : {}),
    comparedWith,
    source: OPENAI_DIAGNOSTICS_SOURCE,
  };
  const type = typeof fields.type === "string" ? fields.type : "unknown";
  if (type === "cache_hit") return { ...base, outcome: "same", type };
  if (type === "cache_miss") {
    const missed = fields.cache_missed_tokens;
    return {
      ...base,
      outcome: "diverged",
      type: typeof fields.reason === "string" ? fields.reason : "unknown",
      ...(typeof missed === "number" && missed >= 0 ? { missedInputTokens: missed } : {}),
    };
  }
  return { ...base, outcome: "inconclusive", type };
}
