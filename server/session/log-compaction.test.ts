// The compact form of request snapshots in the JSONL log, through the real EventStream and log files:
// snapshots refer to the conversation (historyLength) on the wire and in the log, replay from the log
// gives the same events as live, exports carry full messages, old full logs read unchanged, damaged
// references are named.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ChatMessage } from "../protocol/model.ts";
import { toAnthropicBody } from "../providers/anthropic-mapping.ts";
import { toOpenAiBody } from "../providers/openai-mapping.ts";
import type { RequestSnapshot } from "../protocol/runner-events.ts";
import type { SessionEvent } from "../protocol/wire.ts";
import { figuresOnAppend, messageFigures } from "../prompt/segments.ts";
import { EventStream } from "./event-stream.ts";
import { SessionLogWriter, readSessionLog, readSessionLogForExport } from "./session-log.ts";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "log-compaction-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function snapshot(
  requestIndex: number,
  messages: ChatMessage[],
  stable = "You are helpful.",
): RequestSnapshot {
  return {
    runId: "run_1",
    requestIndex,
    iteration: requestIndex,
    provider: "scripted",
    model: "scripted",
    disclosure: "progressive",
    system: { stable, environment: "cwd: /tmp" },
    stableHash: "0".repeat(64),
    messages,
    tools: [
      {
        name: "read_file",
        description: "Reads a file.",
        inputSchema: { type: "object" },
        safety: "read_only",
        category: "read",
        origin: "system",
      },
    ],
    registeredNotVisible: [],
    listedSkills: [],
    activeSkills: [],
    at: new Date(0).toISOString(),
  };
}

/** A conversation: each turn appends a user and an assistant message, then requests with all of it. */
function conversation(turns: number, filler = ""): SessionEvent[] {
  const history: ChatMessage[] = [];
  const events: SessionEvent[] = [];
  for (let turn = 1; turn <= turns; turn++) {
    const user: ChatMessage = { role: "user", content: `question ${turn} ${filler}` };
    history.push(user);
    events.push({ type: "history_appended", runId: "run_1", message: structuredClone(user) });
    events.push({ type: "request", runId: "run_1", snapshot: snapshot(turn, structuredClone(history)) });
    const answer: ChatMessage = { role: "assistant", content: `answer ${turn}`, toolCalls: [] };
    history.push(answer);
    events.push({ type: "history_appended", runId: "run_1", message: structuredClone(answer) });
  }
  return events;
}

/**
 * The events as the stream sends and logs them: a (short) message carries its figures, a snapshot whose messages
 * are the conversation's first n says `historyLength: n` instead.
 */
function wireForm(events: SessionEvent[]): SessionEvent[] {
  const history: ChatMessage[] = [];
  return events.map((event) => {
    if (event.type === "history_appended") {
      history.push(event.message);
      // A long message's figures come with the first request that sends it, not with the message.
      const figures = figuresOnAppend(event.message);
      return figures ? { ...event, figures } : event;
    }
    if (event.type !== "request" && event.type !== "manual_turn_requested") return event;
    const messages = event.snapshot.messages ?? [];
    const prefix =
      messages.length <= history.length &&
      messages.every((message, index) => JSON.stringify(message) === JSON.stringify(history[index]));
    if (!prefix) return event;
    const { messages: _left, ...rest } = event.snapshot;
    return { ...event, snapshot: { ...rest, historyLength: messages.length } };
  });
}

/**
 * The log as a download has it: every snapshot's messages in full again, and messages without their
 * figures (the log does not store them; they are recomputed when it is read).
 */
function exportForm(events: SessionEvent[]): SessionEvent[] {
  const history: ChatMessage[] = [];
  return wireForm(events).map((event) => {
    if (event.type === "history_appended") {
      history.push(event.message);
      const { figures: _figures, ...rest } = event;
      return rest;
    }
    if (event.type !== "request" && event.type !== "manual_turn_requested") return event;
    if (event.snapshot.messages) return event;
    return {
      ...event,
      snapshot: { ...event.snapshot, messages: history.slice(0, event.snapshot.historyLength) },
    };
  });
}

