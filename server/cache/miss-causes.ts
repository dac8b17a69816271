// One vocabulary for why a prompt cache missed: the cache model's divergences, Anthropic's
// `cache_miss_reason.type`, OpenAI's `prompt_cache_diagnostics.reason`, all mapped onto Claude Code's causes
// (server/protocol/cache-report.ts has the sources), and the check of a provider's report against the
// prediction. Pure.
import type {
  CacheCheck,
  CacheDivergenceType,
  CacheMissCause,
  ReportedCacheDiagnostics,
} from "../protocol/cache-report.ts";

/** A divergence in Anthropic's words, as Claude Code's cause. */
export function causeOfDivergence(type: CacheDivergenceType): CacheMissCause {
  switch (type) {
    case "model_changed":
      return "model_changed";
    case "system_changed":
      return "system_prompt_changed";
    case "tools_changed":
      return "tools_changed";
    case "messages_changed":
      return "messages_rewritten";
  }
}

/**
 * The divergences a reported type can stand for, in Anthropic's words. Anthropic's own types stand for
 * themselves; OpenAI's `input_changed` (its instructions and system messages are part of the input) and
 * `context_compacted` stand for a system or a messages change; the reasons a prompt cannot show
 * (prompt_cache_key_changed, service_tier_changed, text_format_changed, reasoning_effort_changed,
 * verbosity_changed) for none.
 */
export function divergencesOf(type: string): CacheDivergenceType[] {
  switch (type) {
    case "model_changed":
    case "system_changed":
    case "tools_changed":
    case "messages_changed":
      return [type];
    case "input_changed":
    case "context_compacted":
      return ["system_changed", "messages_changed"];
    default:
      return [];
  }
}

/** A reported divergence as Claude Code's cause. */
export function causeOfReport(type: string): CacheMissCause {
  switch (type) {
    case "input_changed":
    case "context_compacted":
      return "messages_rewritten";
    case "prompt_cache_key_changed":
    case "service_tier_changed":
      return "likely_server_side";
    default: {
      const [first] = divergencesOf(type);
      return first ? causeOfDivergence(first) : "unknown";
    }
  }
}

export function ttlCause(ttl: "5m" | "1h"): CacheMissCause {
  return ttl === "1h" ? "ttl_expired_1h" : "ttl_expired_5m";
}

const number = (value: number) => value.toLocaleString("en-US");

function predictedText(predicted: CacheDivergenceType | null, missed: number): string {
  return predicted === null ? "no divergence" : `${predicted} (${number(missed)} tokens after it)`;
}

/**
 * The provider's report beside the prediction. A report that compares nothing (first request, the
 * previous response not found, unavailable, still pending) gives no verdict; otherwise the two agree when
 * the reported divergence is one the predicted type can stand for, or both say there is none.
 */
export function checkReport(
  predicted: { type: CacheDivergenceType | null; missedInputTokens: number },
  report: ReportedCacheDiagnostics,
): CacheCheck {
  const expected = predictedText(predicted.type, predicted.missedInputTokens);
  const missed =
    report.missedInputTokens !== undefined ? ` (${number(report.missedInputTokens)} tokens after it)` : "";
  if (report.outcome === "pending" || report.outcome === "inconclusive") {
    const why =
      report.outcome === "pending"
        ? "its comparison was still running"
        : report.type !== undefined
          ? `it could not compare (${report.type})`
          : report.comparedWith === null
            ? "there was no earlier response to compare with"
            : "it could not compare (no reason given)";
    return {
      verdict: "no_verdict",
      predicted: predicted.type,
      text: `provider: no verdict, ${why}; predicted ${expected}`,
    };
  }
  if (report.outcome === "same") {
    return {
      verdict: predicted.type === null ? "agree" : "disagree",
      predicted: predicted.type,
      reported: null,
      text: `provider: no divergence; predicted ${expected}`,
    };
  }
  const type = report.type ?? "unknown";
  const agree = predicted.type !== null && divergencesOf(type).includes(predicted.type);
  return {
    verdict: agree ? "agree" : "disagree",
    predicted: predicted.type,
    reported: type,
    text: `provider: ${type}${missed}; predicted ${expected}`,
  };
}
