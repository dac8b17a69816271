// Snapshots on the wire refer to the conversation: what is left out (messages, the segments of messages
// whose figures went out with them) and what stays (a long message's segment, tokenized only when a
// request first sends it). Driven by the real Runner's events.
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { messageText } from "../prompt/segments.ts";
import { Runner } from "../runner/runner.ts";
import { createHarness, type Harness } from "../runner/testing/harness.ts";
import { ConversationReferences } from "./conversation-references.ts";

let harness: Harness;
beforeEach(async () => {
  harness = await createHarness();
});
afterEach(async () => {
  await harness.cleanup();
});

describe("request snapshots: a long message", () => {
  it("is tokenized when a request first sends it, and its segment then travels with that request", async () => {
    const long = "word ".repeat(5_000).trim();
    const scenario = `name: long\nturns:\n  - text: ${JSON.stringify(long)}\n  - text: short\n`;
    const deps = harness.deps(harness.scripted(scenario));
    await new Runner(deps).run("first");
    await new Runner(deps).run("second");
    const appended = harness.events.flatMap((event) => (event.type === "history_appended" ? [event] : []));
    const answer = appended.find((event) => event.message.content === long)!;
    expect(answer.figures).toBeUndefined(); // the run's end is not held up by tokenizing it
    const second = harness.requests()[1];
    const segment = second.segments!.find((entry) => entry.kind === "message" && entry.name === "1")!;
    expect(segment.tokens).toBe(countTokens(messageText(second.messages[1])));

    // On the wire the snapshot refers to the conversation and keeps only that message's segment.
    const references = new ConversationReferences();
    const wire = harness.events.map((event) => references.toWire(event));
    const request = wire.filter((event) => event.type === "request")[1];
    if (request.type !== "request") throw new Error("no request");
    expect(request.snapshot.messages).toBeUndefined();
    expect(request.snapshot.historyLength).toBe(3);
    expect(
      request.snapshot.segments!.filter((entry) => entry.kind === "message").map((entry) => entry.name),
    ).toEqual(["1"]);
  });
});
