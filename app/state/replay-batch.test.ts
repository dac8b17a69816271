// A reopened session's replay arrives as one batch and is folded over the session's view (delta-runs.ts:
// the state around it is made once a run of such events ends). What the page shows must be what the
// same messages give one by one: the turns, the calls, the requests, the last seq, the session list — with
// events that change more than the view (a run's start, the folder's trust, the settings) in between,
// another session's events, and events a reconnect sends twice.
import { describe, expect, it } from "vitest";
import type { ServerMessage } from "../../server/protocol/index.ts";
import { initialUiState, uiReducer } from "./reducer.ts";
import { toArray } from "./records.ts";
import { envelope, requestEvent, snapshot, summary } from "./test-builders.ts";
import type { UiState } from "./types.ts";

const untrusted = {
  folder: "/tmp/demo",
  trusted: false,
  grants: { allow: ["run_command(*)"], mcpServers: [] },
};

/** Two runs of three requests each (a call, its result, the usage, an answer), as a log replays them. */
function replay(): ServerMessage[] {
  const messages: ServerMessage[] = [
    envelope(40, { type: "session_opened", session: summary(), activeSkills: [] }),
  ];
  let seq = 1;
  for (const runId of ["r1", "r2"]) {
    messages.push(envelope(seq++, { type: "run_started", runId, userMessage: `go ${runId}` }));
    for (let request = 1; request <= 3; request++) {
      const requestIndex = (runId === "r1" ? 0 : 3) + request;
      const callId = `call-${requestIndex}`;
      messages.push(
        envelope(seq++, { ...requestEvent(snapshot({ requestIndex })), runId }),
        envelope(seq++, {
          type: "tool_call",
          runId,
          requestIndex,
          call: { id: callId, name: "read_file", input: { path: "README.md" } },
          known: true,
          visible: true,
        }),
        envelope(seq++, { type: "tool_started", runId, callId, tool: "read_file" }),
        envelope(seq++, {
          type: "tool_result",
          runId,
          callId,
          durationMs: 2,
          result: { ok: true, tool: "read_file", content: "# hello" },
        }),
        envelope(seq++, { type: "usage", runId, requestIndex, usage: { inputTokens: 10 * requestIndex } }),
        envelope(seq++, { type: "text_delta", runId, requestIndex, text: "Read " }),
        envelope(seq++, { type: "text_delta", runId, requestIndex, text: `it ${requestIndex}.` }),
      );
      if (requestIndex === 2) messages.push(envelope(seq++, { type: "trust_state", trust: untrusted }));
      if (requestIndex === 4)
        messages.push(envelope(seq++, { type: "text_delta", runId, requestIndex: 9, text: "x" }, "other"));
    }
    messages.push(envelope(seq++, { type: "stop", runId, reason: "completed", iterations: 3 }));
  }
  messages.push(
    envelope(seq++, { type: "settings_changed", settings: { ...summary().settings, model: "other" } }),
  );
  // A reconnect's replay of what the view has already (the seqs of the first run again).
  return [...messages, ...messages.slice(1, 12)];
}

function oneByOne(state: UiState, messages: ServerMessage[]): UiState {
  return messages.reduce((next, message) => uiReducer(next, { type: "server", message }), state);
}

const hello: UiState = { ...initialUiState, sessions: [summary()] };

describe("a replay applied as one batch", () => {
  it("gives the view the same messages give one by one", () => {
    const messages = replay();
    const batched = uiReducer(hello, { type: "server_batch", messages });
    const single = oneByOne(hello, messages);
    const view = batched.session!;
    const expected = single.session!;
    expect(view.lastSeq).toBe(expected.lastSeq);
    expect(view.lastSeq).toBeGreaterThan(40);
    expect(toArray(view.turns)).toEqual(toArray(expected.turns));
    expect(toArray(view.toolCalls)).toEqual(toArray(expected.toolCalls));
    expect(view.requests.map(({ store: _store, ...request }) => request)).toEqual(
      expected.requests.map(({ store: _store, ...request }) => request),
    );
    expect(view.requests.map((request) => request.usage?.inputTokens)).toEqual([10, 20, 30, 40, 50, 60]);
    expect(view.summary).toEqual(expected.summary);
    expect(view.summary.trust).toEqual(untrusted);
    expect(view.settings.model).toBe("other");
    expect(view.running).toBe(expected.running);
    expect(batched.sessions).toEqual(single.sessions);
    expect(
      toArray(view.turns)
        .filter((turn) => turn.kind === "assistant")
        .map((turn) => turn.text),
    ).toEqual([1, 2, 3, 4, 5, 6].map((index) => `Read it ${index}.`));
  });

  it("leaves the state it started from as it was", () => {
    const first = uiReducer(hello, { type: "server_batch", messages: replay().slice(0, 20) });
    const turns = first.session!.turns;
    const requests = first.session!.requests;
    const lastSeq = first.session!.lastSeq;
    const shown = requests.map((request) => ({ ...request }));
    uiReducer(first, { type: "server_batch", messages: replay().slice(20) });
    expect(first.session!.turns).toBe(turns);
    expect(first.session!.requests).toBe(requests);
    expect(first.session!.requests).toEqual(shown);
    expect(first.session!.lastSeq).toBe(lastSeq);
  });
});
