import { describe, expect, it } from "vitest";
import type { ServerMessage } from "../../server/protocol/index.ts";
import { initialUiState, uiReducer } from "./reducer.ts";
import {
  envelope,
  payloadBlobs,
  requestEvent,
  skill,
  snapshot,
  summary,
  tool,
  wireRequest,
} from "./test-builders.ts";
import { requestPayload } from "./snapshot-view.ts";
import type { UiState } from "./types.ts";
import { skillStage } from "./derive.ts";
import { turnsOf, callsOf } from "./selectors.ts";

function run(messages: ServerMessage[], start: UiState = initialUiState): UiState {
  return uiReducer(start, { type: "server_batch", messages });
}

const opened: ServerMessage = envelope(1, {
  type: "session_opened",
  session: summary(),
  history: [],
  activeSkills: [],
});

describe("uiReducer", () => {
  it("records hello, providers and the session list", () => {
    const state = run([
      {
        type: "hello",
        serverVersion: "0.1.0",
        defaultWorkdir: "/tmp/demo",
        providers: [{ name: "scripted", configured: true, defaultModel: "scripted-1", offline: true }],
      },
      { type: "session_list", sessions: [summary("a"), summary("b")] },
    ]);
    expect(state.connection).toBe("open");
    expect(state.providers.map((provider) => provider.name)).toEqual(["scripted"]);
    expect(state.sessions.map((session) => session.id)).toEqual(["a", "b"]);
  });

  it("streams text into one assistant turn linked to its request", () => {
    const state = run([
      opened,
      envelope(2, { type: "run_started", runId: "r1", userMessage: "review it" }),
      envelope(3, requestEvent(snapshot())),
      envelope(4, { type: "text_delta", runId: "r1", requestIndex: 1, text: "Let me " }),
      envelope(5, { type: "text_delta", runId: "r1", requestIndex: 1, text: "look." }),
    ]);
    const turns = turnsOf(state.session!);
    expect(turns.map((turn) => turn.kind)).toEqual(["user", "assistant"]);
    const assistant = turns[1];
    expect(assistant.kind === "assistant" && assistant.text).toBe("Let me look.");
    expect(assistant.kind === "assistant" && assistant.requestIndex).toBe(1);
    expect(state.session!.running).toBe(true);
    expect(state.session!.requests).toHaveLength(1);
  });

  it("moves a tool call through approval, running and done", () => {
    const base = run([
      opened,
      envelope(2, { type: "run_started", runId: "r1", userMessage: "go" }),
      envelope(3, {
        type: "tool_call",
        runId: "r1",
        requestIndex: 1,
        call: { id: "c1", name: "lint", input: { path: "a.ts" } },
        known: true,
        visible: true,
      }),
    ]);
    expect(callsOf(base.session!).c1.state).toBe("pending");
    const asking = run(
      [
        envelope(4, {
          type: "permission_request",
          runId: "r1",
          request: {
            callId: "c1",
            tool: "lint",
            category: "exec",
            input: { path: "a.ts" },
            command: "node lint.js",
            cwd: "/skills/lint",
            stdin: '{"path":"a.ts"}',
            trace: { decision: "ask", source: "mode", category: "exec" },
          },
        }),
      ],
      base,
    );
    expect(callsOf(asking.session!).c1.state).toBe("awaiting_approval");
    expect(asking.session!.pendingApprovals).toEqual(["c1"]);
    expect(callsOf(asking.session!).c1.approval?.stdin).toBe('{"path":"a.ts"}');
    const done = run(
      [
        envelope(5, {
          type: "permission_decision",
          runId: "r1",
          callId: "c1",
          trace: { decision: "allow", source: "user", category: "exec" },
          answer: { kind: "allow_once" },
        }),
        envelope(6, { type: "tool_started", runId: "r1", callId: "c1", tool: "lint" }),
      ],
      asking,
    );
    expect(done.session!.pendingApprovals).toEqual([]);
    expect(callsOf(done.session!).c1.state).toBe("running");
    const finished = run(
      [
        envelope(7, {
          type: "tool_result",
          runId: "r1",
          callId: "c1",
          result: { ok: true, tool: "lint", content: "clean" },
          durationMs: 42,
        }),
      ],
      done,
    );
    expect(callsOf(finished.session!).c1).toMatchObject({ state: "done", durationMs: 42 });
  });

  it("marks a denied call with the user's reason", () => {
    const state = run([
      opened,
      envelope(2, {
        type: "tool_call",
        runId: "r1",
        requestIndex: 1,
        call: { id: "c1", name: "run_command", input: {} },
        known: true,
        visible: true,
      }),
      envelope(3, {
        type: "permission_decision",
        runId: "r1",
        callId: "c1",
        trace: { decision: "deny", source: "user", category: "exec" },
        answer: { kind: "deny", reason: "not on my machine" },
      }),
      envelope(4, {
        type: "tool_result",
        runId: "r1",
        callId: "c1",
        result: {
          ok: false,
          tool: "run_command",
          content: "denied",
          errorType: "permission_denied",
          error: "denied",
          metadata: { permission: { decision: "deny", source: "user", category: "exec" } },
        },
        durationMs: 0,
      }),
    ]);
    expect(callsOf(state.session!).c1).toMatchObject({ state: "denied", denialReason: "not on my machine" });
  });

  it("ignores duplicate events after a reconnect and keeps turns when the same session reopens", () => {
    const first = run([
      opened,
      envelope(2, { type: "run_started", runId: "r1", userMessage: "hello" }),
      envelope(3, { type: "text_delta", runId: "r1", requestIndex: 1, text: "Hi" }),
    ]);
    const again = run(
      [
        envelope(10, { type: "session_opened", session: summary(), history: [], activeSkills: [] }),
        envelope(3, { type: "text_delta", runId: "r1", requestIndex: 1, text: "Hi" }),
        envelope(4, { type: "text_delta", runId: "r1", requestIndex: 1, text: "!" }),
      ],
      first,
    );
    const assistant = turnsOf(again.session!).find((turn) => turn.kind === "assistant");
    expect(assistant?.kind === "assistant" && assistant.text).toBe("Hi!");
    expect(again.session!.lastSeq).toBe(4);
  });

  it("rebuilds turns from history on a fresh open, and a replay of older events replaces them", () => {
    const history: ServerMessage = envelope(20, {
      type: "session_opened",
      session: summary(),
      history: [
        { role: "user", content: "hello" },
        {
          role: "assistant",
          content: "",
          toolCalls: [{ id: "c9", name: "read_file", input: { path: "a" } }],
        },
        { role: "tool", toolCallId: "c9", toolName: "read_file", content: "text", isError: false },
        { role: "assistant", content: "done", toolCalls: [] },
      ],
      activeSkills: ["review"],
    });
    const state = run([history]);
    expect(turnsOf(state.session!).map((turn) => turn.kind)).toEqual(["user", "assistant", "assistant"]);
    expect(callsOf(state.session!).c9).toMatchObject({ state: "done", result: { content: "text" } });
    expect(state.session!.activeSkills).toEqual(["review"]);
    const replayed = run([envelope(2, { type: "run_started", runId: "r1", userMessage: "hello" })], state);
    expect(turnsOf(replayed.session!).map((turn) => turn.kind)).toEqual(["user"]);
    const live = run([envelope(21, { type: "run_started", runId: "r2", userMessage: "more" })], state);
    expect(turnsOf(live.session!).map((turn) => turn.kind)).toEqual([
      "user",
      "assistant",
      "assistant",
      "user",
    ]);
  });

  it("tracks a skill from listed to tools visible", () => {
    const review = skill("review", ["lint"]);
    const withCatalog = run([
      opened,
      envelope(2, {
        type: "catalog_snapshot",
        catalog: { skills: [review], warnings: [], removed: [], shadowed: [], lint: [] },
        visibleTools: ["load_skill"],
        registeredTools: ["load_skill"],
      }),
    ]);
    expect(skillStage(review, withCatalog.session!)).toBe("listed");
    const loaded = run(
      [
        envelope(3, { type: "skill_activated", runId: "r1", name: "review", source: "builtin", position: 1 }),
        envelope(4, { type: "tools_registered", runId: "r1", skill: "review", tools: ["lint"] }),
        envelope(5, requestEvent(snapshot({ requestIndex: 2, registeredNotVisible: ["lint"] }))),
      ],
      withCatalog,
    );
    expect(skillStage(review, loaded.session!)).toBe("tools_registered");
    const visible = run(
      [
        envelope(
          6,
          requestEvent(
            snapshot({ runId: "r2", requestIndex: 3, tools: [tool("load_skill"), tool("lint", "skill")] }),
          ),
        ),
      ],
      loaded,
    );
    expect(skillStage(review, visible.session!)).toBe("tools_visible");
  });

  it("keeps a stop turn, ends the run and closes open calls", () => {
    const state = run([
      opened,
      envelope(2, { type: "run_started", runId: "r1", userMessage: "slow" }),
      envelope(3, {
        type: "tool_call",
        runId: "r1",
        requestIndex: 1,
        call: { id: "c1", name: "sleep", input: {} },
        known: true,
        visible: true,
      }),
      envelope(4, { type: "tool_started", runId: "r1", callId: "c1", tool: "sleep" }),
      envelope(5, { type: "stop", runId: "r1", reason: "canceled", iterations: 1 }),
    ]);
    expect(state.session!.running).toBe(false);
    expect(callsOf(state.session!).c1.state).toBe("error");
    expect(turnsOf(state.session!).at(-1)).toMatchObject({ kind: "stop", reason: "canceled" });
  });

  it("keeps a request's cache check, the session's newest cache_stats, and a provider notice as a chat line", () => {
    const stats = {
      requests: 1,
      figures: { reported: 1, predicted: 0 },
      source: "provider" as const,
      hit_ratio: 0.5,
      cache_read_tokens: 10,
      cache_write_tokens: 5,
      uncached_tokens: 5,
      misses: 0,
      miss_causes: {},
      last_miss_at: null,
      last_miss_cause: null,
      expected_rebuilds: 0,
      miss_recache_tokens: 0,
      recache_tokens_if_cold: 15,
      ttl: "5m" as const,
      expires_at: "2026-12-02T10:05:00.000Z",
      warm: true,
      disagreements: 0,
      at: "2026-12-02T10:00:00.000Z",
    };
    const state = run([
      opened,
      envelope(2, requestEvent(snapshot())),
      envelope(3, {
        type: "usage",
        runId: "r1",
        requestIndex: 1,
        usage: { inputTokens: 5 },
        cacheCheck: {
          verdict: "disagree",
          predicted: null,
          reported: "tools_changed",
          text: "provider: tools_changed",
        },
      }),
      envelope(4, {
        type: "provider_notice",
        runId: "r1",
        requestIndex: 1,
        code: "cache_diagnostics_rejected",
        message: "the server refused the cache diagnostics parameter",
      }),
      envelope(5, { type: "cache_stats", runId: "r1", stats: { ...stats, misses: 7 } }),
      envelope(6, { type: "cache_stats", runId: "r1", stats }),
    ]);
    const session = state.session!;
    expect(session.requests[0].cacheCheck?.verdict).toBe("disagree");
    expect(session.cacheStats).toEqual(stats);
    expect(turnsOf(session).at(-1)).toMatchObject({ kind: "error", code: "cache_diagnostics_rejected" });
  });

  it("records manual turns, console results, reload diffs, usage, payloads and errors", () => {
    const state = run([
      opened,
      envelope(2, requestEvent(snapshot())),
      envelope(3, {
        type: "manual_turn_requested",
        runId: "r1",
        requestIndex: 1,
        ...wireRequest(snapshot()),
      }),
      envelope(4, {
        type: "usage",
        runId: "r1",
        requestIndex: 1,
        usage: { inputTokens: 100, cacheReadInputTokens: 80 },
      }),
      envelope(5, {
        type: "provider_payload",
        runId: "r1",
        requestIndex: 1,
        ...payloadBlobs({ model: "x" }),
      }),
      envelope(6, {
        type: "catalog_diff",
        diff: { added: ["new"], removed: [], updated: ["review"] },
        warnings: [],
        trigger: "manual",
      }),
      envelope(7, {
        type: "tool_console_result",
        requestId: "q1",
        tool: "lint",
        input: {},
        result: { ok: true, tool: "lint", content: "ok" },
        durationMs: 5,
      }),
      envelope(8, { type: "session_error", code: "provider_error", message: "bad key" }),
      { type: "error", code: "invalid_command", message: "unknown type", command: "nope" },
    ]);
    const session = state.session!;
    expect(session.manualTurn?.requestIndex).toBe(1);
    expect(session.requests[0]).toMatchObject({ usage: { inputTokens: 100 } });
    expect(requestPayload(session.requests[0])).toEqual({ model: "x" });
    expect(session.manualTurn?.snapshot).toEqual(snapshot());
    expect(session.reloadFeed[0].diff.added).toEqual(["new"]);
    expect(session.consoleResults.q1.result?.content).toBe("ok");
    expect(turnsOf(session).at(-1)).toMatchObject({ kind: "error", message: "bad key" });
    expect(state.errors[0].message).toContain("unknown type");
    const answered = run(
      [
        envelope(9, {
          type: "assistant_message",
          runId: "r1",
          requestIndex: 1,
          message: { role: "assistant", content: "hi", toolCalls: [] },
        }),
      ],
      state,
    );
    expect(answered.session!.manualTurn).toBeUndefined();
  });

  it("applies 10,000 streamed text deltas quickly", () => {
    const messages: ServerMessage[] = [
      opened,
      envelope(2, { type: "run_started", runId: "r1", userMessage: "long" }),
    ];
    for (let index = 0; index < 10_000; index += 1) {
      messages.push(envelope(3 + index, { type: "text_delta", runId: "r1", requestIndex: 1, text: "word " }));
    }
    const started = performance.now();
    const state = run(messages);
    const elapsed = performance.now() - started;
    const assistant = turnsOf(state.session!)[1];
    expect(assistant.kind === "assistant" && assistant.text.length).toBe(50_000);
    console.log(`10,000 deltas reduced in ${elapsed.toFixed(0)} ms`);
    expect(elapsed).toBeLessThan(2_000);
  });

  it("gives tool-console calls their own by-hand card, approval included", () => {
    const state = run([
      opened,
      envelope(2, {
        type: "permission_request",
        runId: "console_q1",
        request: {
          callId: "console_q1",
          tool: "profile_csv",
          category: "exec",
          input: { path: "a.csv" },
          cwd: "/skills/csv-report",
          trace: { decision: "ask", source: "mode", category: "exec" },
        },
      }),
    ]);
    expect(state.session!.pendingApprovals).toEqual(["console_q1"]);
    expect(callsOf(state.session!).console_q1.state).toBe("awaiting_approval");
    const withCall = run(
      [
        envelope(3, {
          type: "tool_call",
          runId: "console_q2",
          requestIndex: 0,
          console: true,
          call: { id: "console_q2", name: "load_skill", input: {} },
          known: true,
          visible: true,
        }),
      ],
      state,
    );
    const turn = turnsOf(withCall.session!).at(-1);
    expect(turn).toMatchObject({
      kind: "assistant",
      byHand: true,
      requestIndex: undefined,
      streaming: false,
    });
  });

  it("a settings change keeps the title the session list has since learned (the first message names it)", () => {
    const titled: ServerMessage = {
      type: "session_list",
      sessions: [{ ...summary(), title: "review src/orders.js" }],
    };
    const state = run([
      opened,
      titled,
      envelope(2, {
        type: "settings_changed",
        settings: { ...summary().settings, cacheAs: "claude-haiku-4-5" },
      }),
    ]);
    expect(state.sessions[0]).toMatchObject({
      title: "review src/orders.js",
      settings: { cacheAs: "claude-haiku-4-5" },
    });
  });

  it("applies settings changes, retries, deletions and exports", () => {
    const state = run([
      opened,
      envelope(2, { type: "settings_changed", settings: { ...summary().settings, disclosure: "eager" } }),
      envelope(3, {
        type: "provider_retry",
        runId: "r1",
        requestIndex: 1,
        attempt: 1,
        delayMs: 1500,
        reason: "429 rate limited",
      }),
      { type: "session_export", sessionId: "s1", fileName: "s1.jsonl", jsonl: "{}\n" },
    ]);
    expect(state.session!.settings.disclosure).toBe("eager");
    expect(state.sessions[0].settings.disclosure).toBe("eager");
    expect(turnsOf(state.session!).at(-1)).toMatchObject({
      kind: "retry",
      attempt: 1,
      reason: "429 rate limited",
    });
    expect(state.pendingExport?.fileName).toBe("s1.jsonl");
    const exported = uiReducer(state, { type: "export_done" });
    expect(exported.pendingExport).toBeUndefined();
    const deleted = run([{ type: "session_deleted", sessionId: "s1" }], exported);
    expect(deleted.session).toBeUndefined();
    expect(deleted.sessions).toEqual([]);
  });

  it("ignores events of other sessions and message types it does not know", () => {
    const state = run([
      opened,
      envelope(2, { type: "run_started", runId: "r9", userMessage: "elsewhere" }, "other"),
    ]);
    expect(turnsOf(state.session!)).toEqual([]);
    const unknown = { type: "from_the_future" } as unknown as ServerMessage;
    expect(run([unknown], state)).toBe(state);
  });
});
