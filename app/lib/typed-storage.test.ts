// What the user typed, as the tab keeps it for a reload (typed-storage.ts: the queue and the draft;
// typed-answers.ts: a manual answer and a deny reason per key): written, read back after "the reload" (a
// fresh read of the same storage), removed when nothing is left, and an unreadable entry reads as nothing.
// The tab's sessionStorage is a Storage of the test's own (no browser here); without a window at all (the
// build's prerender) nothing is read or kept.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readManualAnswer, readText, writeManualAnswer, writeText } from "./typed-answers.ts";
import { draftKey, queueKey, readDraft, readQueued, writeDraft, writeQueued } from "./typed-storage.ts";

class TabStorage {
  readonly items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
}

const global = globalThis as Record<string, unknown>;
let storage: TabStorage;
beforeEach(() => {
  storage = new TabStorage();
  global.window = { sessionStorage: storage };
});
afterEach(() => {
  delete global.window;
});

describe("the queue and the draft", () => {
  it("come back after a reload, and leave no key once empty", () => {
    writeQueued([
      { sessionId: "s1", text: "first" },
      { sessionId: "s2", text: "second\nline" },
    ]);
    writeDraft("half a thought");
    expect(readQueued()).toEqual([
      { sessionId: "s1", text: "first" },
      { sessionId: "s2", text: "second\nline" },
    ]);
    expect(readDraft()).toBe("half a thought");
    writeQueued([]);
    writeDraft("");
    expect(storage.items.has(queueKey)).toBe(false);
    expect(storage.items.has(draftKey)).toBe(false);
    expect(readQueued()).toEqual([]);
    expect(readDraft()).toBe("");
  });

  it("an unreadable queue reads as none, and entries of another shape are skipped", () => {
    storage.setItem(queueKey, "{not json");
    expect(readQueued()).toEqual([]);
    storage.setItem(
      queueKey,
      JSON.stringify([{ sessionId: "s1", text: "kept" }, { sessionId: 3 }, null, "x"]),
    );
    expect(readQueued()).toEqual([{ sessionId: "s1", text: "kept" }]);
    storage.setItem(queueKey, JSON.stringify({ sessionId: "s1", text: "not a list" }));
    expect(readQueued()).toEqual([]);
  });
});

describe("a deny reason and a manual answer, per key", () => {
  it("come back under their own key and are removed when emptied", () => {
    writeText("reason-a", "not in production");
    writeManualAnswer("answer-b", {
      text: "Loading it.",
      calls: [{ name: "load_skill", input: { name: "x" } }],
    });
    expect(readText("reason-a")).toBe("not in production");
    expect(readText("reason-other")).toBe("");
    expect(readManualAnswer("answer-b")).toEqual({
      text: "Loading it.",
      calls: [{ name: "load_skill", input: { name: "x" } }],
    });
    expect(readManualAnswer("answer-none")).toEqual({ text: "", calls: [] });
    writeText("reason-a", "");
    writeManualAnswer("answer-b", { text: "", calls: [] });
    expect([...storage.items.keys()]).toEqual([]);
  });

  it("without a window (a prerender) nothing is read and nothing is kept", () => {
    delete global.window;
    expect(readText("reason-a")).toBe("");
    writeText("reason-a", "typed");
    expect(readManualAnswer("answer-b")).toEqual({ text: "", calls: [] });
    expect([...storage.items.keys()]).toEqual([]);
  });
});
