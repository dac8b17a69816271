// The cache flags of `run` and `prompt` (--cache-model, --cache-breakpoints, --skill-placement) turned into
// the Runner's cache dependencies: one cache model per command, under the rules and prices in force.
import { DEFAULT_CACHE_BREAKPOINTS, cacheModelFor } from "../cache/cache-as.ts";
import { createCacheLedger, createCacheModel, loadCacheConfig } from "../cache/rules-file.ts";
import type { CacheBreakpoints, SkillPlacement } from "../protocol/runner-events.ts";
import type { RequestCacheOptions } from "../session/request-hooks.ts";
import type { CliArguments } from "./args.ts";

export interface CliCacheOptions {
  cacheModel?: string;
  breakpoints: CacheBreakpoints;
  placement: SkillPlacement;
}

export function cacheOptions(args: CliArguments): CliCacheOptions {
  return {
    ...(args.cacheModel ? { cacheModel: args.cacheModel } : {}),
    breakpoints: args.cacheBreakpoints ?? DEFAULT_CACHE_BREAKPOINTS,
    placement: args.skillPlacement ?? "environment",
  };
}

interface CacheDependencies {
  skillPlacement: SkillPlacement;
  /** The request hooks' cache part (server/session/request-hooks.ts). */
  cache: RequestCacheOptions;
}

/** The SOP placement and the request hooks' cache part for one CLI command; override problems go to `warn`. */
export function cacheDependencies(
  options: CliCacheOptions | undefined,
  provider: { name: string; model: string },
  home: string,
  warn: (line: string) => void,
): CacheDependencies {
  const config = loadCacheConfig({ home });
  for (const warning of config.warnings) warn(`warning: ${warning}`);
  return {
    skillPlacement: options?.placement ?? "environment",
    cache: {
      predictor: createCacheModel(config),
      cacheModel: cacheModelFor({
        provider: provider.name,
        providerModel: provider.model,
        ...(options?.cacheModel ? { cacheAs: options.cacheModel } : {}),
        forAnyProvider: true,
      }),
      breakpoints: options?.breakpoints ?? DEFAULT_CACHE_BREAKPOINTS,
      promptCacheKey: `pseudoclaude-cli-${process.pid}-${Date.now().toString(36)}`,
      // Diagnostics beside the prediction, and `cache_stats` after each run (server/cache/cache-ledger.ts).
      ledger: createCacheLedger(config),
    },
  };
}
