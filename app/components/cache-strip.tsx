// The cache strip of one request: its prompt in render order (tools | stable | environment | messages),
// each run of segments coloured by what the cache model predicts (read / written / uncached) with the
// reason on hover; the predicted figures beside the provider's report, a mismatch flagged; and the
// money of the request, its run and the session. Presentational: props in, nothing out.
"use client";
import type { CacheCheck, SnapshotCache, Usage } from "../../server/protocol/index.ts";
import { formatUsd } from "../../server/shared/figures.ts";
import {
  cacheMismatch,
  eagerCost,
  reportedCounts,
  type CostTotal,
  type RequestCost,
} from "../lib/cache-cost.ts";
import { CacheDiagnosticsRow } from "./cache-report.tsx";
import { Badge } from "./ui.tsx";

const statusColors = {
  read: "bg-emerald-500",
  written: "bg-amber-400",
  uncached: "bg-slate-400",
} as const;
const partBorder = {
  tools: "border-violet-600",
  stable: "border-slate-700",
  environment: "border-amber-700",
  messages: "border-blue-600",
} as const;

const stripHelp =
  "What the provider's prompt cache would do with this request, predicted by the server's cache model (o200k_base token counts, rules in server/cache/cache-rules.json). Anthropic caches byte-exact prefixes in the order tools → system → messages, up to a breakpoint; anything that changes earlier in that order (a new tool, a new SOP in the environment) makes everything after it a miss.";

function totalText(total: CostTotal): string {
  const predicted = `${formatUsd(total.predictedUsd)} predicted`;
  const reported =
    total.reportedUsd !== undefined ? `, ${formatUsd(total.reportedUsd)} from provider reports` : "";
  const unpriced = total.unpriced > 0 ? ` (${total.unpriced} unpriced)` : "";
  return `${predicted}${reported}${unpriced}`;
}

export function CacheStrip({
  cache,
  usage,
  check,
  provider,
  cost,
  run,
  session,
  eagerTokens,
}: {
  cache?: SnapshotCache;
  usage?: Usage;
  /** The provider's cache diagnostics checked against the prediction (the usage event's). */
  check?: CacheCheck;
  provider: string;
  cost: RequestCost;
  run: CostTotal;
  session: CostTotal;
  /** The whole request under eager disclosure (the server's count), for the money comparison. */
  eagerTokens?: number;
}) {
  if (!cache) {
    return (
      <div className="text-[0.7rem] text-slate-500" data-testid="cache-strip-none">
        no cache prediction: this request was logged by an older version
      </div>
    );
  }
  const total = cache.segments.reduce((sum, segment) => sum + segment.tokens, 0);
  const reported = reportedCounts(usage, provider);
  const mismatch = cacheMismatch(cache, usage, provider);
  const firstMiss = cache.segments.find((segment) => segment.status !== "read");
  const { predicted } = cache;
  return (
    <div className="space-y-0.5 text-[0.7rem]" data-testid="cache-panel">
      <div className="flex items-center gap-1">
        <span className="cursor-help font-semibold underline decoration-dotted" title={stripHelp}>
          Prompt cache
        </span>
        <span className="text-slate-500" data-testid="cache-model">
          as {cache.model} ({cache.rules} rules
          {cache.breakpoints
            ? `, breakpoints: ${cache.breakpoints === "rolling" ? "stable + rolling" : "stable only"}`
            : ""}
          )
        </span>
        {mismatch.length > 0 && (
          <Badge tone="red" testId="cache-mismatch" title={mismatch.join("\n")}>
            prediction ≠ provider report
          </Badge>
        )}
        {check?.verdict === "disagree" && (
          <Badge tone="red" testId="cache-reason-mismatch" title={check.text}>
            reason ≠ provider&apos;s
          </Badge>
        )}
      </div>
      <div
        className="flex h-3 w-full overflow-hidden rounded bg-slate-100"
        data-testid="cache-strip"
        aria-label="prompt cache by segment"
      >
        {total > 0 &&
          cache.segments.map((segment, index) => (
            <div
              key={index}
              data-testid="cache-segment"
              data-status={segment.status}
              data-part={segment.part}
              className={`${statusColors[segment.status]} border-l-2 ${partBorder[segment.part]}`}
              style={{ width: `${(100 * segment.tokens) / total}%` }}
              title={`${segment.part} · ${segment.label}: ${segment.tokens} tokens ${segment.status}\n${segment.reason}`}
            />
          ))}
      </div>
      <div className="flex flex-wrap gap-x-2">
        {(["read", "written", "uncached"] as const).map((status) => (
          <span key={status}>
            <span className={`mr-0.5 inline-block h-2 w-2 rounded-sm ${statusColors[status]}`} />
            {status}
          </span>
        ))}
        <span className="text-slate-500">· border: tools | stable | environment | messages</span>
      </div>
      {firstMiss && (
        <div className="text-slate-700" data-testid="cache-reason" title={firstMiss.reason}>
          {firstMiss.part} ({firstMiss.label}): {firstMiss.reason}
        </div>
      )}
      <div data-testid="cache-predicted" title={cache.source}>
        predicted: read {predicted.cacheReadInputTokens} · write {predicted.cacheCreationInputTokens} ·
        uncached {predicted.inputTokens}
        {cost.predictedUsd !== null && (
          <>
            {" "}
            · <strong data-testid="cost-request">{formatUsd(cost.predictedUsd)}</strong>
          </>
        )}
      </div>
      {eagerTokens !== undefined && cache.price && (
        <div className="text-slate-600" data-testid="cost-eager">
          progressive {formatUsd(cost.predictedUsd ?? 0)} vs eager ({eagerTokens} tokens):{" "}
          {formatUsd(eagerCost(cache.price, eagerTokens, usage).uncachedUsd)} if sent uncached,{" "}
          {formatUsd(eagerCost(cache.price, eagerTokens, usage).allReadUsd)} if all of it were read from the
          cache{usage?.outputTokens ? `; both with the same ${usage.outputTokens} output tokens` : ""}
        </div>
      )}
      <CacheDiagnosticsRow
        {...(cache.diagnostics ? { predicted: cache.diagnostics } : {})}
        {...(usage?.cacheDiagnostics ? { reported: usage.cacheDiagnostics } : {})}
        {...(check ? { check } : {})}
        {...(cache.placementNote ? { placementNote: cache.placementNote } : {})}
        nothingRead={predicted.cacheReadInputTokens === 0}
      />
      {reported && (
        <div data-testid="cache-reported">
          provider reports: cache_read_input_tokens / cached_tokens {reported.cacheReadInputTokens} ·
          cache_creation_input_tokens {reported.cacheCreationInputTokens} · uncached {reported.inputTokens}
          {cost.reportedUsd !== undefined && ` · ${formatUsd(cost.reportedUsd)}`}
        </div>
      )}
      <div
        className="text-slate-600"
        data-testid="cost-totals"
        title={
          cost.price
            ? `prices.json: ${cost.price.model}, ${cost.price.source} (checked ${cost.price.checked})`
            : "no price for this model in prices.json"
        }
      >
        run <span data-testid="cost-run">{totalText(run)}</span> · session{" "}
        <span data-testid="cost-session">{totalText(session)}</span>
      </div>
    </div>
  );
}
