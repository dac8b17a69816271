// A session's prompt-cache prediction: one cache model for the session's life (its state is what the
// provider's cache would hold), and the Runner's cache dependencies for the current settings — breakpoint
// placement, "cache as" model, SOP placement and the session's prompt_cache_key. A broken rules or
// prices override is reported once, and the built-in tables stay in force.
import { DEFAULT_CACHE_BREAKPOINTS, cacheModelFor } from "../cache/cache-as.ts";
import type { CacheModel } from "../cache/cache-model.ts";
import { createCacheModel, loadCacheConfig } from "../cache/rules-file.ts";
import type { SessionSettings } from "../protocol/wire.ts";
import type { Provider } from "../providers/types.ts";
import type { RunnerDependencies } from "../runner/types.ts";

export type CacheDependencies = Pick<
  RunnerDependencies,
  "cache" | "cacheModel" | "cacheBreakpoints" | "skillPlacement" | "promptCacheKey"
>;

export class SessionCache {
  private model: CacheModel | undefined;

  constructor(
    private readonly sessionId: string,
    private readonly home: string,
    private readonly warn: (message: string) => void,
    /** `cacheAs` applies to real providers too (`cli run --cache-model`), not only the offline ones. */
    private readonly cacheAsForAnyProvider = false,
  ) {}

  dependencies(settings: SessionSettings, provider: Provider): CacheDependencies {
    if (!this.model) {
      const config = loadCacheConfig({ home: this.home });
      for (const warning of config.warnings) this.warn(`cache rules: ${warning}`);
      this.model = createCacheModel(config);
    }
    return {
      cache: this.model,
      cacheModel: cacheModelFor({
        provider: settings.provider,
        providerModel: provider.model,
        ...(settings.cacheAs ? { cacheAs: settings.cacheAs } : {}),
        forAnyProvider: this.cacheAsForAnyProvider,
        home: this.home,
      }),
      cacheBreakpoints: settings.cacheBreakpoints ?? DEFAULT_CACHE_BREAKPOINTS,
      skillPlacement: settings.skillPlacement ?? "environment",
      promptCacheKey: `pseudoclaude-${this.sessionId}`,
    };
  }
}
