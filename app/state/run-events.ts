// Applies one Runner event (as the wire carries it) to a session's view: chat turns, tool call cards,
// approvals, model requests. Pure: returns a new SessionView and never mutates its input. Turns and calls
// are records by id (./records.ts): an event changes the one record it is about, and a delta never copies
// the conversation.
import type { ChatMessage, WireRunnerEvent } from "../../server/protocol/index.ts";
import { applySkillResourceEvent } from "./skill-resources.ts";
import * as records from "./records.ts";
import type { ChatTurn, HistoryToolResult, RequestView, SessionView, ToolCallView } from "./types.ts";

type Assistant = Extract<ChatTurn, { kind: "assistant" }>;

function assistantTurnId(runId: string, requestIndex: number): string {
  return `assistant-${runId}-${requestIndex}`;
}

export const turnKey = (turn: ChatTurn): string => turn.id;
export const callKey = (call: ToolCallView): string => call.id;

function updateTurn(view: SessionView, id: string, change: (turn: Assistant) => Assistant): SessionView {
  const turns = records.update(view.turns, id, (turn) => (turn.kind === "assistant" ? change(turn) : turn));
  return turns === view.turns ? view : { ...view, turns };
}

function addTurn(view: SessionView, turn: ChatTurn): SessionView {
  return { ...view, turns: records.append(view.turns, turn) };
}

/** Finds the assistant turn for a request, creating it when the first sign of it arrives. */
function ensureAssistantTurn(
  view: SessionView,
  runId: string,
  requestIndex: number,
  byHand = false,
): SessionView {
  const id = assistantTurnId(runId, requestIndex);
  if (records.has(view.turns, id)) return view;
  // `byHand`: the event's console marker, a call made by hand from the tool console (no model request).
  const turn: Assistant = {
    kind: "assistant",
    id,
    runId,
    requestIndex: byHand ? undefined : requestIndex,
    byHand,
    text: "",
    streaming: !byHand,
    toolCallIds: [],
  };
  return addTurn(view, turn);
}

function updateCall(
  view: SessionView,
  callId: string,
  change: (call: ToolCallView) => ToolCallView,
): SessionView {
  const toolCalls = records.update(view.toolCalls, callId, change);
  return toolCalls === view.toolCalls ? view : { ...view, toolCalls };
}

/**
 * The requests with the one at `requestIndex` changed (the same array when there is none). Looked for
 * from the end — an event is about the newest request almost always — and copied once, not mapped: a
 * reopened session's replay changes its requests a thousand times.
 */
function updateRequest(
  requests: RequestView[],
  requestIndex: number,
  change: (request: RequestView) => RequestView,
): RequestView[] {
  for (let position = requests.length - 1; position >= 0; position--) {
    if (requests[position].requestIndex !== requestIndex) continue;
    const changed = requests.slice();
    changed[position] = change(requests[position]);
    return changed;
  }
  return requests;
}

function withoutApproval(view: SessionView, callId: string): SessionView {
  if (!view.pendingApprovals.includes(callId)) return view;
  return { ...view, pendingApprovals: view.pendingApprovals.filter((id) => id !== callId) };
}

/**
 * The newest sandbox the server reported for this session's processes: a run's start, or an exec call's
 * permission trace. Replayed events (seq before session_opened) are history; the snapshot is newer.
 */
function observedSandbox(view: SessionView, event: WireRunnerEvent, seq: number): SessionView {
  if (seq <= view.openedSeq) return view;
  const sandbox =
    event.type === "run_started"
      ? event.sandbox
      : event.type === "permission_request"
        ? event.request.trace.sandbox
        : event.type === "permission_decision" || event.type === "tool_result"
          ? event.trace?.sandbox
          : undefined;
  return sandbox ? { ...view, runSandbox: sandbox } : view;
}

/** The assistant's final text for a request: the turn stops streaming, a manual turn is answered. */
function assistantMessage(view: SessionView, runId: string, requestIndex: number, text: string): SessionView {
  const ensured = ensureAssistantTurn(view, runId, requestIndex);
  const cleared =
    ensured.manualTurn?.requestIndex === requestIndex ? { ...ensured, manualTurn: undefined } : ensured;
  return updateTurn(cleared, assistantTurnId(runId, requestIndex), (turn) => ({
    ...turn,
    text,
    streaming: false,
  }));
}

export function applyRunnerEvent(view: SessionView, event: WireRunnerEvent, seq: number): SessionView {
  return applySkillResourceEvent(
    observedSandbox(applyRunnerEventToView(view, event, seq), event, seq),
    event,
  );
}

