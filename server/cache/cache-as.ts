// Which model's caching rules a prediction applies: a real provider's own model; for the scripted and
// manual providers (which cache nothing) the "cache as" model, by default the configured Anthropic model.
// An explicit choice (--cache-model) wins for any provider.
import { loadProvidersConfig } from "../providers/config.ts";

export interface CacheAsInput {
  provider: string;
  providerModel: string;
  /** --cache-model, or the session's "cache as" setting. */
  cacheAs?: string;
  /** Whether `cacheAs` applies to real providers too (the CLI flag does; the session setting does not). */
  forAnyProvider?: boolean;
  home?: string;
}

export function cacheModelFor(input: CacheAsInput): string {
  const real = input.provider === "anthropic" || input.provider === "openai";
  if (input.cacheAs && (input.forAnyProvider || !real)) return input.cacheAs;
  if (real) return input.providerModel;
  return loadProvidersConfig({ ...(input.home ? { home: input.home } : {}) }).anthropic.model;
}

/**
 * The default breakpoint placement: the cheaper one on the demo scenarios (bench `cache-economy`: with a
 * rolling breakpoint each iteration reads the conversation so far instead of re-sending it uncached).
 */
export const DEFAULT_CACHE_BREAKPOINTS = "rolling" as const;
