// Session and the hub through the in-memory transport: a real ClientConnection, real session hub, real
// workspace, permission engine and tools on a temp workdir, real processes (under bubblewrap where it is
// installed) — only the socket is replaced by a linked in-memory pair, so no port is opened.
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SessionSummary } from "../protocol/wire.ts";
import { listProviders, loadProvidersConfig } from "../providers/config.ts";
import { ProcessRunner } from "../tools/process-runner.ts";
import { ClientConnection } from "../transport/connection.ts";
import { ProtocolClient, isEvent, type EventMessage } from "../transport/protocol-client.ts";
import { TEST_SCENARIOS } from "../transport/testing/scenarios.ts";
import { InMemoryTransport } from "../transport/transport.ts";
import { defaultSessionParts } from "./default-parts.ts";
import { SessionHub, sessionsDirectory } from "./session-hub.ts";

interface Setup {
  root: string;
  home: string;
  workdir: string;
  scenariosDir: string;
  processes: ProcessRunner;
  hub: SessionHub;
}

let setup: Setup;
const clients: ProtocolClient[] = [];

function newHub(base: Omit<Setup, "hub" | "processes">, processes = new ProcessRunner()): Setup {
  const hub = new SessionHub({
    home: base.home,
    defaultWorkdir: base.workdir,
    parts: defaultSessionParts({ scenariosDir: base.scenariosDir, home: base.home }),
    providers: () => listProviders(loadProvidersConfig({ home: base.home })),
    log: () => undefined,
    watch: false,
    processes,
  });
  return { ...base, processes, hub };
}

beforeEach(async () => {
  const root = await realpath(await mkdtemp(path.join(tmpdir(), "session-unit-")));
  const base = {
    root,
    home: path.join(root, "home"),
    workdir: path.join(root, "work"),
    scenariosDir: path.join(root, "scenarios"),
  };
  for (const folder of [base.home, base.workdir, base.scenariosDir]) await mkdir(folder, { recursive: true });
  await writeFile(path.join(base.workdir, "README.md"), "# demo\n");
  for (const [name, text] of Object.entries(TEST_SCENARIOS))
    await writeFile(path.join(base.scenariosDir, name), text);
  setup = newHub(base);
  await setup.hub.ready();
});

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  await setup.hub.shutdown();
  await setup.processes.killAll();
  await rm(setup.root, { recursive: true, force: true });
});

/** A tab: a ClientConnection on one end of an in-memory pair, the protocol client on the other. */
async function connect(hub = setup.hub): Promise<ProtocolClient> {
  const [serverEnd, clientEnd] = InMemoryTransport.createLinkedPair();
  const connection = new ClientConnection(serverEnd, hub, { serverVersion: "test", log: () => undefined });
  void connection.start();
  const client = await ProtocolClient.over(clientEnd);
  clients.push(client);
  return client;
}

async function errorAfter(client: ProtocolClient, from: number, what: string) {
  const message = await client.waitFor((candidate) => candidate.type === "error", what, { from });
  if (message.type !== "error") throw new Error("not an error");
  return message;
}

describe("the in-memory transport", () => {
  it("delivers frames in order, asynchronously, and a close once to both ends", async () => {
    const [left, right] = InMemoryTransport.createLinkedPair();
    const received: string[] = [];
    const closes: string[] = [];
    left.send("before start");
    right.start({
      message: (frame) => received.push(frame.kind === "text" ? frame.text : `binary ${frame.bytes}`),
      close: (code, reason) => closes.push(`right ${code} ${reason}`),
    });
    left.start({ message: () => undefined, close: (code) => closes.push(`left ${code}`) });
    left.send("one");
    left.sendBinary(new Uint8Array(3));
    left.send("two");
    expect(received).toEqual([]); // never inside the sender's call
    expect(left.bufferedBytes).toBeGreaterThan(0);
    left.close(1001, "going away");
    left.send("after close");
    const deadline = Date.now() + 2_000;
    while (closes.length < 2 && Date.now() < deadline) await new Promise((resolve) => setImmediate(resolve));
    expect(received).toEqual(["before start", "one", "binary 3", "two"]);
    expect(closes.sort()).toEqual(["left 1001", "right 1001 going away"]);
    expect(left.isOpen || right.isOpen).toBe(false);
    expect(left.bufferedBytes).toBe(0);
  });

  it("a ClientConnection over it refuses binary and malformed frames with an error, and keeps serving", async () => {
    const client = await connect();
    expect(client.hello.serverVersion).toBe("test");
    let from = client.messages.length;
    client.sendRaw(Buffer.from([1, 2, 3]));
    expect((await errorAfter(client, from, "binary error")).message).toMatch(
      /binary frames are not accepted/,
    );
    from = client.messages.length;
    client.sendRaw("{not json");
    expect((await errorAfter(client, from, "json error")).code).toBe("invalid_frame");
    client.send({ type: "list_sessions" });
    await client.waitFor((message) => message.type === "session_list", "session list");
  });
});

