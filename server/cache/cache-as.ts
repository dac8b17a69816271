// Which model's caching rules a prediction applies: a real provider's own model; for the scripted and
// manual providers (which cache nothing) the "cache as" model, by default DEMO_CACHE_MODEL. An explicit
// choice (--cache-model) wins for any provider. "cache as" offers the models of the rules table
// (cache-rules.json), each with the minimum prefix it caches and how long an entry lives.
import type { CacheModelChoice } from "../protocol/runner-events.ts";
import { loadCacheConfig } from "./rules-file.ts";
import { byModelPrefix, ruleFamily, type CacheRules, type PriceTable } from "./rules.ts";

/**
 * The default "cache as" model of the scripted and manual sessions: the demo's tools + stable system
 * (about 1,650 tokens) exceed its 1,024-token minimum, so the walk-through shows reads and writes. With
 * claude-haiku-4-5 (4,096) no request of the demo would ever be cached. cache-as.test.ts checks the
 * demo's prefix against this model's minimum in the rules table.
 */
export const DEMO_CACHE_MODEL = "claude-sonnet-4-5";

export interface CacheAsInput {
  provider: string;
  providerModel: string;
  /** --cache-model, or the session's "cache as" setting. */
  cacheAs?: string;
  /** Whether `cacheAs` applies to real providers too (the CLI flag does; the session setting does not). */
  forAnyProvider?: boolean;
}

export function cacheModelFor(input: CacheAsInput): string {
  const real = input.provider === "anthropic" || input.provider === "openai";
  if (input.cacheAs && (input.forAnyProvider || !real)) return input.cacheAs;
  if (real) return input.providerModel;
  return DEMO_CACHE_MODEL;
}

/**
 * The models "cache as" offers: every model the Anthropic rules name (with its minimum and the 5-minute
 * TTL), then every OpenAI model of the price table (one minimum and TTL for all), each as the tables say.
 */
export function cacheModelChoices(config: { rules: CacheRules; prices: PriceTable }): CacheModelChoice[] {
  const { anthropic, openai } = config.rules;
  const priced = (model: string) => byModelPrefix(config.prices.models, model) !== undefined;
  return [
    ...Object.entries(anthropic.minCacheableTokens.byModel).map(([model, minTokens]) => ({
      model,
      rules: "anthropic" as const,
      minTokens,
      ttlSeconds: anthropic.ttlSeconds.value["5m"],
      priced: priced(model),
    })),
    ...Object.keys(config.prices.models)
      .filter((model) => ruleFamily(config.rules, model) === "openai")
      .map((model) => ({
        model,
        rules: "openai" as const,
        minTokens: openai.minPrefixTokens.value,
        ttlSeconds: openai.ttlSeconds.value,
        priced: true,
      })),
  ];
}

/** What the page's "cache as" picker offers, under the tables in force for `home` (overrides included). */
export function cacheAsOffer(home?: string): { models: CacheModelChoice[]; default: string } {
  const config = loadCacheConfig(home ? { home } : {});
  return { models: cacheModelChoices(config), default: DEMO_CACHE_MODEL };
}

/**
 * The default breakpoint placement: the cheaper one on the demo scenarios (bench `cache-economy`: with a
 * rolling breakpoint each iteration reads the conversation so far instead of re-sending it uncached).
 */
export const DEFAULT_CACHE_BREAKPOINTS = "rolling" as const;
