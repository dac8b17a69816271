// A batch with runs of text deltas gives the view the same messages give one by one (events in through the
// public reducer, the chat's turns out through the selectors).
import { describe, expect, it } from "vitest";
import type { ServerMessage } from "../../server/protocol/index.ts";
import { deltaRunEnd } from "./delta-runs.ts";
import { initialUiState, uiReducer } from "./reducer.ts";
import { turnsOf } from "./selectors.ts";
import { envelope, requestEvent, snapshot, summary } from "./test-builders.ts";
import type { UiState } from "./types.ts";

const opened: ServerMessage = envelope(1, {
  type: "session_opened",
  session: summary(),
  history: [],
  activeSkills: [],
});

const delta = (seq: number, text: string, requestIndex = 1, runId = "r1", sessionId = "s1") =>
  envelope(seq, { type: "text_delta", runId, requestIndex, text }, sessionId);

/** Two requests' answers of many words each, a tool call between them, another session's delta inside. */
function stream(): ServerMessage[] {
  const messages: ServerMessage[] = [
    opened,
    envelope(2, { type: "run_started", runId: "r1", userMessage: "go" }),
    envelope(3, requestEvent(snapshot())),
  ];
  let seq = 4;
  for (let word = 0; word < 300; word++) messages.push(delta(seq++, `one${word} `));
  messages.push(delta(1, "elsewhere ", 1, "r9", "s2"));
  for (let word = 0; word < 5; word++) messages.push(delta(seq++, `more${word} `));
  messages.push(
    envelope(seq++, {
      type: "tool_call",
      runId: "r1",
      requestIndex: 1,
      call: { id: "c1", name: "read_file", input: { path: "a" } },
      known: true,
      visible: true,
    }),
  );
  messages.push(envelope(seq++, requestEvent(snapshot({ requestIndex: 2, iteration: 2 }))));
  for (let word = 0; word < 200; word++) messages.push(delta(seq++, `two${word} `, 2));
  return messages;
}

function oneByOne(messages: ServerMessage[], start: UiState = initialUiState): UiState {
  return messages.reduce((state, message) => uiReducer(state, { type: "server", message }), start);
}

function batched(messages: ServerMessage[], start: UiState = initialUiState): UiState {
  return uiReducer(start, { type: "server_batch", messages });
}

describe("a batch's runs of text deltas", () => {
  it("give the turns and the last seq the same deltas give one by one", () => {
    const messages = stream();
    const expected = oneByOne(messages);
    const actual = batched(messages);
    expect(turnsOf(actual.session!)).toEqual(turnsOf(expected.session!));
    expect(actual.session!.lastSeq).toBe(expected.session!.lastSeq);
    const answers = turnsOf(actual.session!).filter((turn) => turn.kind === "assistant");
    expect(answers.map((turn) => (turn.kind === "assistant" ? turn.text.split(" ").length - 1 : 0))).toEqual([
      305, 200,
    ]);
  });

  it("leave out the deltas a reconnect replays again, as one by one does", () => {
    const first = oneByOne([
      opened,
      envelope(2, { type: "run_started", runId: "r1", userMessage: "go" }),
      delta(3, "a"),
      delta(4, "b"),
    ]);
    const again = [
      envelope(10, { type: "session_opened", session: summary(), history: [], activeSkills: [] }),
      delta(3, "a"),
      delta(4, "b"),
      delta(5, "c"),
      delta(6, "d"),
    ];
    const expected = oneByOne(again, first);
    const actual = batched(again, first);
    expect(turnsOf(actual.session!)).toEqual(turnsOf(expected.session!));
    const answer = turnsOf(actual.session!).find((turn) => turn.kind === "assistant");
    expect(answer?.kind === "assistant" && answer.text).toBe("abcd");
    expect(actual.session!.lastSeq).toBe(6);
  });

  it("end at another request, run or session, at anything but a delta, and where seqs stop rising", () => {
    const messages = [
      delta(1, "a"),
      delta(2, "b"),
      delta(3, "c", 2),
      delta(4, "d", 2, "r2"),
      delta(5, "e", 2, "r2", "s2"),
      delta(5, "f", 2, "r2", "s2"),
      opened,
    ];
    const ends: number[] = [];
    for (let index = 0; index < messages.length; index = deltaRunEnd(messages, index))
      ends.push(deltaRunEnd(messages, index));
    expect(ends).toEqual([2, 3, 4, 5, 6, 7]);
  });
});