function applyRunnerEventToView(view: SessionView, event: WireRunnerEvent, seq: number): SessionView {
  switch (event.type) {
    case "run_started": {
      const userTurn: ChatTurn = {
        kind: "user",
        id: `user-${event.runId}`,
        text: event.userMessage,
        runId: event.runId,
        skill: event.skill,
      };
      // After a reopen the history is shown first; if the server then replays the events that made that
      // history (seq before session_opened), the replay replaces it so nothing shows twice.
      let base = view;
      if (view.turnsFromHistory) {
        const replay = seq <= view.openedSeq;
        base = replay
          ? {
              ...view,
              turns: records.emptyRecords(turnKey),
              toolCalls: records.emptyRecords(callKey),
              turnsFromHistory: false,
            }
          : { ...view, turnsFromHistory: false };
      }
      // A branch's first run continues the copied conversation: no user message of its own.
      if (event.continues || records.has(base.turns, userTurn.id))
        return { ...base, running: true, currentRunId: event.runId };
      return { ...addTurn(base, userTurn), running: true, currentRunId: event.runId };
    }
    case "request": {
      // The request stays a reference: its blobs join the store, the panes resolve it when shown.
      view.store.addBlobs(event.blobs);
      const snapshot = event.snapshot;
      const request: RequestView = {
        requestIndex: snapshot.requestIndex,
        runId: event.runId,
        snapshot,
        store: view.store,
      };
      const last = view.requests[view.requests.length - 1];
      let requests: RequestView[];
      if (!last || last.requestIndex < snapshot.requestIndex) requests = [...view.requests, request];
      else {
        const existing = view.requests.find((entry) => entry.requestIndex === snapshot.requestIndex);
        requests = [
          ...view.requests.filter((entry) => entry.requestIndex !== snapshot.requestIndex),
          { ...existing, ...request },
        ].sort((left, right) => left.requestIndex - right.requestIndex);
      }
      return ensureAssistantTurn({ ...view, requests }, event.runId, snapshot.requestIndex);
    }
    case "provider_payload":
    case "usage": {
      if (event.type === "provider_payload") view.store.addBlobs(event.blobs);
      const requests = updateRequest(view.requests, event.requestIndex, (request) =>
        event.type === "usage"
          ? {
              ...request,
              usage: event.usage,
              ...(event.cacheCheck ? { cacheCheck: event.cacheCheck } : {}),
            }
          : { ...request, payload: event.hash, ...(event.routing ? { routing: event.routing } : {}) },
      );
      return requests === view.requests ? view : { ...view, requests };
    }
    case "cache_stats":
      return { ...view, cacheStats: event.stats };
    case "provider_notice": {
      const turn: ChatTurn = {
        kind: "error",
        id: `notice-${event.runId}-${event.requestIndex}-${event.code}`,
        code: event.code,
        message: event.message,
      };
      return records.has(view.turns, turn.id) ? view : addTurn(view, turn);
    }
    case "provider_retry": {
      const turn: ChatTurn = {
        kind: "retry",
        id: `retry-${event.runId}-${event.requestIndex}-${event.attempt}`,
        requestIndex: event.requestIndex,
        attempt: event.attempt,
        delayMs: event.delayMs,
        reason: event.reason,
      };
      return addTurn(view, turn);
    }
    case "text_delta": {
      const ensured = ensureAssistantTurn(view, event.runId, event.requestIndex);
      return updateTurn(ensured, assistantTurnId(event.runId, event.requestIndex), (turn) => ({
        ...turn,
        text: turn.text + event.text,
      }));
    }
    // Logs before format 2 carry an assistant message twice: here, and in the history_appended after it.
    case "assistant_message":
      return assistantMessage(view, event.runId, event.requestIndex, event.message.content);
    case "tool_call": {
      const ensured = ensureAssistantTurn(view, event.runId, event.requestIndex, event.console === true);
      const call: ToolCallView = {
        id: event.call.id,
        name: event.call.name,
        input: event.call.input,
        runId: event.runId,
        requestIndex: event.requestIndex,
        state: "pending",
        known: event.known,
        visible: event.visible,
        ...(event.console ? { byHand: true } : {}),
      };
      const withCall = { ...ensured, toolCalls: records.append(ensured.toolCalls, call) };
      return updateTurn(withCall, assistantTurnId(event.runId, event.requestIndex), (turn) =>
        turn.toolCallIds.includes(call.id) ? turn : { ...turn, toolCallIds: [...turn.toolCallIds, call.id] },
      );
    }
    case "permission_request": {
      const callId = event.request.callId;
      const known = records.has(view.toolCalls, callId);
      // Approvals from the tool console have no tool_call event: give them a card of their own.
      const toolCalls = known
        ? view.toolCalls
        : records.append(view.toolCalls, {
            id: callId,
            name: event.request.tool,
            input: event.request.input,
            runId: event.runId,
            requestIndex: 0,
            state: "pending" as const,
            known: true,
            visible: true,
            ...(event.console ? { byHand: true } : {}),
          });
      const withCall = { ...view, toolCalls };
      const updated = updateCall(withCall, callId, (call) => ({
        ...call,
        state: "awaiting_approval",
        approval: event.request,
      }));
      if (updated.pendingApprovals.includes(callId)) return updated;
      return { ...updated, pendingApprovals: [...updated.pendingApprovals, callId] };
    }
    case "permission_decision": {
      const cleared = withoutApproval(view, event.callId);
      return updateCall(cleared, event.callId, (call) => {
        if (event.trace.decision === "deny") {
          const reason = event.answer?.kind === "deny" ? event.answer.reason : event.trace.reason;
          return { ...call, state: "denied", trace: event.trace, denialReason: reason ?? event.trace.rule };
        }
        return {
          ...call,
          state: call.state === "awaiting_approval" ? "pending" : call.state,
          trace: event.trace,
        };
      });
    }
    case "tool_started":
      return updateCall(view, event.callId, (call) => ({ ...call, state: "running" }));
    case "tool_result": {
      const cleared = withoutApproval(view, event.callId);
      return updateCall(cleared, event.callId, (call) => ({
        ...call,
        state: event.result.ok
          ? "done"
          : event.result.errorType === "permission_denied" || call.state === "denied"
            ? "denied"
            : "error",
        result: event.result,
        durationMs: event.durationMs,
        fullOutput: event.fullOutput,
        trace: event.trace ?? call.trace,
      }));
    }
    case "skill_activated": {
      const activeSkills = view.activeSkills.includes(event.name)
        ? view.activeSkills
        : [...view.activeSkills, event.name];
      return { ...view, activeSkills };
    }
    case "skill_resource_read":
    case "skill_resource_used":
      return view;
    case "tools_registered": {
      const added = event.tools.filter((tool) => !view.registeredTools.includes(tool));
      return added.length ? { ...view, registeredTools: [...view.registeredTools, ...added] } : view;
    }
    case "history_appended": {
      // A message the store has (the session_opened history, a replay after it) is not added twice.
      view.store.append(seq, event.message, event.figures);
      const appended = view;
      if (event.message.role !== "assistant") return appended;
      // An assistant message names its request: it is that turn's final text too (one event since format 2).
      if (event.requestIndex !== undefined)
        return assistantMessage(appended, event.runId, event.requestIndex, event.message.content);
      // An isolated slash run's answer joins the conversation without a request (its own messages stay
      // private): it is the text of the run's last turn when nothing else gave that turn its text.
      const last = records.findLast(
        appended.turns,
        (turn) => turn.kind === "assistant" && turn.runId === event.runId,
      );
      if (last?.kind !== "assistant" || last.text !== "" || last.requestIndex === undefined) return appended;
      return assistantMessage(appended, event.runId, last.requestIndex, event.message.content);
    }
    case "stop": {
      const turns = records.updateWhere(view.turns, (turn) =>
        turn.kind === "assistant" && turn.runId === event.runId && turn.streaming
          ? { ...turn, streaming: false }
          : turn,
      );
      const stopTurn: ChatTurn = {
        kind: "stop",
        id: `stop-${event.runId}`,
        runId: event.runId,
        reason: event.reason,
        message: event.message,
        iterations: event.iterations,
      };
      // A run that stops leaves no call awaiting an answer; calls still open were cut short.
      const toolCalls = records.updateWhere(view.toolCalls, (call) =>
        call.runId === event.runId && ["pending", "awaiting_approval", "running"].includes(call.state)
          ? { ...call, state: "error" as const, denialReason: undefined }
          : call,
      );
      const pendingApprovals = view.pendingApprovals.filter(
        (id) => records.get(view.toolCalls, id)?.runId !== event.runId,
      );
      const already = records.has(turns, stopTurn.id);
      return {
        ...view,
        turns: already ? turns : records.append(turns, stopTurn),
        toolCalls,
        pendingApprovals,
        running: false,
        currentRunId: undefined,
        manualTurn: view.manualTurn?.runId === event.runId ? undefined : view.manualTurn,
      };
    }
  }
}

