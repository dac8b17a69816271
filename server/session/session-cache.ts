// A session's prompt-cache prediction: one cache model for the session's life (its state is what the
// provider's cache would hold), and the Runner's cache dependencies for the current settings — breakpoint
// placement, "cache as" model, SOP placement and the session's prompt_cache_key. A broken rules or
// prices override is reported once, and the built-in tables stay in force.
//
// It keeps what the cache model needs of every request the session has shown (segments, time, run,
// model, tools registered but not visible), so a new "cache as" model predicts them all again, in order, as if
// every request had gone to that model; the requests after it go on from that state. A reopened
// session's model is built the same way from the requests read back from its log, before its first new
// request: that request is compared with the last one shown (its cause and its diagnostics alike), not
// taken for the session's first.
import { DEFAULT_CACHE_BREAKPOINTS, cacheModelFor } from "../cache/cache-as.ts";
import type { CacheModel, CachePredictor, CacheRequest } from "../cache/cache-model.ts";
import { createCacheModel, loadCacheConfig } from "../cache/rules-file.ts";
import type { RequestSnapshot, SnapshotCache } from "../protocol/runner-events.ts";
import type { SessionSettings } from "../protocol/wire.ts";
import type { SkillPlacement } from "../protocol/runner-events.ts";
import type { RequestCacheOptions } from "./request-hooks.ts";

/** The SOP placement (a Runner dependency) and the request hooks' cache part, for the current settings. */
export interface CacheDependencies {
  skillPlacement: SkillPlacement;
  cache: RequestCacheOptions;
}

/** Requests kept for a new prediction; an older one is dropped (and its figures stay as predicted). */
const SHOWN_LIMIT = 2_000;

type ShownRequest = CacheRequest;

export class SessionCache implements CachePredictor {
  private model: CacheModel | undefined;
  /** The model whose rules apply now ("cache as" may change while a run is under way). */
  private modelName: string | undefined;
  private readonly shown: ShownRequest[] = [];

  constructor(
    private readonly sessionId: string,
    private readonly home: string,
    private readonly warn: (message: string) => void,
    /** `cacheAs` applies to real providers too (`cli run --cache-model`), not only the offline ones. */
    private readonly cacheAsForAnyProvider = false,
  ) {}

  private current(): CacheModel {
    if (!this.model) {
      this.model = this.fresh();
      // What the provider's cache would hold after the requests shown so far (a reopened session's).
      for (const request of this.shown) this.model.predict(request);
    }
    return this.model;
  }

  private fresh(): CacheModel {
    const config = loadCacheConfig({ home: this.home });
    if (!this.model) for (const warning of config.warnings) this.warn(`cache rules: ${warning}`);
    return createCacheModel(config);
  }

  /**
   * The Runner predicts through the session, so a "cache as" changed while a run is under way applies to
   * that run's next request too, from the state `repredict` left.
   */
  predict(request: CacheRequest): SnapshotCache {
    return this.current().predict({ ...request, model: this.modelName ?? request.model });
  }

  dependencies(settings: SessionSettings, provider: { model: string }): CacheDependencies {
    this.current();
    this.modelName = this.modelFor(settings, provider.model);
    return {
      skillPlacement: settings.skillPlacement ?? "environment",
      cache: {
        predictor: this,
        cacheModel: this.modelName,
        breakpoints: settings.cacheBreakpoints ?? DEFAULT_CACHE_BREAKPOINTS,
        promptCacheKey: `pseudoclaude-${this.sessionId}`,
      },
    };
  }

  /** A request the session showed, in full (live, or read back from its log and resolved). */
  record(snapshot: RequestSnapshot): void {
    if (!snapshot.cache || !snapshot.segments) return;
    this.shown.push({
      requestIndex: snapshot.requestIndex,
      runId: snapshot.runId,
      at: snapshot.at,
      model: snapshot.cache.model,
      segments: snapshot.segments,
      breakpoints: snapshot.cache.breakpoints ?? DEFAULT_CACHE_BREAKPOINTS,
      registeredNotVisible: snapshot.registeredNotVisible,
    });
    if (this.shown.length > SHOWN_LIMIT) this.shown.shift();
  }

  /** A logged cache_repredicted, read back: the requests shown so far were predicted again as `model`. */
  repredicted(model: string): void {
    for (const request of this.shown) request.model = model;
  }

  /** Every request shown, predicted again in order by a fresh model under `settings`' "cache as". */
  repredict(
    settings: SessionSettings,
    providerModel: string,
  ): { model: string; requests: { requestIndex: number; cache: SnapshotCache }[] } {
    const model = this.modelFor(settings, providerModel);
    const fresh = this.fresh();
    this.repredicted(model);
    const requests = this.shown.map((request) => ({
      requestIndex: request.requestIndex,
      cache: fresh.predict(request),
    }));
    this.model = fresh;
    this.modelName = model;
    return { model, requests };
  }

  private modelFor(settings: SessionSettings, providerModel: string): string {
    return cacheModelFor({
      provider: settings.provider,
      providerModel,
      ...(settings.cacheAs ? { cacheAs: settings.cacheAs } : {}),
      forAnyProvider: this.cacheAsForAnyProvider,
    });
  }
}
