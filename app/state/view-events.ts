// The session events that change the open session's view and nothing else of the UI state (most of
// them: a run's events, the catalog, the lab's and optimizer's): one event in, the view out. Pure, like
// the reducer (./reducer.ts), which checks the session and the seq and keeps the view's `lastSeq`; a
// batch of them (a reopened session's replay) is folded over the view alone (./delta-runs.ts).
import type { SessionEvent } from "../../server/protocol/index.ts";
import { applyRunnerEvent } from "./run-events.ts";
import { append } from "./records.ts";
import { applyBranchStarted } from "./branch-events.ts";
import { applyLabEvent, isLabEvent } from "./trigger-lab-state.ts";
import { applyOptimizerEvent, isOptimizerEvent } from "./optimizer-state.ts";
import type { SessionView } from "./types.ts";

/** Whether applying `event` changes nothing but the session's view (applyViewEvent), a run's start aside. */
export function isViewEvent(event: SessionEvent): boolean {
  return (
    event.type !== "session_opened" &&
    event.type !== "trust_state" &&
    event.type !== "settings_changed" &&
    // Its start also clears the outbox (outbox.ts runStarted).
    event.type !== "run_started"
  );
}

/**
 * One event of the open session applied to its view (the caller checks the session and the seq, and
 * keeps `lastSeq`: nothing here reads it).
 */
export function applyViewEvent(view: SessionView, seq: number, event: SessionEvent): SessionView {
  switch (event.type) {
    case "session_opened":
    case "trust_state":
    case "settings_changed":
      return view; // applySessionEvent's: they change the session list too
    case "catalog_snapshot":
      return {
        ...view,
        catalog: event.catalog,
        visibleTools: event.visibleTools,
        registeredTools: event.registeredTools,
      };
    case "catalog_diff": {
      const entry = {
        id: `reload-${seq}`,
        diff: event.diff,
        warnings: event.warnings,
        trigger: event.trigger,
        seq,
      };
      return { ...view, reloadFeed: [entry, ...view.reloadFeed].slice(0, 50) };
    }
    case "manual_turn_requested":
      view.store.addBlobs(event.blobs);
      return {
        ...view,
        manualTurn: {
          runId: event.runId,
          requestIndex: event.requestIndex,
          snapshot: view.store.resolve(event.snapshot),
        },
      };
    case "tool_console_result":
      return {
        ...view,
        consoleResults: {
          ...view.consoleResults,
          [event.requestId]: {
            requestId: event.requestId,
            tool: event.tool,
            input: event.input,
            result: event.result,
            durationMs: event.durationMs,
            fullOutput: event.fullOutput,
          },
        },
      };
    case "mcp_state":
      return { ...view, mcp: { servers: event.servers, warnings: event.warnings } };
    case "session_error": {
      const turn = {
        kind: "error" as const,
        id: `session-error-${seq}`,
        code: event.code,
        message: event.message,
      };
      return { ...view, turns: append(view.turns, turn) };
    }
    case "branch_started":
      return applyBranchStarted(view, event);
    case "cache_repredicted": {
      // Each request shown gets the prediction under the new "cache as" model.
      const byIndex = new Map(event.requests.map((entry) => [entry.requestIndex, entry.cache]));
      const requests = view.requests.map((request) => {
        const cache = byIndex.get(request.requestIndex);
        return cache ? { ...request, snapshot: { ...request.snapshot, cache } } : request;
      });
      return { ...view, requests };
    }
    case "branch_checked":
      return { ...view, branchCheck: event.check };
    default:
      if (isLabEvent(event)) return applyLabEvent(view, event);
      if (isOptimizerEvent(event)) return applyOptimizerEvent(view, event);
      return applyRunnerEvent(view, event, seq);
  }
}
