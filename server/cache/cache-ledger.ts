// A session's cache ledger: every request's prediction beside what the provider reported about it. The
// Runner tells it each request before it is sent (and gets the predicted diagnostics back), each usage
// report (and gets the check of the report against the prediction), and asks it for the previous
// response's id (the request's diagnostics.previous_message_id) and, after each run, for the session's
// statistics. It lives as long as the session (or the CLI command); a reopened session rebuilds it from
// its log. Its only state is that history, so the same events always give the same figures.
import type { CacheCheck, CacheStats, PredictedCacheDiagnostics } from "../protocol/cache-report.ts";
import type { ChatMessage, ToolDefinition, Usage } from "../protocol/model.ts";
import type { PromptSegment, SnapshotCache } from "../protocol/runner-events.ts";
import type { ResolvedRequest } from "../protocol/request-model.ts";
import type { SessionEvent } from "../protocol/wire.ts";
import type { TokenCounter } from "../prompt/segments.ts";
import { cacheStats, type Figures, type LedgerEntry } from "./cache-stats.ts";
import { checkReport } from "./miss-causes.ts";
import { predictDiagnostics, type ComparedRequest } from "./predicted-diagnostics.ts";
import { midConversationSupport, type CacheRules, type MidConversationSupport } from "./rules.ts";

/** A logged event the ledger folds when a session reopens: a request resolved in full. */
export type LedgerEvent =
  | Extract<SessionEvent, { type: "usage" | "cache_repredicted" }>
  | { type: "request"; snapshot: ResolvedRequest };

export interface LedgerRequest {
  requestIndex: number;
  /** The provider it goes to ("openai" reports cached tokens inside its input tokens). */
  provider: string;
  /** ISO time the request was made. */
  at: string;
  /** The model whose caching rules apply. */
  model: string;
  /** The whole request in render order, messages included. */
  segments: readonly PromptSegment[];
  registeredNotVisible?: readonly string[];
  /** The tools it sends as `tools` (a tool added mid-conversation is in the messages instead). */
  tools?: readonly ToolDefinition[];
  /** The cache model's figures for it (absent: no prediction). */
  predicted?: SnapshotCache["predicted"];
  /** What the SOP placement does to its cache, in words. */
  placementNote?: string;
  /**
   * The divergence the cache model found for it (its prediction's `diagnostics`): the one its cache
   * strip words, so the ledger takes it as it is. Absent (no prediction, a log from before predictions
   * carried it): the ledger finds it by the same function against the request before.
   */
  diagnostics?: PredictedCacheDiagnostics;
}

/**
 * The provider's report in the prediction's terms, or undefined when it is not a provider report (none,
 * or the scripted model's estimate). OpenAI's prompt_tokens include the cached ones; Anthropic's
 * input_tokens do not.
 */
export function reportedFigures(usage: Usage, provider: string): Figures | undefined {
  if (usage.source === "estimate" || usage.inputTokens === undefined) return undefined;
  const read = usage.cacheReadInputTokens ?? 0;
  return {
    read,
    write: usage.cacheCreationInputTokens ?? 0,
    uncached: provider === "openai" ? Math.max(0, usage.inputTokens - read) : usage.inputTokens,
  };
}

export class CacheLedger {
  private readonly entries: LedgerEntry[] = [];
  /** The last request, whole: what the next one is compared with. */
  private last: ComparedRequest | undefined;
  private readonly registered = new Set<string>();
  private lastTools: readonly ToolDefinition[] | undefined;
  private diagnosticsRefused = false;

  constructor(private readonly rules: CacheRules) {}

  /** Whether requests still ask for the provider's diagnostics (a server refused them: no longer). */
  asksDiagnostics(): boolean {
    return !this.diagnosticsRefused;
  }

  /** The server refused the diagnostics parameter: stop asking (until `allowDiagnostics`). */
  refuseDiagnostics(): void {
    this.diagnosticsRefused = true;
  }

  /** The user turned diagnostics on again: ask again. */
  allowDiagnostics(): void {
    this.diagnosticsRefused = false;
  }

  /** What `model` accepts mid-conversation (system messages, tool changes), per cache-rules.json. */
  supports(model: string): MidConversationSupport {
    return midConversationSupport(this.rules, model);
  }

  /** The request about to be sent: recorded, and compared with the one before it. */
  expect(request: LedgerRequest): PredictedCacheDiagnostics {
    const current: ComparedRequest = {
      requestIndex: request.requestIndex,
      atMs: Date.parse(request.at),
      model: request.model,
      segments: request.segments,
    };
    const diagnostics = request.diagnostics ?? predictDiagnostics(this.last, current, this.registered);
    for (const name of request.registeredNotVisible ?? []) this.registered.add(name);
    this.last = current;
    this.lastTools = request.tools;
    this.entries.push({
      requestIndex: request.requestIndex,
      provider: request.provider,
      atMs: current.atMs,
      ...(request.predicted
        ? {
            predicted: {
              read: request.predicted.cacheReadInputTokens,
              write: request.predicted.cacheCreationInputTokens,
              uncached: request.predicted.inputTokens,
            },
          }
        : {}),
      diagnostics,
      ...(request.placementNote ? { placementNote: request.placementNote } : {}),
    });
    return diagnostics;
  }

