// Logs written by the previous version (format 1) reopen with the same conversation and the same
// inspector timeline: one as that version wrote it (snapshots as `$historyPrefix` references), one as it
// exported it (every snapshot's messages in full); both carry each assistant message twice
// (assistant_message, then history_appended). The page's own reducer rebuilds the view from the replay.
import { readFile, writeFile, mkdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { initialUiState, uiReducer } from "../../app/state/reducer.ts";
import { callsOf, turnsOf } from "../../app/state/selectors.ts";
import type { UiState } from "../../app/state/types.ts";
import type { ChatMessage } from "../protocol/model.ts";
import type { RequestSnapshot } from "../protocol/runner-events.ts";
import type { SessionEvent } from "../protocol/wire.ts";
import { sessionsDirectory } from "../session/session-hub.ts";
import { TestClient, startTestServer, type TestServer } from "./testing/harness.ts";
import { TEST_SCENARIOS } from "./testing/scenarios.ts";

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "session", "fixtures");
const SESSION_ID = "20261202-100000-format1";

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer(TEST_SCENARIOS, { watch: false });
});
afterEach(async () => {
  await server.dispose();
});

/** Installs a fixture log as this server's session (its workdir placeholder set to the test's). */
async function installFixture(name: string): Promise<string> {
  const text = (await readFile(path.join(FIXTURES, name), "utf8"))
    .split("__WORKDIR__")
    .join(server.workdir)
    .split("__SCENARIOS__")
    .join(server.scenariosDir);
  await mkdir(sessionsDirectory(server.home), { recursive: true });
  await writeFile(path.join(sessionsDirectory(server.home), `${SESSION_ID}.jsonl`), text, { mode: 0o600 });
  return text;
}

/** The snapshots of the full-snapshot fixture, with the messages the previous version logged. */
function loggedSnapshots(text: string): RequestSnapshot[] {
  return text
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { kind: string; event?: SessionEvent })
    .flatMap((record) => (record.event?.type === "request" ? [record.event.snapshot] : []));
}

/** Opens the session in a fresh client and plays everything it receives through the page's reducer. */
async function openInPage(): Promise<{ client: TestClient; state: UiState }> {
  const client = await TestClient.connect(server);
  client.send({ type: "open_session", sessionId: SESSION_ID });
  await client.waitForEvent("session_opened", { sessionId: SESSION_ID });
  const lastSeq = (await server.hub.open(SESSION_ID)).lastSeq;
  await client.waitFor(
    (message) =>
      message.type === "event" && message.seq === lastSeq && message.event.type !== "session_opened",
    "the end of the replay",
  );
  const state = client.messages.reduce(
    (current, message) => uiReducer(current, { type: "server", message }),
    initialUiState,
  );
  return { client, state };
}

function timeline(state: UiState) {
  const session = state.session!;
  return {
    requests: session.requests.map((request) => ({
      requestIndex: request.requestIndex,
      runId: request.runId,
      messages: request.snapshot.messages,
      activeSkills: request.snapshot.activeSkills,
    })),
    turns: turnsOf(session).map((turn) =>
      turn.kind === "assistant"
        ? { kind: turn.kind, requestIndex: turn.requestIndex, text: turn.text, streaming: turn.streaming }
        : turn.kind === "user"
          ? { kind: turn.kind, text: turn.text }
          : { kind: turn.kind },
    ),
    calls: Object.values(callsOf(session)).map((call) => [call.name, call.state]),
  };
}

const EXPECTED_ROLES: ChatMessage["role"][] = [
  "user",
  "assistant",
  "tool",
  "assistant",
  "tool",
  "assistant",
  "user",
  "assistant",
];

describe("session logs of format 1", () => {
  it("reopen with the same conversation and inspector timeline, compact or with full snapshots", async () => {
    const full = await installFixture("format-1-full.jsonl");
    const logged = loggedSnapshots(full);
    expect(logged.map((snapshot) => snapshot.messages?.length)).toEqual([1, 3, 5, 7]);
    const fromFull = await openInPage();
    const conversation = await fromFull.client.openedConversation(
      fromFull.client.events(SESSION_ID)[0] as Parameters<TestClient["openedConversation"]>[0],
    );
    expect(conversation.map((message) => message.role)).toEqual(EXPECTED_ROLES);
    fromFull.client.close();
    const fullView = timeline(fromFull.state);
    // Every request shows exactly the messages the previous version logged for it.
    expect(fullView.requests.map((request) => request.messages)).toEqual(
      logged.map((snapshot) => snapshot.messages),
    );
    expect(fullView.requests.map((request) => request.activeSkills)).toEqual([
      [],
      ["review"],
      ["review"],
      ["review"],
    ]);
    expect(fullView.turns).toEqual([
      { kind: "user", text: "please review" },
      { kind: "assistant", requestIndex: 1, text: "Loading the review skill.", streaming: false },
      { kind: "assistant", requestIndex: 2, text: "", streaming: false },
      { kind: "assistant", requestIndex: 3, text: "Findings: none.", streaming: false },
      { kind: "stop" },
      { kind: "user", text: "hello" },
      { kind: "assistant", requestIndex: 4, text: "Hi there, nice to meet you.", streaming: false },
      { kind: "stop" },
    ]);
    expect(fullView.calls).toEqual([
      ["load_skill", "done"],
      ["read_file", "done"],
    ]);
    // An old snapshot has no token figures: the inspector says so instead of guessing.
    expect(fromFull.state.session!.requests[0].snapshot.segments).toBeUndefined();

    // The same session as the previous version wrote it: the same view.
    await server.hub.delete(SESSION_ID);
    await installFixture("format-1-compact.jsonl");
    const fromCompact = await openInPage();
    fromCompact.client.close();
    expect(timeline(fromCompact.state)).toEqual(fullView);
  }, 60_000);

  it("continue in the new format: the next request refers to the restored conversation", async () => {
    await installFixture("format-1-compact.jsonl");
    const { client, state } = await openInPage();
    const from = client.messages.length;
    client.send({ type: "send_message", sessionId: SESSION_ID, text: "hello" });
    const request = await client.waitForEvent("request", { sessionId: SESSION_ID, from });
    await client.waitForEvent("stop", { sessionId: SESSION_ID, from });
    client.close();
    expect(request.event.snapshot.requestIndex).toBe(5);
    expect(request.event.snapshot.messages).toBeUndefined();
    expect(request.event.snapshot.historyLength).toBe(9);
    const after = client.messages
      .slice(from)
      .reduce((current, message) => uiReducer(current, { type: "server", message }), state);
    const newest = after.session!.requests.at(-1)!;
    expect(newest.snapshot.messages.map((message) => message.role)).toEqual([...EXPECTED_ROLES, "user"]);
    // Its figures are complete: the old messages got theirs when the log was read.
    expect(newest.snapshot.segments?.filter((segment) => segment.kind === "message")).toHaveLength(9);
    const log = await readFile(path.join(sessionsDirectory(server.home), `${SESSION_ID}.jsonl`), "utf8");
    const appended = log.split("\n").filter((line) => line.includes('"type":"assistant_message"'));
    expect(appended).toHaveLength(4); // the old ones only: the new answer is one history_appended
  }, 60_000);
});
