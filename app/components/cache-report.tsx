// What the provider said about its prompt cache, beside the prediction: one row per request in the cache
// strip (the predicted divergence, the provider's diagnostics, a red badge when they disagree, and what
// the SOP placement does to the cache), and the session's figures in Claude Code's terms at the top of
// the inspector (cache_stats, after each run). Presentational: props in, nothing out.
"use client";
import { useEffect, useState } from "react";
import type {
  CacheCheck,
  CacheStats,
  PredictedCacheDiagnostics,
  ReportedCacheDiagnostics,
} from "../../server/protocol/index.ts";
import { Badge } from "./ui.tsx";

const number = (value: number) => value.toLocaleString("en-US");

const diagnosticsHelp =
  "Where this request's prefix first differs from the previous request's, as the server's cache model predicts it (model_changed, system_changed, tools_changed, messages_changed, in Anthropic's words), beside what the provider's own cache diagnostics reported (Anthropic diagnostics.cache_miss_reason; OpenAI prompt_cache_diagnostics). The provider compares request structure; whether the cache hit is the usage figures above.";

function predictedText(predicted: PredictedCacheDiagnostics, nothingRead: boolean): string {
  if (predicted.comparedWith === null) return "first request: nothing to compare with";
  // No divergence is about the request's structure; a request can still read nothing (the one before it
  // was below the model's minimum, or its entry expired), and the row must not read as a hit then.
  const what =
    predicted.type === null
      ? `no divergence from #${predicted.comparedWith}${nothingRead ? ", yet nothing is read from the cache (the reason above says why)" : ""}`
      : `${predicted.type} since #${predicted.comparedWith} (${number(predicted.missedInputTokens)} tokens after it)`;
  return predicted.announced ? `${what}, announced: ${predicted.announced}` : what;
}

function reportedText(reported: ReportedCacheDiagnostics | undefined): string {
  if (!reported) return "no diagnostics (not asked, or this provider reports none)";
  switch (reported.outcome) {
    case "same":
      return "no divergence";
    case "pending":
      return "no verdict (its comparison was still running)";
    case "inconclusive":
      return reported.type !== undefined
        ? `no verdict (${reported.type})`
        : reported.comparedWith === null
          ? "no verdict (nothing to compare with)"
          : "no verdict (could not compare)";
    case "diverged":
      return `${reported.type ?? "unknown"}${reported.missedInputTokens !== undefined ? ` (${number(reported.missedInputTokens)} tokens after it)` : ""}`;
  }
}

/** One request's predicted divergence beside the provider's report (the cache strip's diagnostics row). */
export function CacheDiagnosticsRow({
  predicted,
  reported,
  check,
  placementNote,
  nothingRead = false,
}: {
  predicted?: PredictedCacheDiagnostics;
  /** The prediction reads no token of this request from the cache. */
  nothingRead?: boolean;
  reported?: ReportedCacheDiagnostics;
  check?: CacheCheck;
  placementNote?: string;
}) {
  if (!predicted && !reported && !placementNote) return null;
  return (
    <div className="space-y-0.5" data-testid="cache-diagnostics">
      {predicted && (
        <div>
          <span
            className="mr-1 cursor-help font-semibold underline decoration-dotted"
            title={diagnosticsHelp}
          >
            Diagnostics
          </span>
          <span data-testid="cache-diagnostics-predicted" title="predicted by the server's cache model">
            predicted: {predictedText(predicted, nothingRead)}
          </span>
        </div>
      )}
      {predicted && (
        <div className="flex flex-wrap items-center gap-1">
          <span data-testid="cache-diagnostics-reported" title={reported?.source}>
            provider: {reportedText(reported)}
          </span>
          {check?.verdict === "disagree" && (
            <Badge tone="red" testId="cache-diagnostics-disagree" title={check.text}>
              provider ≠ prediction
            </Badge>
          )}
          {check?.verdict === "agree" && (
            <Badge tone="green" testId="cache-diagnostics-agree" title={check.text}>
              agree
            </Badge>
          )}
        </div>
      )}
      {placementNote && (
        <div className="text-slate-600" data-testid="cache-placement-note">
          {placementNote}
        </div>
      )}
    </div>
  );
}

