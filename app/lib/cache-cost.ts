// Money and cache figures of requests, runs and sessions, from what the server sent: each request's
// cache prediction (snapshot.cache, with the price row it used) and the provider's usage report. Pure, so
// any view (the inspector, a compare view) can reuse it. A prediction is labelled as one; a provider's
// report is the measurement.
import type { PriceRow, SnapshotCache, Usage } from "../../server/protocol/index.ts";
import { costUsd, type TokenCounts } from "../../server/shared/prices.ts";

export interface CostInput {
  runId: string;
  snapshot: { provider: string; cache?: SnapshotCache };
  usage?: Usage;
}

/**
 * The provider's report in the prediction's terms (uncached input apart from cache reads and writes), or
 * undefined when there is no provider report (none, or the scripted model's estimate). OpenAI's
 * prompt_tokens include the cached ones; Anthropic's input_tokens do not.
 */
export function reportedCounts(usage: Usage | undefined, provider: string): TokenCounts | undefined {
  if (!usage || usage.source === "estimate" || usage.inputTokens === undefined) return undefined;
  const read = usage.cacheReadInputTokens ?? 0;
  return {
    inputTokens: provider === "openai" ? Math.max(0, usage.inputTokens - read) : usage.inputTokens,
    cacheCreationInputTokens: usage.cacheCreationInputTokens ?? 0,
    cacheReadInputTokens: read,
    ...(usage.outputTokens !== undefined ? { outputTokens: usage.outputTokens } : {}),
  };
}

export interface RequestCost {
  /** Predicted input + the output tokens known (reported or estimated); null without a price. */
  predictedUsd: number | null;
  /** The provider's report priced at the same row (real providers only). */
  reportedUsd?: number;
  price?: PriceRow;
}

/**
 * The same request under eager disclosure (`tokens`, the server's count), sent uncached and all read from
 * the cache. The model's output is the same either way, so it is priced in as in `requestCost`: leaving it
 * out made "eager, all read from the cache" look cheaper than a progressive request that includes it.
 */
export function eagerCost(
  price: PriceRow,
  tokens: number,
  usage: Usage | undefined,
): { uncachedUsd: number; allReadUsd: number } {
  const outputTokens = usage?.outputTokens ?? 0;
  const none = { inputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0, outputTokens };
  return {
    uncachedUsd: costUsd(price, { ...none, inputTokens: tokens }),
    allReadUsd: costUsd(price, { ...none, cacheReadInputTokens: tokens }),
  };
}

export function requestCost(request: CostInput): RequestCost {
  const cache = request.snapshot.cache;
  if (!cache?.price) return { predictedUsd: null };
  const output = request.usage?.outputTokens ?? 0;
  const predictedUsd = costUsd(cache.price, { ...cache.predicted, outputTokens: output });
  const reported = reportedCounts(request.usage, request.snapshot.provider);
  return {
    predictedUsd,
    ...(reported ? { reportedUsd: costUsd(cache.price, reported) } : {}),
    price: cache.price,
  };
}

export interface CostTotal {
  predictedUsd: number;
  /** Set when every priced request has a provider report. */
  reportedUsd?: number;
  requests: number;
  /** Requests without a price (no prediction, or a model missing from prices.json). */
  unpriced: number;
}

export function totalCost(requests: readonly CostInput[]): CostTotal {
  let predictedUsd = 0;
  let reportedUsd = 0;
  let allReported = true;
  let unpriced = 0;
  for (const request of requests) {
    const cost = requestCost(request);
    if (cost.predictedUsd === null) {
      unpriced += 1;
      continue;
    }
    predictedUsd += cost.predictedUsd;
    if (cost.reportedUsd === undefined) allReported = false;
    else reportedUsd += cost.reportedUsd;
  }
  const priced = requests.length - unpriced;
  return {
    predictedUsd,
    ...(allReported && priced > 0 ? { reportedUsd } : {}),
    requests: requests.length,
    unpriced,
  };
}

export function runCost(requests: readonly CostInput[], runId: string): CostTotal {
  return totalCost(requests.filter((request) => request.runId === runId));
}

/** Where predicted and reported cache figures disagree in kind (a hit predicted, none reported, …) or by > 25 %. */
export function cacheMismatch(cache: SnapshotCache, usage: Usage | undefined, provider: string): string[] {
  const reported = reportedCounts(usage, provider);
  if (!reported) return [];
  const fields = [
    ["cache read", "cacheReadInputTokens"],
    ["cache write", "cacheCreationInputTokens"],
    ["uncached input", "inputTokens"],
  ] as const;
  return fields.flatMap(([label, field]) => {
    const predicted = cache.predicted[field];
    const actual = reported[field];
    const differ =
      (predicted === 0) !== (actual === 0) ||
      Math.abs(predicted - actual) > 0.25 * Math.max(predicted, actual, 64);
    return differ ? [`${label}: predicted ${predicted}, reported ${actual}`] : [];
  });
}
