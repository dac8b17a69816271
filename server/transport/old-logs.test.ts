// Logs written by earlier versions reopen with the same conversation and the same inspector timeline,
// each as that version wrote it and as it exported it. Format 1: snapshots as `$historyPrefix`
// references (exported: every snapshot's messages in full), each assistant message twice
// (assistant_message, then history_appended). Format 2: snapshots by `historyLength` with repeated parts
// as `$sameAs` references and provider payloads relative to the previous one (exported: messages in full,
// parts expanded), a long message's figures in the request that first sent it. The page's own reducer
// rebuilds the view from the replay.
import { readFile, writeFile, mkdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { initialUiState, uiReducer } from "../../app/state/reducer.ts";
import { callsOf, turnsOf } from "../../app/state/selectors.ts";
import { requestPayload, requestSnapshot } from "../../app/state/snapshot-view.ts";
import type { UiState } from "../../app/state/types.ts";
import type { ChatMessage } from "../protocol/model.ts";
import type { RequestSnapshot } from "../protocol/runner-events.ts";
import type { SessionEvent } from "../protocol/wire.ts";
import { sessionsDirectory } from "../session/session-hub.ts";
import { TestClient, startTestServer, type TestServer } from "./testing/harness.ts";
import { TEST_SCENARIOS } from "./testing/scenarios.ts";

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "session", "fixtures");
const SESSION_ID = "20261202-100000-format1";
const FORMAT_2_ID = "20261203-100000-format2";

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer(TEST_SCENARIOS, { watch: false });
});
afterEach(async () => {
  await server.dispose();
});

/** Installs a fixture log as this server's session (its workdir placeholder set to the test's). */
async function installFixture(name: string, sessionId = SESSION_ID): Promise<string> {
  const text = (await readFile(path.join(FIXTURES, name), "utf8"))
    .split("__WORKDIR__")
    .join(server.workdir)
    .split("__SCENARIOS__")
    .join(server.scenariosDir);
  await mkdir(sessionsDirectory(server.home), { recursive: true });
  await writeFile(path.join(sessionsDirectory(server.home), `${sessionId}.jsonl`), text, { mode: 0o600 });
  return text;
}

/** A record as a version before format 3 wrote it (a snapshot or payload in full). */
interface OldRecord {
  kind: string;
  event?: { type: string; snapshot?: RequestSnapshot; payload?: unknown };
}

function oldRecords(text: string): OldRecord[] {
  return text
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as OldRecord);
}

/** The snapshots of the full-snapshot fixture, with the messages the previous version logged. */
function loggedSnapshots(text: string): RequestSnapshot[] {
  return oldRecords(text).flatMap((record) =>
    record.event?.type === "request" && record.event.snapshot ? [record.event.snapshot] : [],
  );
}

