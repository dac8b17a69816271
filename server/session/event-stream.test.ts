import { mkdtemp, readFile, rename, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SessionEvent } from "../protocol/wire.ts";
import { REDACTED, SecretRedactor, SecretScope } from "../providers/redact.ts";
import { EventStream, MEMORY_REPLAY_CHARS } from "./event-stream.ts";
import { SessionLogWriter, readSessionLog } from "./session-log.ts";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "event-stream-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("EventStream", () => {
  it("bounds the memory buffer and replays older events from the log", async () => {
    const writer = new SessionLogWriter(path.join(dir, "s.jsonl"));
    const stream = new EventStream(writer);
    const live: number[] = [];
    stream.subscribe((seq) => live.push(seq));
    const big = "z".repeat(100_000);
    const count = Math.ceil((MEMORY_REPLAY_CHARS * 2) / big.length);
    for (let index = 0; index < count; index++) {
      stream.emit({ type: "session_error", code: "filler", message: `${index} ${big}` });
      stream.emit({ type: "text_delta", runId: "r", requestIndex: 1, text: "delta" });
    }
    stream.emit({ type: "session_error", code: "transient", message: "not stored" }, { keep: "none" });
    expect(live).toHaveLength(count * 2 + 1);
    expect(stream.firstBufferedSeq).toBeGreaterThan(count);
    expect(stream.after(0).reduce((sum, entry) => sum + entry.json.length, 0)).toBeLessThanOrEqual(
      MEMORY_REPLAY_CHARS,
    );

    const replayed = await stream.replay(0);
    const seqs = replayed.map((entry) => entry.seq);
    expect([...seqs].sort((left, right) => left - right)).toEqual(seqs);
    // Every durable non-delta event is there; deltas only from the memory part; the transient one never.
    const errors = replayed
      .map((entry) => JSON.parse(entry.json))
      .filter((event) => event.type === "session_error");
    expect(errors).toHaveLength(count);
    expect(seqs).not.toContain(count * 2 + 1);
    expect((await stream.replay(stream.lastSeq - 3)).map((entry) => entry.seq)).toEqual([
      stream.lastSeq - 2,
      stream.lastSeq - 1,
    ]);
    await writer.close();
    const logged = await readSessionLog(writer.path);
    expect(logged.events).toHaveLength(count);
  });
});

describe("EventStream redaction (S11)", () => {
  const KEY = "stream-registered-key-6b0e2d";

  it("redacts a configured key from the log, the replay buffer and every subscriber; copies nothing else", async () => {
    const redactor = new SecretRedactor();
    redactor.register(KEY);
    const writer = new SessionLogWriter(path.join(dir, "s.jsonl"));
    const stream = new EventStream(writer, [], new SecretScope(redactor));
    const delivered: { event: SessionEvent; json: string }[] = [];
    stream.subscribe((_seq, event, json) => delivered.push({ event, json }));
    const clean: SessionEvent = { type: "session_error", code: "x", message: "nothing secret here" };
    const leaking: SessionEvent = { type: "session_error", code: "x", message: `saw ${KEY} in a skill file` };
    stream.emit(clean);
    stream.emit(leaking);

    expect(delivered[0].event).toBe(clean); // no copy of an event without a secret
    expect(delivered[1].event).toEqual({
      type: "session_error",
      code: "x",
      message: `saw ${REDACTED} in a skill file`,
    });
    expect(leaking.message).toContain(KEY); // the emitter's object is left alone
    await writer.close();
    const logText = await readFile(writer.path, "utf8");
    const everything = [
      logText,
      ...delivered.map((entry) => entry.json),
      ...stream.after(0).map((e) => e.json),
    ];
    for (const text of everything) expect(text).not.toContain(KEY);
    expect(logText).toContain(REDACTED);
  });

  it("redacts events replayed from a log written before the key was known", async () => {
    const file = path.join(dir, "old.jsonl");
    const old = "old-log-key-value-1d9c3a";
    const oldWriter = new SessionLogWriter(file);
    const redactor = new SecretRedactor();
    const oldStream = new EventStream(oldWriter, [], new SecretScope(redactor));
    // Enough filler that the first event is no longer in memory and must come back from the log.
    oldStream.emit({ type: "session_error", code: "x", message: `old ${old}` });
    const big = "z".repeat(100_000);
    for (let index = 0; index < Math.ceil((MEMORY_REPLAY_CHARS * 2) / big.length); index++)
      oldStream.emit({ type: "session_error", code: "filler", message: big });
    redactor.register(old);
    const replayed = await oldStream.replay(0);
    expect(replayed[0].json).toContain(`old ${REDACTED}`);
    expect(replayed.map((entry) => entry.json).join("\n")).not.toContain(old);
    await oldWriter.close();
  });
});

describe("EventStream memory", () => {
  it("lets go of its buffer when released: replay reads the log, memory-only events are kept, superseded deltas dropped", async () => {
    const writer = new SessionLogWriter(path.join(dir, "s.jsonl"));
    const stream = new EventStream(writer);
    stream.emit(
      { type: "session_error", code: "restore_failed", message: "only in memory" },
      { keep: "memory" },
    );
    stream.emit({ type: "run_started", runId: "r", userMessage: "hi" });
    stream.emit({ type: "text_delta", runId: "r", requestIndex: 1, text: "Hel" });
    stream.emit({ type: "text_delta", runId: "r", requestIndex: 1, text: "lo" });
    // The answer's message holds its text: its deltas leave the replay.
    stream.emit({
      type: "history_appended",
      runId: "r",
      requestIndex: 1,
      message: { role: "assistant", content: "Hello", toolCalls: [] },
    });
    const types = (entries: { json: string }[]) =>
      entries.map((entry) => (JSON.parse(entry.json) as SessionEvent).type);
    expect(types(await stream.replay(0))).toEqual(["session_error", "run_started", "history_appended"]);
    stream.releaseMemory();
    expect(stream.after(0)).toEqual([]);
    const replayed = await stream.replay(0);
    expect(replayed.map((entry) => entry.seq)).toEqual([1, 2, 5]);
    expect(types(replayed)).toEqual(["session_error", "run_started", "history_appended"]);
    await writer.close();
  });
});

describe("EventStream reopened from its log", () => {
  it("serves the first replay from the events the reopen read (no second read of the log); later replays read it", async () => {
    const file = path.join(dir, "s.jsonl");
    const writer = new SessionLogWriter(file);
    const stream = new EventStream(writer);
    const big = "y".repeat(100_000);
    const count = Math.ceil((MEMORY_REPLAY_CHARS * 2) / big.length);
    for (let index = 0; index < count; index++)
      stream.emit({ type: "session_error", code: "filler", message: `${index} ${big}` });
    await writer.close();

    const restored = (await readSessionLog(file)).events;
    const reopenedWriter = new SessionLogWriter(file);
    const reopened = new EventStream(reopenedWriter, restored);
    expect(reopened.firstBufferedSeq).toBeGreaterThan(1);
    // With the log out of the way, only the restored events can answer the first replay.
    await rename(file, `${file}.away`);
    const first = await reopened.replay(0);
    await rename(`${file}.away`, file);
    expect(first.map((entry) => entry.seq)).toEqual(restored.map((entry) => entry.seq));
    // The restored events are let go: the next replay reads the log and says the same.
    const second = await reopened.replay(0);
    expect(second).toEqual(first);
    await reopenedWriter.close();
  });
});
