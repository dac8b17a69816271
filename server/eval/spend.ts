// Cost before spending (issue 25): how many model calls a lab or an optimization makes and what they
// cost at the price table's rates (server/cache/prices.json, or the user's copy), said before anything
// is sent; and the hard caps --max-calls / --max-usd, held while it runs. A call is reserved before it is
// sent (at its estimate) and settled when it ends (at the provider's reported usage when there is one),
// so concurrent calls can never overshoot a cap: a call that might cross it is not sent.
import type { Usage } from "../protocol/model.ts";
import type { CostEstimate, Spend, SpendCaps } from "../protocol/trigger-lab.ts";
import { loadCacheConfig } from "../cache/rules-file.ts";
import { priceFor, type PriceTable } from "../cache/rules.ts";
import { costUsd } from "../shared/prices.ts";
import type { PriceRow } from "../protocol/runner-events.ts";
import { TOKENIZER_NAME } from "../prompt/segments.ts";

/** Providers that call no paid API: their calls cost nothing. */
export const OFFLINE_PROVIDERS = new Set(["scripted", "router", "manual"]);

/** What an estimate assumes a probe answers with: a load_skill call and a sentence, at most. */
export const PROBE_OUTPUT_TOKENS = 200;

export interface Pricing {
  /** Null: offline, or no price row for the model. */
  price: PriceRow | null;
  offline: boolean;
  model: string;
}

export function pricingFor(provider: string, model: string, prices?: PriceTable): Pricing {
  if (OFFLINE_PROVIDERS.has(provider)) return { price: null, offline: true, model };
  const table = prices ?? loadCacheConfig().prices;
  return { price: priceFor(table, model) ?? null, offline: false, model };
}

/** USD of one call of `inputTokens` in and `outputTokens` out; null when there is no price. */
export function callUsd(pricing: Pricing, inputTokens: number, outputTokens: number): number | null {
  if (pricing.offline) return 0;
  if (!pricing.price) return null;
  return costUsd(pricing.price, {
    inputTokens,
    cacheCreationInputTokens: 0,
    cacheReadInputTokens: 0,
    outputTokens,
  });
}

export function estimateCost(
  pricing: Pricing,
  calls: number,
  inputTokensPerCall: number,
  outputTokensPerCall = PROBE_OUTPUT_TOKENS,
): CostEstimate {
  const one = callUsd(pricing, inputTokensPerCall, outputTokensPerCall);
  const basis = pricing.offline
    ? "offline provider: no API is called"
    : pricing.price
      ? `price table row ${pricing.price.model} ($${pricing.price.input}/M in, $${pricing.price.output}/M out, ${pricing.price.source}); input counted with ${TOKENIZER_NAME}, output assumed ≤ ${outputTokensPerCall} tokens per call, no cache discount`
      : `no row for "${pricing.model}" in the price table (server/cache/prices.json or ~/.PseudoClaude/prices.json): cost unknown`;
  return {
    calls,
    inputTokensPerCall,
    outputTokensPerCall,
    usd: one === null ? null : one * calls,
    basis,
  };
}

/** The USD a finished call cost: its reported usage priced, or (no usage) its estimate. */
export function settledUsd(
  pricing: Pricing,
  usage: Usage | undefined,
  estimate: { inputTokens: number; outputTokens: number },
): { usd: number; estimated: boolean } {
  const reported = usage?.source !== "estimate" && usage?.inputTokens !== undefined;
  const input = reported
    ? (usage!.inputTokens ?? 0) + (usage!.cacheCreationInputTokens ?? 0) + (usage!.cacheReadInputTokens ?? 0)
    : estimate.inputTokens;
  const output = reported ? (usage!.outputTokens ?? 0) : estimate.outputTokens;
  if (pricing.offline) return { usd: 0, estimated: false };
  if (!pricing.price) return { usd: 0, estimated: true };
  const usd = reported
    ? costUsd(pricing.price, {
        inputTokens: usage!.inputTokens ?? 0,
        cacheCreationInputTokens: usage!.cacheCreationInputTokens ?? 0,
        cacheReadInputTokens: usage!.cacheReadInputTokens ?? 0,
        outputTokens: output,
      })
    : (callUsd(pricing, input, output) ?? 0);
  return { usd, estimated: !reported };
}

/** Holds the caps across every call of one lab or optimization (shared by all its parts). */
export class SpendGuard {
  private calls = 0;
  private reserved = 0;
  private usd = 0;
  private estimatedCalls = 0;
  private stopReason: string | undefined;

  constructor(readonly caps: SpendCaps = {}) {}

  /** Why calls stopped, once a cap refused one. */
  get stopped(): string | undefined {
    return this.stopReason;
  }

  /**
   * Reserves one call costing at most `usd` (null: unknown). False, with the reason kept, when the call
   * would pass a cap; once refused, every later call is refused too, so a lab stops cleanly.
   */
  reserve(usd: number | null): boolean {
    if (this.stopReason) return false;
    const { maxCalls, maxUsd } = this.caps;
    if (maxCalls !== undefined && this.calls + 1 > maxCalls) {
      this.stopReason = `--max-calls ${maxCalls} reached: ${this.calls} call(s) made`;
      return false;
    }
    if (maxUsd !== undefined) {
      if (usd === null) {
        this.stopReason = `--max-usd ${maxUsd} cannot be held: the model has no price in the price table`;
        return false;
      }
      if (this.usd + this.reserved + usd > maxUsd) {
        this.stopReason = `--max-usd ${maxUsd} reached: $${(this.usd + this.reserved).toFixed(4)} spent or in flight, and the next call may cost $${usd.toFixed(4)}`;
        return false;
      }
      this.reserved += usd;
    }
    this.calls += 1;
    return true;
  }

  /** Settles a reserved call at what it cost. */
  settle(reservedUsd: number | null, spent: { usd: number; estimated: boolean }): void {
    if (this.caps.maxUsd !== undefined && reservedUsd !== null) this.reserved -= reservedUsd;
    this.usd += spent.usd;
    if (spent.estimated) this.estimatedCalls += 1;
  }

  /** Stops further calls (the person pressed Stop). */
  stop(reason: string): void {
    this.stopReason ??= reason;
  }

  spend(): Spend {
    return { calls: this.calls, usd: this.usd, estimatedCalls: this.estimatedCalls };
  }
}