/** Opens the session in a fresh client and plays everything it receives through the page's reducer. */
async function openInPage(sessionId = SESSION_ID): Promise<{ client: TestClient; state: UiState }> {
  const client = await TestClient.connect(server);
  client.send({ type: "open_session", sessionId });
  await client.waitForEvent("session_opened", { sessionId });
  const lastSeq = (await server.hub.open(sessionId)).lastSeq;
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
      messages: requestSnapshot(request).messages,
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

/**
 * Opens fixture `name` in a page and checks what every old log of the review-then-hello session must show:
 * the conversation, each request's messages as logged, the active skills, the chat turns and the tool calls.
 * Returns the log's text, its logged snapshots, the page's state and timeline, for the checks particular to a format.
 */
async function reopenedReviewSession(name: string, sessionId: string) {
  const text = await installFixture(name, sessionId);
  const logged = loggedSnapshots(text);
  expect(logged.map((snapshot) => snapshot.messages?.length)).toEqual([1, 3, 5, 7]);
  const opened = await openInPage(sessionId);
  const conversation = await opened.client.openedConversation(
    opened.client.events(sessionId)[0] as Parameters<TestClient["openedConversation"]>[0],
  );
  expect(conversation.map((message) => message.role)).toEqual(EXPECTED_ROLES);
  opened.client.close();
  const view = timeline(opened.state);
  // Every request shows exactly the messages the previous version logged for it.
  expect(view.requests.map((request) => request.messages)).toEqual(
    logged.map((snapshot) => snapshot.messages),
  );
  expect(view.requests.map((request) => request.activeSkills)).toEqual([
    [],
    ["review"],
    ["review"],
    ["review"],
  ]);
  expect(view.turns).toEqual([
    { kind: "user", text: "please review" },
    { kind: "assistant", requestIndex: 1, text: "Loading the review skill.", streaming: false },
    { kind: "assistant", requestIndex: 2, text: "", streaming: false },
    { kind: "assistant", requestIndex: 3, text: "Findings: none.", streaming: false },
    { kind: "stop" },
    { kind: "user", text: "hello" },
    { kind: "assistant", requestIndex: 4, text: "Hi there, nice to meet you.", streaming: false },
    { kind: "stop" },
  ]);
  expect(view.calls).toEqual([
    ["load_skill", "done"],
    ["read_file", "done"],
  ]);
  return { text, logged, state: opened.state, view };
}

describe("session logs of format 1", () => {
  it("reopen with the same conversation and inspector timeline, compact or with full snapshots", async () => {
    const { view: fullView, state: fromFullState } = await reopenedReviewSession(
      "format-1-full.jsonl",
      SESSION_ID,
    );
    // An old snapshot has no token figures: the inspector says so instead of guessing.
    expect(requestSnapshot(fromFullState.session!.requests[0]).segments).toBeUndefined();

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
    expect(request.event.snapshot).not.toHaveProperty("messages");
    expect(request.event.snapshot.historyLength).toBe(9);
    const after = client.messages
      .slice(from)
      .reduce((current, message) => uiReducer(current, { type: "server", message }), state);
    const newest = requestSnapshot(after.session!.requests.at(-1)!);
    expect(newest.messages.map((message) => message.role)).toEqual([...EXPECTED_ROLES, "user"]);
    // Its figures are complete: the old messages got theirs when the log was read.
    expect(newest.segments?.filter((segment) => segment.kind === "message")).toHaveLength(9);
    const log = await readFile(path.join(sessionsDirectory(server.home), `${SESSION_ID}.jsonl`), "utf8");
    const appended = log.split("\n").filter((line) => line.includes('"type":"assistant_message"'));
    expect(appended).toHaveLength(4); // the old ones only: the new answer is one history_appended
  }, 60_000);
});

describe("session logs of format 2", () => {
  it("reopen with the same conversation and inspector timeline, as logged or as exported", async () => {
    const {
      text: exported,
      logged,
      view: exportView,
      state: fromExportState,
    } = await reopenedReviewSession("format-2-exported.jsonl", FORMAT_2_ID);
    // Format 2 snapshots carry their token figures: every request has one segment per message, the long
    // README result's (over 16 KiB) included, and the same stable system and tools as logged.
    const requests = fromExportState.session!.requests;
    const full = requests.map((request) => requestSnapshot(request));
    expect(full.map((snapshot) => figuresOf(snapshot)?.messages)).toEqual([1, 3, 5, 7]);
    expect(full.map((snapshot) => snapshot.system.stable)).toEqual(
      logged.map((snapshot) => snapshot.system.stable),
    );
    expect(full.map((snapshot) => snapshot.tools)).toEqual(logged.map((snapshot) => snapshot.tools));
    expect(requests.map((request) => requestPayload(request))).toEqual(loggedPayloads(exported));
    // The same session as that version wrote it: the same view, figures and payloads.
    await server.hub.delete(FORMAT_2_ID);
    await installFixture("format-2-logged.jsonl", FORMAT_2_ID);
    const fromLog = await openInPage(FORMAT_2_ID);
    fromLog.client.close();
    expect(timeline(fromLog.state)).toEqual(exportView);
    const reopened = fromLog.state.session!.requests;
    expect(reopened.map((request) => requestSnapshot(request).segments)).toEqual(
      full.map((snapshot) => snapshot.segments),
    );
    expect(reopened.map((request) => requestPayload(request))).toEqual(loggedPayloads(exported));
  }, 60_000);
});

describe("session logs of format 2 as the last version before format 3 wrote them", () => {
  // Written by that version (as logged and as exported): cache predictions with their diagnostics and
  // placement note, cache_stats after each run, a "cache as" change (cache_repredicted) and a router run
  // (its routing decision on the provider payload).
  const LATE_ID = "20261203-140000-format2late";

  /** Each request's cache prediction as the session last made it (cache_repredicted replaces it). */
  function lastPredictions(text: string): unknown[] {
    const byIndex = new Map<number, unknown>();
    for (const record of oldRecords(text)) {
      const event = record.event as
        | (SessionEvent & { snapshot?: RequestSnapshot })
        | { type: "cache_repredicted"; requests: { requestIndex: number; cache: unknown }[] }
        | undefined;
      if (event?.type === "request" && event.snapshot)
        byIndex.set(event.snapshot.requestIndex, event.snapshot.cache);
      if (event?.type === "cache_repredicted")
        for (const entry of event.requests) byIndex.set(entry.requestIndex, entry.cache);
    }
    return [...byIndex.values()];
  }

  function eventsOf<T extends string>(text: string, type: T): Record<string, unknown>[] {
    return oldRecords(text).flatMap((record) =>
      record.event?.type === type ? [record.event as unknown as Record<string, unknown>] : [],
    );
  }

  it("reopen with the same conversation, timeline, payloads, cache figures and routing, as logged or as exported", async () => {
    const exported = await installFixture("format-2-late-exported.jsonl", LATE_ID);
    const logged = loggedSnapshots(exported);
    expect(logged.map((snapshot) => snapshot.provider)).toEqual([
      "scripted",
      "scripted",
      "scripted",
      "scripted",
      "router",
      "router",
    ]);
    const fromExport = await openInPage(LATE_ID);
    fromExport.client.close();
    const view = fromExport.state.session!;
    const full = view.requests.map((request) => requestSnapshot(request));
    expect(full.map((snapshot) => snapshot.messages)).toEqual(logged.map((snapshot) => snapshot.messages));
    expect(full.map((snapshot) => snapshot.system)).toEqual(logged.map((snapshot) => snapshot.system));
    expect(full.map((snapshot) => snapshot.tools)).toEqual(logged.map((snapshot) => snapshot.tools));
    // Figures: the parts' tokens as logged, and one segment per message (counted when the log was read).
    const partTokens = (snapshot: RequestSnapshot) =>
      snapshot.segments?.filter((segment) => segment.kind !== "message").map((segment) => segment.tokens);
    expect(full.map(partTokens)).toEqual(logged.map(partTokens));
    expect(full.map((snapshot) => figuresOf(snapshot)?.messages)).toEqual([1, 3, 5, 7, 9, 11]);
    expect(full.map((snapshot) => snapshot.cache)).toEqual(lastPredictions(exported));
    expect(full[0].cache?.diagnostics).toBeDefined();
    expect(full[0].cache?.placementNote).toBeDefined();
    expect(view.requests.map((request) => requestPayload(request))).toEqual(loggedPayloads(exported));
    const routing = eventsOf(exported, "provider_payload").map((event) => event.routing);
    expect(routing.filter(Boolean)).toHaveLength(1);
    expect(view.requests.map((request) => request.routing)).toEqual(routing);
    expect(view.cacheStats).toEqual(eventsOf(exported, "cache_stats").at(-1)?.stats);

    // The same session as that version logged it (`$sameAs` parts, payloads relative to the last one).
    await server.hub.delete(LATE_ID);
    await installFixture("format-2-late-logged.jsonl", LATE_ID);
    const fromLog = await openInPage(LATE_ID);
    fromLog.client.close();
    expect(timeline(fromLog.state)).toEqual(timeline(fromExport.state));
    const reopened = fromLog.state.session!;
    expect(reopened.requests.map((request) => requestSnapshot(request))).toEqual(full);
    expect(reopened.requests.map((request) => requestPayload(request))).toEqual(loggedPayloads(exported));
    expect(reopened.requests.map((request) => request.routing)).toEqual(routing);
    expect(reopened.cacheStats).toEqual(view.cacheStats);

    // The cache ledger was rebuilt from the reopened requests: the next run's figures count them too.
    const client = await TestClient.connect(server);
    const stop = await client.sendMessage(LATE_ID, "please review the code");
    expect(stop.reason).toBe("completed");
    const events = client.events(LATE_ID).map((message) => message.event);
    client.close();
    const sent = events.filter((event) => event.type === "request").length;
    expect(sent).toBeGreaterThan(0);
    const last = events.filter((event) => event.type === "cache_stats").at(-1);
    expect(last?.type === "cache_stats" && last.stats.requests).toBe(full.length + sent);
  }, 60_000);
});

/** How many segments of each kind a request's figures hold (undefined: no figures). */
function figuresOf(snapshot: RequestSnapshot): Record<string, number> | undefined {
  if (!snapshot.segments) return undefined;
  const counts: Record<string, number> = {};
  for (const segment of snapshot.segments) counts[`${segment.kind}s`] = (counts[`${segment.kind}s`] ?? 0) + 1;
  return counts;
}

/** The provider payloads of an exported log, in order (in full there). */
function loggedPayloads(text: string): unknown[] {
  return oldRecords(text).flatMap((record) =>
    record.event?.type === "provider_payload" ? [record.event.payload] : [],
  );
}
