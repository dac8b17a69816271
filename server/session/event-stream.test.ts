import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
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