describe("Session through the in-memory transport", () => {
  it("approvals: asks before a write, runs it once allowed; a replayed or foreign answer is refused (N11)", async () => {
    const client = await connect();
    const sessionId = await client.createSession();
    const otherSession = await client.createSession();
    client.send({ type: "send_message", sessionId, text: "write a note" });
    const asked = await client.waitForEvent("permission_request", { sessionId });
    const callId = asked.event.request.callId;
    expect(asked.event.console).toBeUndefined();
    expect(asked.event.request).toMatchObject({ tool: "write_file", path: "note.txt" });

    let from = client.messages.length;
    client.send({ type: "approval_answer", sessionId: otherSession, callId, answer: { kind: "allow_once" } });
    expect(await errorAfter(client, from, "foreign answer")).toMatchObject({
      code: "invalid_arguments",
      sessionId: otherSession,
    });

    client.send({ type: "approval_answer", sessionId, callId, answer: { kind: "allow_once" } });
    const result = await client.waitForEvent("tool_result", { sessionId, where: (e) => e.callId === callId });
    expect(result.event.result.ok).toBe(true);
    expect(await readFile(path.join(setup.workdir, "note.txt"), "utf8")).toBe("from the model");

    from = client.messages.length;
    client.send({ type: "approval_answer", sessionId, callId, answer: { kind: "allow_once" } });
    expect((await errorAfter(client, from, "replayed answer")).message).toMatch(/no approval is waiting/);
    expect((await client.waitForEvent("stop", { sessionId })).event.reason).toBe("completed");
  });

  it("a message whose run cannot start: one session_error that says no stop follows (runFailed)", async () => {
    const client = await connect();
    // The scripted provider is built when the first message is sent; its scenario file does not exist.
    const sessionId = await client.createSession({ scenario: "missing.yaml" });
    client.send({ type: "send_message", sessionId, text: "hello" });
    const failed = await client.waitForEvent("session_error", { sessionId });
    expect(failed.event).toMatchObject({ runFailed: true, message: expect.stringContaining("missing.yaml") });
    expect(client.events(sessionId).map((message) => message.event.type)).not.toContain("run_started");
  });

  it("a manual-provider turn: the provider's awaiting input reaches the page, the reply hook plays the answer", async () => {
    const client = await connect();
    const sessionId = await client.createSession({ provider: "manual" });
    client.send({ type: "send_message", sessionId, text: "what is in the readme?" });
    const first = await client.waitForEvent("manual_turn_requested", { sessionId });
    expect(first.event.requestIndex).toBe(1);
    expect(first.event.snapshot.requestIndex).toBe(1);

    let from = client.messages.length;
    client.send({ type: "manual_response", sessionId, requestIndex: 7, text: "wrong", toolCalls: [] });
    expect((await errorAfter(client, from, "wrong turn")).message).toMatch(
      /no manual turn is waiting for request #7 \(request #1 is waiting\)/,
    );
    from = client.messages.length;
    client.send({
      type: "manual_response",
      sessionId,
      requestIndex: 1,
      text: "x",
      toolCalls: [{ name: " ", input: {} }],
    });
    // An invalid answer is refused by the provider's reply hook, and the turn keeps waiting.
    expect((await errorAfter(client, from, "invalid answer")).message).toMatch(/tool call #1 has no name/);

    client.send({
      type: "manual_response",
      sessionId,
      requestIndex: 1,
      text: "Reading it.",
      toolCalls: [{ name: "read_file", input: { path: "README.md" } }],
    });
    const second = await client.waitForEvent("manual_turn_requested", {
      sessionId,
      where: (event) => event.requestIndex === 2,
    });
    expect(JSON.stringify(client.snapshotMessages(sessionId, second.event.snapshot))).toContain("# demo");
    from = client.messages.length;
    client.send({ type: "manual_response", sessionId, requestIndex: 2, text: "A demo.", toolCalls: [] });
    expect((await client.waitForEvent("stop", { sessionId, from })).event.reason).toBe("completed");

    // The turn was answered: the same reply again is refused, and so is one in a scripted session.
    from = client.messages.length;
    client.send({ type: "manual_response", sessionId, requestIndex: 2, text: "again", toolCalls: [] });
    expect((await errorAfter(client, from, "answered turn")).message).toMatch(/no manual turn is waiting/);
    const scripted = await client.createSession();
    from = client.messages.length;
    client.send({ type: "manual_response", sessionId: scripted, requestIndex: 1, text: "hi", toolCalls: [] });
    expect((await errorAfter(client, from, "scripted session")).message).toMatch(
      /no manual turn is waiting for request #1$/,
    );
  });

  it("a console call: every event of it carries the console marker and its runId; approval included", async () => {
    const client = await connect();
    const sessionId = await client.createSession();
    const from = client.messages.length;
    client.send({
      type: "run_tool",
      sessionId,
      requestId: "q1",
      tool: "write_file",
      input: { path: "by-hand.txt", content: "typed" },
    });
    const asked = await client.waitForEvent("permission_request", { sessionId, from });
    expect(asked.event.console).toBe(true);
    client.send({
      type: "approval_answer",
      sessionId,
      callId: asked.event.request.callId,
      answer: { kind: "allow_once" },
    });
    const done = await client.waitForEvent("tool_console_result", { sessionId, from });
    expect(done.event.result.ok).toBe(true);
    expect(await readFile(path.join(setup.workdir, "by-hand.txt"), "utf8")).toBe("typed");
    const callEvents = client
      .events(sessionId)
      .slice()
      .filter((message) => client.messages.indexOf(message) >= from)
      .map((message) => message.event)
      .filter((event) => event.type !== "tool_console_result" && "runId" in event);
    expect(callEvents.map((event) => event.type)).toEqual([
      "tool_call",
      "permission_request",
      "permission_decision",
      "tool_started",
      "tool_result",
    ]);
    for (const event of callEvents) {
      expect(event).toMatchObject({ console: true, runId: done.event.runId });
    }
  });

  it("settings change: the mode applies to the next call, the summary shows it, a provider change mid-run is refused", async () => {
    const client = await connect();
    const sessionId = await client.createSession();
    client.send({ type: "update_session", sessionId, settings: { permissionMode: "acceptEdits" } });
    const changed = await client.waitForEvent("settings_changed", { sessionId });
    expect(changed.event.settings.permissionMode).toBe("acceptEdits");
    // acceptEdits: the write runs without asking.
    const stop = await client.sendMessage(sessionId, "write a note");
    expect(stop.reason).toBe("completed");
    expect(client.events(sessionId).some((message) => message.event.type === "permission_request")).toBe(
      false,
    );
    expect(await readFile(path.join(setup.workdir, "note.txt"), "utf8")).toBe("from the model");
    client.send({ type: "list_sessions" });
    const listed = await client.waitFor((message) => message.type === "session_list", "session list");
    const summary = listed.type === "session_list" && listed.sessions.find((item) => item.id === sessionId);
    expect(summary).toMatchObject({ settings: { permissionMode: "acceptEdits" }, title: "write a note" });

    client.send({ type: "send_message", sessionId, text: "sleep a while" });
    await client.waitForEvent("permission_request", { sessionId });
    const from = client.messages.length;
    client.send({ type: "update_session", sessionId, settings: { provider: "manual" } });
    expect(await errorAfter(client, from, "provider change mid-run")).toMatchObject({
      code: "run_in_progress",
    });
    client.send({ type: "cancel", sessionId });
    expect((await client.waitForEvent("stop", { sessionId, from })).event.reason).toBe("canceled");
  });

  it("reconnect replay: a new tab gets the snapshot, then exactly the events after its lastSeq", async () => {
    const first = await connect();
    const sessionId = await first.createSession();
    await first.sendMessage(sessionId, "please review");
    const seqs = first
      .events(sessionId)
      .filter((message) => message.event.type !== "session_opened")
      .map((message) => message.seq);
    // An answer's streamed deltas leave the replay once its message is appended (that holds the text).
    const stored = first
      .events(sessionId)
      .filter((message) => message.event.type !== "session_opened" && message.event.type !== "text_delta")
      .map((message) => message.seq);
    await first.close(); // the tab closes; the session stays

    const lastSeq = seqs[Math.floor(seqs.length / 2)]!;
    const second = await connect();
    second.send({ type: "open_session", sessionId, lastSeq });
    const opened = await second.waitForEvent("session_opened", { sessionId });
    await second.waitFor(
      () => second.events(sessionId).some((message) => message.seq === seqs.at(-1)),
      "the last event",
    );
    const replayed = second
      .events(sessionId)
      .filter((message) => message.event.type !== "session_opened")
      .map((message) => message.seq);
    expect(opened.seq).toBe(seqs.at(-1));
    // Resuming after lastSeq > 0, the snapshot carries the history (a replay from the start would not).
    expect(opened.event.history?.length).toBe(
      first.events(sessionId).filter((message) => message.event.type === "history_appended").length,
    );
    // Every stored seq after lastSeq is replayed, the deltas of answers already appended left out.
    expect(replayed).toEqual(stored.filter((seq) => seq > lastSeq));
    expect(stored.length).toBeLessThan(seqs.length);
  });

  it("the summary is the same whether the session is open or read back from its log", async () => {
    const client = await connect();
    const sessionId = await client.createSession();
    await client.sendMessage(sessionId, "please review");
    client.send({ type: "update_session", sessionId, settings: { allowNetwork: true } });
    await client.waitForEvent("settings_changed", { sessionId });
    const session = await setup.hub.open(sessionId);
    await session.idle();
    const live = session.summary();
    await setup.hub.shutdown();

    const reopened = newHub(setup, setup.processes);
    await reopened.hub.ready();
    const fromLog = (await reopened.hub.list()).find((item) => item.id === sessionId);
    const withoutTime = ({ updatedAt: _updatedAt, ...rest }: SessionSummary) => rest;
    expect(fromLog).toBeDefined();
    expect(withoutTime(fromLog!)).toEqual(withoutTime(live));
    const appended = client.events(sessionId).filter((message) => message.event.type === "history_appended");
    expect(live).toMatchObject({ title: "please review", messageCount: appended.length, running: false });
    expect(live.sandbox?.network).toBe(true);
    await reopened.hub.shutdown();
  });

  it("old session logs still open: console calls known by their runId prefix get the console marker", async () => {
    const id = "20250101-000000-0000abcd";
    const directory = sessionsDirectory(setup.home);
    await mkdir(directory, { recursive: true });
    const at = "2025-01-01T00:00:01.000Z";
    const records = [
      {
        kind: "header",
        version: 1,
        id,
        createdAt: "2025-01-01T00:00:00.000Z",
        title: "New session",
        settings: {
          workdir: setup.workdir,
          provider: "scripted",
          model: "scripted",
          permissionMode: "default",
          disclosure: "progressive",
        },
      },
      {
        kind: "event",
        seq: 1,
        at,
        event: {
          type: "tool_call",
          runId: "console_q1",
          requestIndex: 0,
          call: { id: "console_q1", name: "read_file", input: { path: "README.md" } },
          known: true,
          visible: true,
        },
      },
      {
        kind: "event",
        seq: 2,
        at,
        event: { type: "tool_started", runId: "console_q1", callId: "console_q1", tool: "read_file" },
      },
      {
        kind: "event",
        seq: 3,
        at,
        event: {
          type: "tool_result",
          runId: "console_q1",
          callId: "console_q1",
          result: { ok: true, tool: "read_file", content: "# demo" },
          durationMs: 1,
        },
      },
      {
        kind: "event",
        seq: 4,
        at,
        event: {
          type: "tool_console_result",
          requestId: "q1",
          tool: "read_file",
          input: { path: "README.md" },
          result: { ok: true, tool: "read_file", content: "# demo" },
          durationMs: 1,
        },
      },
    ];
    await writeFile(
      path.join(directory, `${id}.jsonl`),
      records.map((record) => JSON.stringify(record)).join("\n") + "\n",
      { mode: 0o600 },
    );
    const client = await connect();
    client.send({ type: "open_session", sessionId: id });
    const result = await client.waitForEvent("tool_console_result", { sessionId: id });
    expect(result.event.runId).toBe("console_q1");
    const replayed = client
      .events(id)
      .map((message: EventMessage) => message.event)
      .filter((event) => event.type !== "session_opened" && event.type !== "tool_console_result");
    expect(replayed.map((event) => event.type)).toEqual(
      expect.arrayContaining(["tool_call", "tool_started", "tool_result"]),
    );
    for (const event of replayed.filter(
      (candidate) => "runId" in candidate && candidate.runId === "console_q1",
    ))
      expect(event).toMatchObject({ console: true });
    const opened = client.messages.find((message) => isEvent(message, "session_opened", id));
    expect(opened && isEvent(opened, "session_opened") && opened.event.session.title).toBe("New session");
  });

  it("the hub's process runner starts the session's tool processes, and ends them at shutdown", async () => {
    const client = await connect();
    const sessionId = await client.createSession();
    const from = client.messages.length;
    client.send({
      type: "run_tool",
      sessionId,
      requestId: "long",
      tool: "run_command",
      input: { command: "sleep 600" },
    });
    const asked = await client.waitForEvent("permission_request", { sessionId, from });
    client.send({
      type: "approval_answer",
      sessionId,
      callId: asked.event.request.callId,
      answer: { kind: "allow_once" },
    });
    await client.waitForEvent("tool_started", { sessionId, from });
    const started = Date.now();
    // Not the session's Stop: the runner the composition root gave the hub ends the call.
    await setup.processes.killAll();
    const done = await client.waitForEvent("tool_console_result", { sessionId, from });
    expect(done.event.result).toMatchObject({ ok: false });
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 20_000);
});