function snapshotsOf(events: SessionEvent[]): RequestSnapshot[] {
  return events.flatMap((event) =>
    event.type === "request" || event.type === "manual_turn_requested" ? [event.snapshot] : [],
  );
}

describe("compact request snapshots in the session log", () => {
  it("logs references, replays full snapshots from the log, and exports them in full", async () => {
    const writer = new SessionLogWriter(path.join(dir, "s.jsonl"));
    const stream = new EventStream(writer);
    const sent: string[] = [];
    stream.subscribe((_seq, _event, json) => sent.push(json));
    // Big enough that the memory buffer evicts the first turns, which replay then reads from the log.
    // (Snapshots no longer carry the conversation, so it takes long messages to fill the buffer.)
    const events = conversation(40, "x".repeat(30_000));
    const last = snapshotsOf(events).at(-1)!;
    events.push({ type: "manual_turn_requested", runId: "run_1", requestIndex: 40, snapshot: last });
    for (const event of events) stream.emit(event);
    expect(sent.map((json) => JSON.parse(json))).toEqual(wireForm(events));
    expect(sent.join("\n")).not.toContain('"messages"');
    expect(stream.firstBufferedSeq).toBeGreaterThan(1);

    const replayed = (await stream.replay(0)).map((entry) => JSON.parse(entry.json) as SessionEvent);
    expect(replayed).toEqual(wireForm(events));
    await writer.close();
    const text = await readFile(writer.path, "utf8");
    expect(text.match(/"historyLength"/g)).toHaveLength(41);
    const logged = await readSessionLog(writer.path);
    expect(logged.warnings).toEqual([]);
    expect(logged.events.map((record) => record.event)).toEqual(wireForm(events));
    const exported = (await readSessionLogForExport(writer.path)).split("\n").filter(Boolean);
    expect(exported.map((line) => JSON.parse(line).event)).toEqual(exportForm(events));
    expect(text.length * 5).toBeLessThan(exported.join("\n").length);
  });

  it("keeps snapshots whose messages are not the conversation (isolated runs) in full, and changed parts", async () => {
    const writer = new SessionLogWriter(path.join(dir, "s.jsonl"));
    const stream = new EventStream(writer);
    const events = conversation(2);
    const isolated: ChatMessage[] = [{ role: "user", content: "/notes\n\nSummarize." }];
    events.push({
      type: "request",
      runId: "run_2",
      snapshot: snapshot(3, isolated, "Another system prompt."),
    });
    events.push({ type: "request", runId: "run_1", snapshot: snapshot(4, [], "You are helpful.") });
    for (const event of events) stream.emit(event);
    await writer.close();
    const lines = (await readFile(writer.path, "utf8"))
      .split("\n")
      .filter((line) => line.includes('"request"'));
    expect(lines[2]).toContain('"messages":[{"role":"user","content":"/notes');
    expect(lines[2]).toContain('"stable":"Another system prompt."');
    expect(lines[3]).toContain('"stable":"You are helpful."');
    expect(lines[3]).toContain('"historyLength":0');
    expect((await readSessionLog(writer.path)).events.map((record) => record.event)).toEqual(
      wireForm(events),
    );
  });

  it("reopens from the log and keeps compacting against the restored conversation", async () => {
    const file = path.join(dir, "s.jsonl");
    const first = new SessionLogWriter(file);
    const before = conversation(3);
    const firstStream = new EventStream(first);
    for (const event of before) firstStream.emit(event);
    await first.close();

    const restored = (await readSessionLog(file)).events.map((record) => ({
      seq: record.seq,
      event: record.event,
    }));
    const second = new SessionLogWriter(file);
    const reopened = new EventStream(second, restored);
    const after = conversation(5).slice(before.length);
    for (const event of after) reopened.emit(event);
    await second.close();
    const logged = await readSessionLog(file);
    expect(logged.warnings).toEqual([]);
    expect(logged.events.map((record) => record.event)).toEqual(wireForm([...before, ...after]));
    const text = await readFile(file, "utf8");
    expect(text.match(/"historyLength"/g)).toHaveLength(5);
  });

  it("reads old logs with full snapshots unchanged", async () => {
    const file = path.join(dir, "old.jsonl");
    const events = conversation(3);
    const lines = events.map((event, index) =>
      JSON.stringify({ kind: "event", seq: index + 1, at: new Date(0).toISOString(), event }),
    );
    await writeFile(file, lines.join("\n") + "\n");
    const logged = await readSessionLog(file);
    expect(logged.warnings).toEqual([]);
    // Read as they were written; each message gets the figures a newer log would have stored with it.
    expect(logged.events.map((record) => record.event)).toEqual(
      events.map((event) =>
        event.type === "history_appended" ? { ...event, figures: messageFigures(event.message) } : event,
      ),
    );
    expect(await readSessionLogForExport(file)).toBe(lines.join("\n") + "\n");
  });

  it("names the file and seq of a reference a damaged log cannot resolve", async () => {
    const writer = new SessionLogWriter(path.join(dir, "s.jsonl"));
    const stream = new EventStream(writer);
    for (const event of conversation(3)) stream.emit(event);
    await writer.close();
    const lines = (await readFile(writer.path, "utf8")).split("\n");
    // Garble the first history record and the first request (which holds the prompt and tools in full).
    lines[0] = lines[0].slice(0, 20);
    lines[1] = lines[1].slice(0, 20);
    await writeFile(writer.path, lines.join("\n"));
    const logged = await readSessionLog(writer.path);
    const references = logged.warnings.filter((warning) => warning.includes("request snapshot"));
    expect(references.some((warning) => warning.includes('repeats "stable" from seq 2'))).toBe(true);
    expect(
      references.some((warning) =>
        /seq 5 refers to the first 3 conversation messages, but only 2/.test(warning),
      ),
    ).toBe(true);
    for (const warning of references) expect(warning.startsWith(`${writer.path}: `)).toBe(true);
  });

  it("stores provider payloads relative to the previous one and reads them back exactly", async () => {
    const writer = new SessionLogWriter(path.join(dir, "s.jsonl"));
    const stream = new EventStream(writer);
    const events: SessionEvent[] = [];
    for (const event of conversation(12, "y".repeat(500))) {
      events.push(event);
      if (event.type !== "request") continue;
      const snapshot = { ...event.snapshot, messages: event.snapshot.messages ?? [] };
      // The session switches from Anthropic to OpenAI halfway.
      const body =
        snapshot.requestIndex <= 6
          ? toAnthropicBody(snapshot, "claude-test", 1024)
          : toOpenAiBody(snapshot, "gpt-test", 1024);
      events.push({
        type: "provider_payload",
        runId: "run_1",
        requestIndex: snapshot.requestIndex,
        payload: body,
      });
    }
    // A body whose own values look like references is logged as it is.
    events.push({
      type: "provider_payload",
      runId: "run_1",
      requestIndex: 13,
      payload: { tools: { $same: true } },
    });
    for (const event of events) stream.emit(event);
    await writer.close();
    const text = await readFile(writer.path, "utf8");
    // All but the first payload of each provider refer to the previous one.
    expect(text.match(/"\$previousPayload"/g)).toHaveLength(10);
    expect(text).toContain('"payload":{"tools":{"$same":true}}');
    const logged = await readSessionLog(writer.path);
    expect(logged.warnings).toEqual([]);
    expect(logged.events.map((record) => record.event)).toEqual(wireForm(events));
    const full = (await readSessionLogForExport(writer.path)).length;
    expect(text.length * 3).toBeLessThan(full);

    // Losing a payload record is named when the next one refers to it.
    const lines = text.split("\n");
    const firstPayload = lines.findIndex((line) => line.includes('"provider_payload"'));
    lines[firstPayload] = lines[firstPayload].slice(0, 30);
    await writeFile(writer.path, lines.join("\n"));
    const damaged = await readSessionLog(writer.path);
    expect(
      damaged.warnings.some((warning) =>
        /the provider payload at seq \d+ repeats .* which could not be read/.test(warning),
      ),
    ).toBe(true);
  });
});
