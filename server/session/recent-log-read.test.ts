// A session list's read of a closed session's log serves the open that follows it, once, and only while
// the file is the one it read: a real hub, real scripted runs, real log files in a temp home.
import { readFile, stat, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { RecentLogRead } from "./recent-log-read.ts";
import { sessionsDirectory } from "./session-hub.ts";
import { startHubHarness, type HubHarness } from "./testing/hub-harness.ts";

let harness: HubHarness;
beforeEach(async () => {
  harness = await startHubHarness("recent-log-read-");
});
afterEach(() => harness.close());

/** A whole second, so a file's mtime can be given back exactly (utimes drops sub-millisecond parts). */
const PINNED = new Date("2026-01-01T00:00:00Z");

/** A closed session with one completed run, and its log file (its mtime pinned). */
async function closedSession(): Promise<{ id: string; file: string }> {
  const { client, hub, home } = harness;
  const id = await client.createSession();
  expect((await client.sendMessage(id, "hello")).reason).toBe("completed");
  await hub.shutdown();
  const file = path.join(sessionsDirectory(home), `${id}.jsonl`);
  await utimes(file, PINNED, PINNED);
  return { id, file };
}

/** Puts other bytes of the same length in the file and gives it back its size and pinned mtime. */
async function swapBytesKeepingStat(file: string, from: string, to: string): Promise<void> {
  expect(to).toHaveLength(from.length);
  const before = await stat(file);
  const text = await readFile(file, "utf8");
  expect(text).toContain(from);
  await writeFile(file, text.replace(from, to));
  await utimes(file, PINNED, PINNED);
  expect((await stat(file)).mtimeMs).toBe(before.mtimeMs);
}

it("the open after a list uses the log the list read (the file is not read twice)", async () => {
  const { hub } = harness;
  const { id, file } = await closedSession();
  expect((await hub.list()).find((summary) => summary.id === id)?.title).toBe("hello");
  // Same size and mtime, other bytes: only an open that reads the file again would see them.
  await swapBytesKeepingStat(file, '"content":"hello"', '"content":"HELLO"');
  expect((await hub.open(id)).summary().title).toBe("hello");
});

it("a log that changed after the list is read again at the open", async () => {
  const { hub } = harness;
  const { id, file } = await closedSession();
  await hub.list();
  await swapBytesKeepingStat(file, '"content":"hello"', '"content":"HELLO"');
  await utimes(file, PINNED, new Date(PINNED.getTime() + 5_000));
  expect((await hub.open(id)).summary().title).toBe("HELLO");
});

it("a kept read is taken once, by its own session only", async () => {
  const { id, file } = await closedSession();
  const kept = new RecentLogRead();
  const loaded = { header: undefined, events: [], warnings: [], skipped: [] };
  kept.keep(id, await stat(file), loaded);
  expect(await kept.take("another", file)).toBeUndefined();
  kept.keep(id, await stat(file), loaded);
  expect(await kept.take(id, file)).toBe(loaded);
  expect(await kept.take(id, file)).toBeUndefined();
});
