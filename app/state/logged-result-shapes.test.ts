// Old session logs still open: tool results logged before the typed results (the skill tools' and the
// file tools' metadata of that time, no `effects`, skill_activated without arguments) apply and render.
import { describe, expect, it } from "vitest";
import type { ServerMessage } from "../../server/protocol/index.ts";
import { truncationNotes } from "../components/tool-console.tsx";
import { initialUiState, uiReducer } from "./reducer.ts";
import { envelope, summary } from "./test-builders.ts";
import { callsOf } from "./selectors.ts";

/** Lines as an older server wrote them to the log, parsed as the page receives them on replay. */
const loggedLines = [
  {
    type: "tool_call",
    runId: "r1",
    requestIndex: 1,
    call: { id: "c1", name: "load_skill", input: { name: "rows" } },
    known: true,
    visible: true,
  },
  {
    type: "tool_result",
    runId: "r1",
    callId: "c1",
    durationMs: 3,
    result: {
      ok: true,
      tool: "load_skill",
      content: 'loaded skill "rows" (1 specialized tools registered)',
      metadata: {
        skill: "rows",
        registered_tools: ["count_rows"],
        source: "builtin",
        position: 0,
        skipped_tools: [],
        bodyFromDisk: true,
      },
    },
  },
  { type: "skill_activated", runId: "r1", name: "rows", source: "builtin", position: 0 },
  { type: "tools_registered", runId: "r1", skill: "rows", tools: ["count_rows"] },
  {
    type: "tool_call",
    runId: "r1",
    requestIndex: 1,
    call: { id: "c2", name: "count_rows", input: { text: "a" } },
    known: true,
    visible: false,
  },
  {
    type: "tool_result",
    runId: "r1",
    callId: "c2",
    durationMs: 9,
    fullOutput: "x".repeat(40),
    result: {
      ok: false,
      tool: "count_rows",
      content: "count_rows failed with exit code 3:\nbad",
      errorType: "command_failed",
      error: "count_rows failed with exit code 3:\nbad",
      metadata: {
        skill: "rows",
        command: "node count.mjs",
        cwd: "/s",
        exitCode: 3,
        signal: null,
        stderr: "bad",
        modelTruncated: true,
        omittedChars: 12,
        durationMs: 9,
        timeoutMs: 30000,
      },
    },
  },
  {
    type: "tool_call",
    runId: "r1",
    requestIndex: 1,
    call: { id: "c3", name: "read_file", input: { path: "a" } },
    known: true,
    visible: true,
  },
  {
    type: "tool_result",
    runId: "r1",
    callId: "c3",
    durationMs: 1,
    result: {
      ok: true,
      tool: "read_file",
      content: "text",
      metadata: { path: "a", bytes: 4, truncatedForModel: true, omittedChars: 7 },
    },
  },
];

describe("results logged by older servers", () => {
  it("apply to the view and keep what the UI shows from them", () => {
    const replay = JSON.parse(JSON.stringify(loggedLines)) as Extract<
      ServerMessage,
      { type: "event" }
    >["event"][];
    const messages: ServerMessage[] = [
      envelope(1, { type: "session_opened", session: summary(), history: [], activeSkills: [] }),
      {
        type: "event",
        sessionId: "s1",
        seq: 2,
        event: { type: "run_started", runId: "r1", userMessage: "count" },
      },
      ...replay.map((event, index): ServerMessage => ({
        type: "event",
        sessionId: "s1",
        seq: index + 3,
        event,
      })),
    ];
    const state = uiReducer(initialUiState, { type: "server_batch", messages });
    const session = state.session!;
    expect(session.activeSkills).toEqual(["rows"]);
    expect(session.registeredTools).toEqual(["count_rows"]);
    expect(callsOf(session).c1).toMatchObject({ state: "done", result: { ok: true } });
    expect(callsOf(session).c2).toMatchObject({ state: "error", result: { errorType: "command_failed" } });
    expect(callsOf(session).c3).toMatchObject({ state: "done", result: { content: "text" } });
    // The skill tools' old metadata already spoke the one vocabulary: its notes still show.
    expect(truncationNotes(callsOf(session).c2.result?.metadata)).toEqual([
      "model's copy capped (12 chars omitted)",
    ]);
  });
});
