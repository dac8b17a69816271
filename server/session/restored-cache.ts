// A reopened session's cache, restored from its log when first needed. The cache model's requests (what
// the next request is predicted against) and the ledger (every request's prediction beside the provider's
// report, and cache_stats) are rebuilt from the logged events — but neither the session_opened snapshot nor
// the replay needs them (the figures they show are in the logged events), and resolving every logged
// request costs about a fifth of a reopen, which the person waits for. So they are rebuilt on the first
// use (a run, a settings change) or in the background shortly after the open, whichever comes first; the
// result is the same. The stream's writer is shown the restored events then too (observeRestored), so
// nothing keeps them past that.
import { errorMessage } from "../errors/index.ts";
import type { CacheLedger, LedgerEvent } from "../cache/cache-ledger.ts";
import type { TokenCounter } from "../prompt/segments.ts";
import { RequestReader } from "../protocol/request-model.ts";
import type { SequencedEvent } from "./event-stream.ts";
import type { SessionCache } from "./session-cache.ts";

/** A reopened session's cache ledger is folded from its log this long after the open, unless used sooner. */
export const LEDGER_RESTORE_DELAY_MS = 1000;

export interface RestoredCacheHooks {
  /** Shows the stream's writer the restored events (the blobs they carried). */
  observeRestored(): void;
  tokens: TokenCounter;
  /** Tells the user which logged records could not be restored (a log_damaged error). */
  reportDamaged(message: string): void;
}

export class RestoredCache {
  /** The logged events whose requests the cache and the ledger have not been given yet. */
  private backlog: readonly SequencedEvent[];
  /** The logged events the ledger has not folded yet. */
  private ledgerBacklog: LedgerEvent[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly state: SessionCache,
    private readonly ledgerState: CacheLedger,
    restored: readonly SequencedEvent[],
    private readonly hooks: RestoredCacheHooks,
  ) {
    this.backlog = restored;
    if (restored.length > 0) {
      this.timer = setTimeout(() => void this.ledger, LEDGER_RESTORE_DELAY_MS);
      this.timer.unref();
    }
  }

  /** The requests shown so far, as the cache predicts the next one from. */
  get cache(): SessionCache {
    this.restoreRequests();
    return this.state;
  }

  /** The cache ledger, with every logged event folded in first. */
  get ledger(): CacheLedger {
    this.restoreRequests();
    if (this.ledgerBacklog.length > 0) {
      const backlog = this.ledgerBacklog;
      this.ledgerBacklog = [];
      const failed: string[] = [];
      for (const event of backlog) {
        try {
          this.ledgerState.restore(event, this.hooks.tokens);
        } catch (error) {
          // The deferred-restore rule (reportUnrestored): the ledger's fold reads the log too.
          const what =
            event.type === "request"
              ? `request #${event.snapshot.requestIndex}`
              : event.type === "usage"
                ? `the usage of request #${event.requestIndex}`
                : "a cache_repredicted record";
          failed.push(`${what} (${errorMessage(error)})`);
        }
      }
      this.reportUnrestored(failed);
    }
    this.dispose();
    return this.ledgerState;
  }

  /** The background fold is not needed any more (the ledger was folded, or the session closes). */
  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private restoreRequests(): void {
    this.hooks.observeRestored();
    if (this.backlog.length === 0) return;
    const restored = this.backlog;
    this.backlog = [];
    const requests = new RequestReader();
    const failed: string[] = [];
    for (const { seq, event } of restored) {
      try {
        requests.observe(event);
        if (event.type === "request") {
          const snapshot = requests.resolve(event.snapshot);
          this.state.record(snapshot);
          this.ledgerBacklog.push({ type: "request", snapshot });
        }
        if (event.type === "cache_repredicted") this.state.repredicted(event.model);
        if (event.type === "usage" || event.type === "cache_repredicted") this.ledgerBacklog.push(event);
      } catch (error) {
        failed.push(`seq ${seq} (${errorMessage(error)})`);
      }
    }
    this.reportUnrestored(failed);
  }

  /**
   * THE DEFERRED-RESTORE RULE: what a reopen restores later (restoreRequests, the ledger's fold) reads a
   * user file — a log may be crafted or imported — and runs outside any command's error handling, in a
   * timer or inside whichever command uses it first. So no record may make it throw: a thrown error in the
   * timer ends the server process, and in a command it would fail that command and every later one for
   * the session. A record that cannot be restored is left out of the cache figures, and the user is told
   * which (the session goes on from what was restored).
   */
  private reportUnrestored(failed: readonly string[]): void {
    if (failed.length === 0) return;
    this.hooks.reportDamaged(
      `the log's record(s) at ${failed.slice(0, 3).join(", ")}${failed.length > 3 ? ` and ${failed.length - 3} more` : ""} could not be restored for the cache figures; the session goes on without them`,
    );
  }
}