function remaining(expiresAt: string, nowMs: number): string {
  const seconds = Math.max(0, Math.round((Date.parse(expiresAt) - nowMs) / 1000));
  return seconds >= 60 ? `${Math.floor(seconds / 60)}m ${seconds % 60}s` : `${seconds}s`;
}

/** Now, once a second while a cache entry is alive (for the "expires in" countdown). */
function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

const statsHelp =
  "The session's prompt cache in the terms of Claude Code's status line. hit ratio = cache read / (read + write + uncached). A miss: a request that re-processed more than 5 % and at least 2,000 tokens of what it could have read (the previous request's cached prefix); its cause comes from the provider's diagnostics when it gave one, from the prediction otherwise. Expected rebuilds: such re-processing the playground announced (a loaded SOP entering the environment, a registered tool made visible). Figures: the provider's usage report where there is one, the prediction otherwise.";

/**
 * The session's cache figures (the newest cache_stats), at the top of the inspector. They are made after
 * each run, so while one is going the timeline (`shown` requests) can be ahead of them: said, not hidden.
 */
export function CacheStatsHeader({ stats, shown }: { stats?: CacheStats; shown?: number }) {
  const alive = stats?.expires_at !== null && stats?.expires_at !== undefined;
  const now = useNow(alive);
  if (!stats) return null;
  const source =
    stats.source === "mixed"
      ? `${stats.figures.reported} reported, ${stats.figures.predicted} predicted`
      : stats.source === "provider"
        ? "provider reports"
        : "prediction";
  const cause = stats.last_miss_cause;
  const warm = alive && Date.parse(stats.expires_at!) > now;
  return (
    <div className="flex flex-wrap items-center gap-x-2 gap-y-0.5 text-[0.7rem]" data-testid="cache-stats">
      <span className="cursor-help font-semibold underline decoration-dotted" title={statsHelp}>
        Session cache
      </span>
      <span className="text-slate-500" data-testid="cache-stats-source">
        ({source})
      </span>
      <span data-testid="cache-stats-hit">
        hit {stats.hit_ratio === null ? "—" : `${Math.round(stats.hit_ratio * 100)} %`}
      </span>
      <span data-testid="cache-stats-misses">
        misses {stats.misses}/{stats.requests}
      </span>
      {shown !== undefined && shown > stats.requests && (
        <span className="text-slate-500" data-testid="cache-stats-pending">
          ({shown - stats.requests} newer request{shown - stats.requests === 1 ? " counts" : "s count"} when
          the run ends)
        </span>
      )}
      {cause && (
        <span data-testid="cache-stats-last-miss" title={`source: ${cause.source}`}>
          last miss #{cause.request}: <code>{cause.causes.join("+")}</code> (tools +{cause.tools_added} −
          {cause.tools_removed}, system {cause.system_char_delta >= 0 ? "+" : ""}
          {number(cause.system_char_delta)} chars; {cause.source})
        </span>
      )}
      <span data-testid="cache-stats-rebuilds">expected rebuilds {stats.expected_rebuilds}</span>
      {stats.disagreements > 0 ? (
        <Badge tone="red" testId="cache-stats-disagreements">
          {stats.disagreements} disagreement{stats.disagreements === 1 ? "" : "s"}
        </Badge>
      ) : (
        <span data-testid="cache-stats-disagreements">0 disagreements</span>
      )}
      {stats.recache_tokens_if_cold !== null && (
        <span data-testid="cache-stats-recache">re-cache if cold {number(stats.recache_tokens_if_cold)}</span>
      )}
      <span data-testid="cache-stats-expiry" title={stats.expires_at ?? "nothing cached"}>
        {stats.expires_at === null
          ? "nothing cached"
          : warm
            ? `expires in ${remaining(stats.expires_at, now)} (${stats.ttl} TTL)`
            : `cold since ${new Date(stats.expires_at).toLocaleTimeString()} (${stats.ttl} TTL)`}
      </span>
    </div>
  );
}
