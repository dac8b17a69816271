// Log format 3 through the real EventStream and log files: every text and JSON value travels once, by
// its sha256; requests on the wire and in the log resolve to exactly what the Runner built; replay from
// the log gives the events sent live; an isolated run's own messages, a long message's figures and
// provider payloads (as two real providers render them) come back exactly; a damaged log names what it
// cannot restore and never shows one blob's content for another's hash.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ChatMessage } from "../protocol/model.ts";
import { RequestReader, type Blob } from "../protocol/request-model.ts";
import type { RequestSnapshot, RunnerEvent } from "../protocol/runner-events.ts";
import type { SessionEvent } from "../protocol/wire.ts";
import { sha256Hex } from "../prompt/hash.ts";
import { TokenCounter } from "../prompt/segments.ts";
import { toAnthropicBody } from "../providers/anthropic-mapping.ts";
import { toOpenAiBody } from "../providers/openai-mapping.ts";
import type { EnvironmentSection } from "../prompt/environment.ts";
import { EventStream } from "./event-stream.ts";
import { SessionLogWriter, readSessionLog } from "./session-log.ts";

/** This file's own token counter (the composition root a test is). */
const tokens = new TokenCounter();

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "request-log-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const TOOLS = [
  {
    name: "read_file",
    description: "Reads a file.",
    inputSchema: { type: "object" },
    safety: "read_only" as const,
    category: "read" as const,
    origin: "system" as const,
  },
];

/** A request as the Runner builds it: content in full, segments with hashes and tokens. */
function snapshot(
  requestIndex: number,
  messages: ChatMessage[],
  stable = "You are helpful.",
): RequestSnapshot {
  const sections = [
    { name: "base", heading: "# Environment", text: "# Environment\ncwd: /tmp\n" },
    ...(requestIndex > 1
      ? [
          {
            name: "review",
            heading: '<skill name="review">',
            text: '<skill name="review">\nBody\n</skill>\n',
          },
        ]
      : []),
  ];
  return {
    runId: "run_1",
    requestIndex,
    iteration: requestIndex,
    provider: "scripted",
    model: "scripted",
    disclosure: "progressive",
    system: { stable, environment: sections.map((section) => section.text).join("") },
    stableHash: sha256Hex(stable),
    messages,
    tools: structuredClone(TOOLS),
    registeredNotVisible: [],
    listedSkills: ["review"],
    activeSkills: requestIndex > 1 ? ["review"] : [],
    tokenizer: "o200k_base (gpt-tokenizer)",
    segments: [
      ...tokens.toolSegments(TOOLS),
      tokens.stableSegment(stable),
      ...tokens.environmentSegments(sections),
      ...tokens.messageSegments(messages),
    ],
    at: new Date(0).toISOString(),
  };
}

/** A conversation: each turn appends a user and an assistant message, a request with all of it between. */
function conversation(turns: number, filler = ""): RunnerEvent[] {
  const history: ChatMessage[] = [];
  const events: RunnerEvent[] = [];
  for (let turn = 1; turn <= turns; turn++) {
    const user: ChatMessage = { role: "user", content: `question ${turn} ${filler}` };
    history.push(user);
    const figures = tokens.figuresOnAppend(user);
    events.push({ type: "history_appended", runId: "run_1", message: user, ...(figures ? { figures } : {}) });
    events.push({ type: "request", runId: "run_1", snapshot: snapshot(turn, history.slice()) });
    const answer: ChatMessage = { role: "assistant", content: `answer ${turn}`, toolCalls: [] };
    history.push(answer);
    events.push({ type: "history_appended", runId: "run_1", message: answer, requestIndex: turn });
  }
  return events;
}

/** The requests (in full) and payloads (as sent) of events in wire form, resolved as any reader does. */
function resolved(events: readonly SessionEvent[]): { requests: RequestSnapshot[]; payloads: unknown[] } {
  const reader = new RequestReader();
  const requests: RequestSnapshot[] = [];
  const payloads: unknown[] = [];
  for (const event of events) {
    reader.observe(event);
    if (event.type === "request") requests.push(reader.resolve(event.snapshot));
    if (event.type === "provider_payload") payloads.push(reader.payload(event.hash));
  }
  return { requests, payloads };
}