  /**
   * Every request predicted again (a new "cache as" model, as if every request had gone to it): their
   * figures change, and so do their divergences where the model was part of them (a request after an
   * earlier "cache as" change no longer follows another model's request). A new prediction carries its
   * divergence (`diagnostics`); one from an older log without it keeps the request's. Returns the new
   * predictions with their diagnostics and this ledger's placement notes on them.
   */
  repredicted(requests: readonly { requestIndex: number; cache: SnapshotCache }[]) {
    const last = requests.at(-1);
    if (this.last && last?.requestIndex === this.last.requestIndex)
      this.last = { ...this.last, model: last.cache.model };
    return requests.map(({ requestIndex, cache }) => {
      const entry = this.entries.findLast((candidate) => candidate.requestIndex === requestIndex);
      if (!entry) return { requestIndex, cache };
      entry.predicted = {
        read: cache.predicted.cacheReadInputTokens,
        write: cache.predicted.cacheCreationInputTokens,
        uncached: cache.predicted.inputTokens,
      };
      if (cache.diagnostics) entry.diagnostics = cache.diagnostics;
      return {
        requestIndex,
        cache: {
          ...cache,
          diagnostics: entry.diagnostics,
          ...(entry.placementNote ? { placementNote: entry.placementNote } : {}),
        },
      };
    });
  }

  /** The `tools` the last request sent (absent before the first, or when it was not said). */
  lastSentTools(): readonly ToolDefinition[] | undefined {
    return this.lastTools;
  }

  /**
   * The id of the response to the last request recorded, for the next request's
   * diagnostics.previous_message_id; null when it has none (the first request, a failed one, a provider
   * that sends no ids).
   */
  previousResponseId(): string | null {
    return this.entries.at(-1)?.reported?.diagnostics?.responseId ?? null;
  }

  /** A usage report for request #requestIndex; returns the provider's diagnostics checked against the prediction. */
  report(requestIndex: number, usage: Usage, at: string): CacheCheck | undefined {
    const entry = this.entries.findLast((candidate) => candidate.requestIndex === requestIndex);
    const figures = entry && reportedFigures(usage, entry.provider);
    if (!entry || !figures) return undefined;
    const check = usage.cacheDiagnostics ? checkReport(entry.diagnostics, usage.cacheDiagnostics) : undefined;
    entry.reported = {
      figures,
      ttl: usage.cacheWriteTtl ?? "5m",
      atMs: Date.parse(at),
      ...(usage.cacheDiagnostics ? { diagnostics: usage.cacheDiagnostics } : {}),
      ...(check ? { check } : {}),
    };
    return check;
  }

  stats(at: string): CacheStats {
    return cacheStats(this.entries, {
      ttlSeconds: this.rules.anthropic.ttlSeconds.value,
      nowMs: Date.parse(at),
    });
  }

  /**
   * A logged event of a reopened session, in order; a request resolved in full (its messages from the
   * conversation, server/protocol/request-model.ts), whose message segments are made again here (by
   * `tokens`, the session's counter).
   */
  restore(event: LedgerEvent, tokens: TokenCounter): void {
    if (event.type === "cache_repredicted") {
      this.repredicted(event.requests);
    } else if (event.type === "request") {
      const { snapshot } = event;
      if (!snapshot.segments) return;
      const { messages } = snapshot;
      const parts = snapshot.segments.filter((segment) => segment.kind !== "message");
      // A snapshot's tools are all the model saw; those added mid-conversation were not in `tools`.
      const added = new Set(
        messages
          .flatMap((message) => (message.role === "user" ? (message.addedTools ?? []) : []))
          .map((tool) => tool.name),
      );
      this.expect({
        tools: snapshot.tools.filter((tool) => !added.has(tool.name)),
        requestIndex: snapshot.requestIndex,
        provider: snapshot.provider,
        at: snapshot.at,
        model: snapshot.cache?.model ?? snapshot.model,
        segments: [...parts, ...tokens.messageSegments(messages)],
        registeredNotVisible: snapshot.registeredNotVisible,
        ...(snapshot.cache ? { predicted: snapshot.cache.predicted } : {}),
        ...(snapshot.cache?.placementNote ? { placementNote: snapshot.cache.placementNote } : {}),
        ...(snapshot.cache?.diagnostics ? { diagnostics: snapshot.cache.diagnostics } : {}),
      });
    } else if (event.type === "usage") {
      const entry = this.entries.findLast((candidate) => candidate.requestIndex === event.requestIndex);
      // The log keeps no time for a usage report: the request's own time stands for it.
      if (entry) this.report(event.requestIndex, event.usage, new Date(entry.atMs).toISOString());
    }
  }
}
