// A session's prompt-cache statistics in Claude Code's terms (server/protocol/cache-report.ts), folded
// over the ledger's requests in order. A request's figures are the provider's report where there is one
// and the cache model's prediction otherwise. Pure.
//
// Definitions (Claude Code's status line `prompt_cache`, as the issue and the field notes quote it):
// - hit_ratio = cache_read / (cache_read + cache_write + uncached), over every request;
// - a miss: a request that re-processes more than 5 % and at least 2,000 tokens of what it could have read,
//   i.e. of the prefix the previous request left in the cache (its reads + writes);
// - expected_rebuilds: such re-processing the client announced; here, a loaded skill's SOP entering the
//   environment or a tool an earlier request registered becoming visible (predicted-diagnostics.ts);
// - recache_tokens_if_cold: the last request's cached prefix, written again by the next request if cold;
// - expires_at: the last request's time plus its TTL (an entry's life restarts with each read or write).
import type {
  CacheMissCause,
  CacheMissCauseReport,
  CacheStats,
  PredictedCacheDiagnostics,
  ReportedCacheDiagnostics,
  CacheCheck,
} from "../protocol/cache-report.ts";
import { causeOfReport, ttlCause } from "./miss-causes.ts";

/** More than this share of what could have been read, re-processed, is a miss … */
export const MISS_SHARE = 0.05;
/** … when it is also at least this many tokens. */
export const MISS_TOKENS = 2_000;

export interface Figures {
  read: number;
  write: number;
  uncached: number;
}

/** What the ledger keeps of one request. */
export interface LedgerEntry {
  requestIndex: number;
  provider: string;
  atMs: number;
  /** The cache model's prediction (absent: no prediction was made). */
  predicted?: Figures;
  diagnostics: PredictedCacheDiagnostics;
  /** What the SOP placement did to this request's cache, in words (snapshot.cache.placementNote). */
  placementNote?: string;
  /** The provider's report (absent: none yet, or the model's own estimate). */
  reported?: {
    figures: Figures;
    ttl: "5m" | "1h";
    atMs: number;
    diagnostics?: ReportedCacheDiagnostics;
    check?: CacheCheck;
  };
}

export interface StatsOptions {
  /** Seconds an entry lives for each TTL (cache-rules.json `ttlSeconds`). */
  ttlSeconds: { "5m": number; "1h": number };
  nowMs: number;
}

function figuresOf(entry: LedgerEntry): Figures | undefined {
  return entry.reported?.figures ?? entry.predicted;
}

const timeOf = (entry: LedgerEntry) => entry.reported?.atMs ?? entry.atMs;

/** Why `entry` re-processed what `previous` had cached: the provider's report first, then the prediction. */
function causeOf(
  entry: LedgerEntry,
  previous: LedgerEntry,
  options: StatsOptions,
): { cause: CacheMissCause; source: "provider" | "prediction" } {
  const ttl = previous.reported?.ttl ?? "5m";
  const expired = entry.atMs - timeOf(previous) > options.ttlSeconds[ttl] * 1000;
  const report = entry.reported?.diagnostics;
  if (report?.outcome === "diverged") return { cause: causeOfReport(report.type ?? ""), source: "provider" };
  // The provider compared and found the request unchanged: the entry expired, or the server dropped it.
  if (report?.outcome === "same")
    return { cause: expired ? ttlCause(ttl) : "likely_server_side", source: "provider" };
  const predicted = entry.diagnostics.cause ?? (expired ? ttlCause(ttl) : "unknown");
  return { cause: predicted, source: "prediction" };
}

export function cacheStats(entries: readonly LedgerEntry[], options: StatsOptions): CacheStats {
  let read = 0;
  let write = 0;
  let uncached = 0;
  let reported = 0;
  let predicted = 0;
  let misses = 0;
  let expectedRebuilds = 0;
  let missRecache = 0;
  let disagreements = 0;
  const missCauses: Partial<Record<CacheMissCause, number>> = {};
  let lastMiss: { report: CacheMissCauseReport; atMs: number } | undefined;
  let previous: { entry: LedgerEntry; figures: Figures } | undefined;
  let last: { entry: LedgerEntry; figures: Figures } | undefined;
  for (const entry of entries) {
    if (entry.reported?.check?.verdict === "disagree") disagreements += 1;
    const figures = figuresOf(entry);
    if (!figures) continue;
    if (entry.reported) reported += 1;
    else predicted += 1;
    read += figures.read;
    write += figures.write;
    uncached += figures.uncached;
    if (previous) {
      const couldRead = previous.figures.read + previous.figures.write;
      const reprocessed = couldRead - figures.read;
      if (reprocessed > MISS_SHARE * couldRead && reprocessed >= MISS_TOKENS) {
        const { cause, source } = causeOf(entry, previous.entry, options);
        const { announced } = entry.diagnostics;
        // Announced by the playground, and not contradicted by the provider: a rebuild it expected.
        if (announced && (source === "prediction" || cause === entry.diagnostics.cause)) {
          expectedRebuilds += 1;
        } else {
          misses += 1;
          missCauses[cause] = (missCauses[cause] ?? 0) + 1;
          missRecache += figures.write;
          lastMiss = {
            atMs: entry.atMs,
            report: {
              causes: [cause],
              tools_added: entry.diagnostics.toolsAdded.length,
              tools_removed: entry.diagnostics.toolsRemoved.length,
              system_char_delta: entry.diagnostics.systemCharDelta,
              source,
              request: entry.requestIndex,
            },
          };
        }
      }
    }
    previous = { entry, figures };
    last = previous;
  }
  const total = read + write + uncached;
  const ttl = last?.entry.reported?.ttl ?? "5m";
  const cached = last ? last.figures.read + last.figures.write : 0;
  const expiresMs = last && cached > 0 ? timeOf(last.entry) + options.ttlSeconds[ttl] * 1000 : undefined;
  return {
    requests: entries.length,
    figures: { reported, predicted },
    source: reported === 0 ? "prediction" : predicted === 0 ? "provider" : "mixed",
    hit_ratio: total > 0 ? read / total : null,
    cache_read_tokens: read,
    cache_write_tokens: write,
    uncached_tokens: uncached,
    misses,
    miss_causes: missCauses,
    last_miss_at: lastMiss ? new Date(lastMiss.atMs).toISOString() : null,
    last_miss_cause: lastMiss?.report ?? null,
    expected_rebuilds: expectedRebuilds,
    miss_recache_tokens: missRecache,
    recache_tokens_if_cold: last ? cached : null,
    ttl,
    expires_at: expiresMs !== undefined ? new Date(expiresMs).toISOString() : null,
    warm: expiresMs !== undefined && expiresMs > options.nowMs,
    disagreements,
    at: new Date(options.nowMs).toISOString(),
  };
}