function blobsOf(events: readonly SessionEvent[]): Blob[] {
  return events.flatMap((event) => ("blobs" in event && event.blobs ? event.blobs : []));
}

function requestsOf(events: readonly RunnerEvent[]): RequestSnapshot[] {
  return events.flatMap((event) => (event.type === "request" ? [event.snapshot] : []));
}

describe("log format 3: requests by reference to content-addressed blobs", () => {
  it("sends and logs each blob once; the wire, the replay and the log resolve to the Runner's requests", async () => {
    const writer = new SessionLogWriter(path.join(dir, "s.jsonl"));
    const stream = new EventStream(writer);
    const sent: SessionEvent[] = [];
    stream.subscribe((_seq, _event, json) => sent.push(JSON.parse(json) as SessionEvent));
    // Long enough that the memory buffer evicts the first turns, which replay then reads from the log.
    const events = conversation(40, "x".repeat(30_000));
    for (const event of events) stream.emit(event);
    expect(stream.firstBufferedSeq).toBeGreaterThan(1);

    const hashes = blobsOf(sent).map((blob) => blob.hash);
    expect(new Set(hashes).size).toBe(hashes.length);
    for (const blob of blobsOf(sent))
      expect(sha256Hex("text" in blob ? blob.text : JSON.stringify(blob.json))).toBe(blob.hash);
    // Two environments and two frames (before and after the skill) on one prefix, one tool, one stable system.
    expect(hashes).toHaveLength(7);
    expect(JSON.stringify(sent)).not.toContain('"messages"');
    expect(resolved(sent).requests).toEqual(requestsOf(events));

    const replayed = (await stream.replay(0)).map((entry) => JSON.parse(entry.json) as SessionEvent);
    expect(replayed).toEqual(sent);
    await writer.close();
    const logged = await readSessionLog(writer.path);
    expect(logged.warnings).toEqual([]);
    expect(logged.header).toBeUndefined();
    expect(logged.events.map((record) => record.event)).toEqual(sent);
  });

  it("gives an isolated run's own messages as blobs, and a long message's figures with its first request", async () => {
    const writer = new SessionLogWriter(path.join(dir, "s.jsonl"));
    const stream = new EventStream(writer);
    const sent: SessionEvent[] = [];
    stream.subscribe((_seq, event) => sent.push(event));
    const events = conversation(2);
    const isolated: ChatMessage[] = [{ role: "user", content: "/notes\n\nSummarize." }];
    events.push({
      type: "request",
      runId: "run_2",
      snapshot: snapshot(3, isolated, "Another system prompt."),
    });
    // An answer too long to be counted as it is appended: its figures come with the request after it.
    const long: ChatMessage = { role: "assistant", content: "word ".repeat(5_000), toolCalls: [] };
    // (A copy, as the Runner sends one: the request's own object has been counted by then.)
    events.push({
      type: "history_appended",
      runId: "run_1",
      message: structuredClone(long),
      requestIndex: 4,
    });
    const history = [
      ...requestsOf(events)[1].messages,
      { role: "assistant", content: "answer 2", toolCalls: [] },
      long,
    ];
    events.push({ type: "request", runId: "run_1", snapshot: snapshot(5, history as ChatMessage[]) });
    for (const event of events) stream.emit(event);
    await writer.close();

    const requests = sent.flatMap((event) => (event.type === "request" ? [event.snapshot] : []));
    expect(requests[2].historyLength).toBeUndefined();
    expect(requests[2].messageSegments).toHaveLength(1);
    expect(requests[3].historyLength).toBe(5);
    expect(requests[3].messageSegments?.map((segment) => segment.name)).toEqual(["4"]);
    expect(resolved(sent).requests).toEqual(requestsOf(events));
    const logged = await readSessionLog(writer.path);
    expect(logged.warnings).toEqual([]);
    expect(resolved(logged.events.map((record) => record.event)).requests).toEqual(requestsOf(events));
  });

  it("reopens from the log and sends no blob the log already holds", async () => {
    const file = path.join(dir, "s.jsonl");
    const first = new SessionLogWriter(file);
    const before = conversation(3);
    const firstStream = new EventStream(first);
    for (const event of before) firstStream.emit(event);
    await first.close();

    const restored = (await readSessionLog(file)).events.map(({ seq, event }) => ({ seq, event }));
    const second = new SessionLogWriter(file);
    const reopened = new EventStream(second, restored);
    const sent: SessionEvent[] = [];
    reopened.subscribe((_seq, event) => sent.push(event));
    const after = conversation(5).slice(before.length);
    for (const event of after) reopened.emit(event);
    await second.close();
    expect(blobsOf(sent)).toEqual([]);
    const logged = await readSessionLog(file);
    expect(logged.warnings).toEqual([]);
    expect(resolved(logged.events.map((record) => record.event)).requests).toEqual(
      requestsOf([...before, ...after]),
    );
  });

  it("names what a damaged log cannot restore, and skips a blob whose content is not its hash's", async () => {
    const writer = new SessionLogWriter(path.join(dir, "s.jsonl"));
    const stream = new EventStream(writer);
    for (const event of conversation(3)) stream.emit(event);
    await writer.close();
    const lines = (await readFile(writer.path, "utf8")).split("\n");
    // The first request carries the frame, the stable system and the tool: lost, later ones miss them.
    const firstRequest = lines.findIndex((line) => line.includes('"type":"request"'));
    lines[firstRequest] = lines[firstRequest].slice(0, 40);
    // A later request's environment blob rewritten: its hash no longer names its content.
    const second = lines.findIndex((line, index) => index > firstRequest && line.includes('"blobs"'));
    lines[second] = lines[second].replace("Body", "Forged");
    await writeFile(writer.path, lines.join("\n"));
    const logged = await readSessionLog(writer.path);
    expect(logged.warnings).toContainEqual(
      expect.stringMatching(/s\.jsonl: 1 blob\(s\) at seq \d+ do not match their sha256/),
    );
    expect(logged.warnings).toContainEqual(
      expect.stringMatching(/s\.jsonl: the request at seq \d+ refers to \d+ blob\(s\) the log does not hold/),
    );
    const requests = resolved(logged.events.map((record) => record.event)).requests;
    for (const request of requests) {
      expect(request.system.environment).not.toContain("Forged");
      expect(request.system.stable).toBe("");
    }
  });

  it("stores provider payloads as lists that grow, and reads them back exactly", async () => {
    const writer = new SessionLogWriter(path.join(dir, "s.jsonl"));
    const stream = new EventStream(writer);
    const sent: SessionEvent[] = [];
    stream.subscribe((_seq, event) => sent.push(event));
    const events: RunnerEvent[] = [];
    const bodies: unknown[] = [];
    for (const event of conversation(12, "y".repeat(500))) {
      events.push(event);
      if (event.type !== "request") continue;
      const { snapshot: request } = event;
      // The session switches from Anthropic to OpenAI halfway.
      const body =
        request.requestIndex <= 6
          ? toAnthropicBody(request, "claude-test", 1024)
          : toOpenAiBody(request, "gpt-test", 1024);
      bodies.push(body);
      events.push({
        type: "provider_payload",
        runId: "run_1",
        requestIndex: request.requestIndex,
        payload: body,
      });
    }
    // A body whose own values look like the stored form is stored and read back as it is.
    const lookalike = { value: { lists: 1 }, lists: { messages: "0".repeat(64) }, tools: [{ $same: true }] };
    bodies.push(lookalike);
    events.push({ type: "provider_payload", runId: "run_1", requestIndex: 13, payload: lookalike });
    for (const event of events) stream.emit(event);
    await writer.close();
    expect(resolved(sent).payloads).toEqual(bodies);
    const logged = await readSessionLog(writer.path);
    expect(logged.warnings).toEqual([]);
    expect(resolved(logged.events.map((record) => record.event)).payloads).toEqual(bodies);
    // Each payload record adds what its request added (two messages), not the conversation again.
    const payloadLines = (await readFile(writer.path, "utf8"))
      .split("\n")
      .filter((line) => line.includes('"type":"provider_payload"'));
    expect(payloadLines[11].length * 4).toBeLessThan(JSON.stringify(bodies[11]).length);
    expect(payloadLines[11].length).toBeLessThan(payloadLines[10].length + 200);
  });
});
