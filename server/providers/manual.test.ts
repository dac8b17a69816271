import { describe, expect, it } from "vitest";
import type { AwaitingInput, ModelRequest, ProviderEvent } from "./types.ts";
import { ManualProvider } from "./manual.ts";
import { sampleRequest } from "./testing/collect.ts";

/** Starts draining a stream in the background; resolves with every event once it ends. */
function drain(stream: AsyncIterable<ProviderEvent>): {
  events: ProviderEvent[];
  finished: Promise<ProviderEvent[]>;
} {
  const events: ProviderEvent[] = [];
  const finished = (async () => {
    for await (const event of stream) events.push(event);
    return events;
  })();
  return { events, finished };
}

async function waitFor(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe("manual provider", () => {
  it("emits the payload, waits for the person, then streams their text and tool calls", async () => {
    const seen: ModelRequest[] = [];
    const manual = new ManualProvider({ onAwaitingInput: ({ request }) => seen.push(request) });
    const request = sampleRequest();
    const { events, finished } = drain(manual.stream(request, new AbortController().signal));
    await waitFor(() => manual.pending() !== undefined, "the pending request");
    expect(seen).toEqual([request]);
    expect(manual.pending()).toBe(request);
    expect(events.map((event) => event.type)).toEqual(["payload"]);
    expect(events[0]).toMatchObject({
      payload: { provider: "manual", system: request.system, messages: request.messages },
    });

    const answer = manual.respond({
      text: "I will load the review skill.",
      toolCalls: [
        { name: "load_skill", input: { name: "review" } },
        { name: "read_file", input: { path: "README.md" } },
      ],
    });
    expect(answer).toEqual({ ok: true });
    const all = await finished;
    expect(all.map((event) => event.type)).toEqual([
      "payload",
      "text_delta",
      "tool_call",
      "tool_call",
      "done",
    ]);
    const calls = all
      .filter((event) => event.type === "tool_call")
      .map((event) => (event as { call: { id: string; name: string; input: unknown } }).call);
    expect(calls.map((call) => [call.name, call.input])).toEqual([
      ["load_skill", { name: "review" }],
      ["read_file", { path: "README.md" }],
    ]);
    expect(new Set(calls.map((call) => call.id)).size).toBe(2);
    expect(manual.pending()).toBeUndefined();
  });

  it("refuses an answer when nothing waits, and a malformed answer while something does", async () => {
    const manual = new ManualProvider();
    expect(manual.respond({ text: "hi", toolCalls: [] })).toMatchObject({
      ok: false,
      error: expect.stringContaining("no model turn"),
    });
    const { finished } = drain(manual.stream(sampleRequest(), new AbortController().signal));
    await waitFor(() => manual.pending() !== undefined, "the pending request");
    expect(manual.respond({ text: "x", toolCalls: [{ name: " ", input: {} }] })).toMatchObject({ ok: false });
    expect(manual.pending()).toBeDefined();
    expect(manual.respond({ text: "", toolCalls: [] })).toEqual({ ok: true });
    expect((await finished).map((event) => event.type)).toEqual(["payload", "done"]);
  });

  it("ends with done at once when the run is canceled while waiting, and forgets the request", async () => {
    const manual = new ManualProvider();
    const controller = new AbortController();
    const { finished } = drain(manual.stream(sampleRequest(), controller.signal));
    await waitFor(() => manual.pending() !== undefined, "the pending request");
    controller.abort();
    expect((await finished).map((event) => event.type)).toEqual(["payload", "done"]);
    expect(manual.pending()).toBeUndefined();
    expect(manual.respond({ text: "late", toolCalls: [] }).ok).toBe(false);
  });

  it("a second request after an answered one waits again (one turn at a time)", async () => {
    const manual = new ManualProvider();
    for (const text of ["first", "second"]) {
      const { finished } = drain(manual.stream(sampleRequest(), new AbortController().signal));
      await waitFor(() => manual.pending() !== undefined, "the pending request");
      manual.respond({ text, toolCalls: [] });
      const events = await finished;
      expect(events.find((event) => event.type === "text_delta")).toEqual({ type: "text_delta", text });
    }
  });

  it("reports each waiting turn with a reply hook that answers that turn only", async () => {
    const waiting: AwaitingInput[] = [];
    const manual = new ManualProvider({ onAwaitingInput: (awaiting) => waiting.push(awaiting) });
    const first = drain(manual.stream(sampleRequest(), new AbortController().signal));
    await waitFor(() => waiting.length === 1, "the first awaiting input");
    expect(waiting[0]!.request).toBe(manual.pending());
    expect(waiting[0]!.reply({ text: "x", toolCalls: [{ name: "", input: {} }] })).toMatchObject({
      ok: false,
    });
    expect(waiting[0]!.reply({ text: "one", toolCalls: [] })).toEqual({ ok: true });
    await first.finished;
    const second = drain(manual.stream(sampleRequest(), new AbortController().signal));
    await waitFor(() => waiting.length === 2, "the second awaiting input");
    // The first turn's hook is spent: it never answers the turn waiting now.
    expect(waiting[0]!.reply({ text: "stale", toolCalls: [] })).toMatchObject({ ok: false });
    expect(manual.pending()).toBe(waiting[1]!.request);
    expect(waiting[1]!.reply({ text: "two", toolCalls: [] })).toEqual({ ok: true });
    const events = await second.finished;
    expect(events.find((event) => event.type === "text_delta")).toEqual({ type: "text_delta", text: "two" });
  });
});
