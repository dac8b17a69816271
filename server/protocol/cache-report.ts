// What the providers say about their prompt cache, what the cache model predicted they would say, and a
// session's cache statistics in the terms Claude Code's status line uses. Wire types: the Runner, the
// providers, the session log, `run --json`, the HTML export and the browser read exactly these shapes.
//
// Sources (read 2026-12-03):
// - Anthropic cache diagnostics, https://platform.claude.com/docs/en/build-with-claude/cache-diagnostics:
//   the request carries `diagnostics: {previous_message_id}` (null on the first turn); the response (for a
//   stream, the `message_start` event's message) carries `diagnostics.cache_miss_reason` with a `type` of
//   model_changed, system_changed, tools_changed, messages_changed, previous_message_not_found or
//   unavailable, and `cache_missed_input_tokens` on the four `*_changed` types. `diagnostics` null: no
//   divergence; `cache_miss_reason` null: the comparison was still running.
// - OpenAI prompt cache diagnostics (Responses API), https://developers.openai.com/api/docs/guides/prompt-caching/diagnostics:
//   `prompt_cache_diagnostics` of type cache_hit, cache_miss (with `reason`, `cache_missed_tokens`,
//   `comparison_reusable_tokens`), comparison_response_not_found or unavailable; `usage.prompt_tokens_details.cached_tokens`
//   (Chat Completions) is what was read.
// - Claude Code's status line `prompt_cache` object: hit_ratio, misses, last_miss_cause {causes,
//   tools_added, tools_removed, system_char_delta}, miss_causes, expected_rebuilds, miss_recache_tokens,
//   recache_tokens_if_cold, ttl, expires_at, warm.

/** Anthropic's `cache_miss_reason.type` values for a divergence the request itself caused. */
export type CacheDivergenceType = "model_changed" | "system_changed" | "tools_changed" | "messages_changed";

/** Claude Code's closed set of prompt-cache miss causes (its status line's `last_miss_cause.causes`). */
export type CacheMissCause =
  | "system_prompt_changed"
  | "tools_changed"
  | "model_changed"
  | "messages_rewritten"
  | "ttl_expired_5m"
  | "ttl_expired_1h"
  | "likely_server_side"
  | "unknown";

/** What a provider reported about its prompt cache for one response, in provider-neutral fields. */
export interface ReportedCacheDiagnostics {
  /** Which API said it. */
  provider: "anthropic" | "openai";
  /** This response's id (Anthropic message id, OpenAI response id): the next request's baseline. */
  responseId?: string;
  /** The response the request asked to be compared with; null: the first request, nothing to compare. */
  comparedWith: string | null;
  /**
   * diverged: the provider names where the request first differs from the one compared with;
   * same: it found no divergence; pending: its comparison was still running;
   * inconclusive: it could not compare (previous_message_not_found, unavailable, nothing to compare with).
   */
  outcome: "diverged" | "same" | "pending" | "inconclusive";
  /** The provider's own word: Anthropic `cache_miss_reason.type`, OpenAI `reason` (or the result's `type`). */
  type?: string;
  /** Input tokens after the divergence, the provider's estimate (not a billing number). */
  missedInputTokens?: number;
  /** Where the fields were read, e.g. "Anthropic message_start message.diagnostics". */
  source: string;
}

/**
 * What the provider's cache diagnostics should say for a request, predicted from its segments: the first
 * divergence from the request it is compared with (the session's last answered request).
 */
export interface PredictedCacheDiagnostics {
  /** The request compared with; null on the first request of the session. */
  comparedWith: number | null;
  /** Anthropic's vocabulary; null: no divergence (the request extends the one compared with). */
  type: CacheDivergenceType | null;
  /** Tokens of this request from the divergence on (o200k_base; 0 without a divergence). */
  missedInputTokens: number;
  /** The same divergence as a Claude Code cause (absent without one). */
  cause?: CacheMissCause;
  /** Tool names visible now and not in the request compared with, and the reverse. */
  toolsAdded: string[];
  toolsRemoved: string[];
  /** Characters of the system parts (stable + environment) now minus then. */
  systemCharDelta: number;
  /**
   * Set when the playground announced the change before this request (a loaded skill's SOP entering the
   * environment, a tool registered in an earlier request becoming visible): a rebuild it expects.
   */
  announced?: string;
  /** Seconds since the request compared with was made. */
  gapSeconds?: number;
}

/** A provider's report beside the prediction, for one request. */
export interface CacheCheck {
  /** agree / disagree on where the request diverged; no_verdict when the provider gave no conclusive comparison. */
  verdict: "agree" | "disagree" | "no_verdict";
  predicted: CacheDivergenceType | null;
  /** The provider's type (null: it found no divergence; absent: no conclusive report). */
  reported?: string | null;
  /** One sentence: what the provider said beside what was predicted. */
  text: string;
}

/** The cause of a miss, with the counts Claude Code gives beside it. */
export interface CacheMissCauseReport {
  causes: CacheMissCause[];
  tools_added: number;
  tools_removed: number;
  system_char_delta: number;
  /** Whether the cause is the provider's report or the prediction. */
  source: "provider" | "prediction";
  /** The request that missed. */
  request: number;
}

/**
 * A session's prompt-cache statistics (the `cache_stats` event after each run). The names are Claude
 * Code's status-line names; times are ISO 8601. A request's figures are the provider's report where there
 * is one, the cache model's prediction otherwise; `figures` and `source` say which.
 */
export interface CacheStats {
  requests: number;
  figures: { reported: number; predicted: number };
  source: "provider" | "prediction" | "mixed";
  /** cache_read / (cache_read + cache_write + uncached); null before any input. */
  hit_ratio: number | null;
  cache_read_tokens: number;
  cache_write_tokens: number;
  uncached_tokens: number;
  /** Requests that re-processed more than 5 % and at least 2,000 tokens of what they could have read. */
  misses: number;
  miss_causes: Partial<Record<CacheMissCause, number>>;
  last_miss_at: string | null;
  last_miss_cause: CacheMissCauseReport | null;
  /** Such re-processing the playground announced (an SOP loaded into the environment, a registered tool made visible). */
  expected_rebuilds: number;
  /** Cache writes of the requests counted as misses. */
  miss_recache_tokens: number;
  /** Tokens the next request writes again if the cache is cold by then (the last request's cached prefix). */
  recache_tokens_if_cold: number | null;
  /** The TTL the last request wrote with. */
  ttl: "5m" | "1h";
  /** When the last request's cached prefix goes cold (absent cache: null). */
  expires_at: string | null;
  /** Whether it is still inside its TTL when these figures were made (`at`). */
  warm: boolean;
  /** Requests whose reported divergence differs from the predicted one. */
  disagreements: number;
  /** When these figures were made. */
  at: string;
}