/** Chat turns for a session opened from its stored history (no live events yet). */
export function turnsFromHistory(history: readonly ChatMessage[]): {
  turns: records.Records<ChatTurn>;
  toolCalls: records.Records<ToolCallView>;
} {
  const turns: ChatTurn[] = [];
  const toolCalls = new Map<string, ToolCallView>();
  history.forEach((message, index) => {
    const id = `history-${index}`;
    if (message.role === "user") turns.push({ kind: "user", id, text: message.content });
    else if (message.role === "assistant") {
      for (const call of message.toolCalls) {
        toolCalls.set(call.id, {
          id: call.id,
          name: call.name,
          input: call.input,
          runId: "history",
          requestIndex: 0,
          state: "done",
          known: true,
          visible: true,
        });
      }
      turns.push({
        kind: "assistant",
        id,
        text: message.content,
        streaming: false,
        toolCallIds: message.toolCalls.map((call) => call.id),
      });
    } else {
      const call = toolCalls.get(message.toolCallId);
      if (call) {
        const result: HistoryToolResult = {
          ok: !message.isError,
          tool: message.toolName,
          content: message.content,
        };
        toolCalls.set(message.toolCallId, { ...call, state: message.isError ? "error" : "done", result });
      } else
        turns.push({
          kind: "tool_message",
          id,
          toolName: message.toolName,
          content: message.content,
          isError: message.isError,
        });
    }
  });
  return {
    turns: records.recordsOf(turnKey, turns),
    toolCalls: records.recordsOf(callKey, [...toolCalls.values()]),
  };
}
