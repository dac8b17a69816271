// The request model: a snapshot's segments in the order the provider renders them, with hashes and
// token counts that can be recomputed independently, the eager alternative from the eager builders,
// and an event sink that throws reported as itself, not as a provider failure.
import { createHash } from "node:crypto";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RunnerEvent } from "../protocol/runner-events.ts";
import type { ProviderEvent } from "../providers/types.ts";
import { messageText, TOKENIZER_NAME } from "../prompt/segments.ts";
import { Runner } from "./runner.ts";
import { createHarness, REVIEW_BODY, type Harness } from "../testing/runner-harness.ts";

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

const LOAD_REVIEW_THEN_ANSWER = `
name: review-demo
turns:
  - text: Let me load the review skill.
    tool_calls:
      - { name: load_skill, input: { name: review } }
  - text: "Findings: none."
`;

let harness: Harness;
beforeEach(async () => {
  harness = await createHarness();
});
afterEach(async () => {
  await harness.cleanup();
});

describe("request snapshots: segments", () => {
  it("lists tools, the stable system, the environment's sections and the messages, in render order", async () => {
    await new Runner(harness.deps(harness.scripted(LOAD_REVIEW_THEN_ANSWER))).run("review my code");
    const [, second] = harness.requests();
    expect(second.tokenizer).toBe(TOKENIZER_NAME);
    const segments = second.segments!;
    expect(segments.map((segment) => `${segment.kind}:${segment.name}`)).toEqual([
      ...second.tools.map((tool) => `tool:${tool.name}`),
      "system:stable",
      "environment:base",
      "environment:review",
      ...second.messages.map((_message, index) => `message:${index}`),
    ]);

    // The environment's sections are the server's own, and concatenate to the environment exactly.
    const environment = segments.filter((segment) => segment.kind === "environment");
    let offset = 0;
    for (const segment of environment) {
      const text = second.system.environment.slice(offset, offset + segment.chars!);
      expect(segment.hash).toBe(sha256(text));
      expect(segment.tokens).toBe(countTokens(text));
      offset += segment.chars!;
    }
    expect(offset).toBe(second.system.environment.length);
    const review = second.system.environment.slice(environment[0].chars!);
    expect(review.startsWith(`<skill name="review" source="builtin">\n${REVIEW_BODY}`)).toBe(true);

    // Every figure can be recomputed from what the model was sent.
    const stable = segments.find((segment) => segment.kind === "system")!;
    expect(stable).toMatchObject({
      hash: second.stableHash,
      tokens: countTokens(second.system.stable),
      chars: second.system.stable.length,
    });
    const messages = segments.filter((segment) => segment.kind === "message");
    second.messages.forEach((message, index) => {
      expect(messages[index].hash).toBe(sha256(JSON.stringify(message)));
      expect(messages[index].tokens).toBe(countTokens(messageText(message)));
    });
    const tool = second.tools[0];
    expect(segments[0].tokens).toBe(
      countTokens(
        JSON.stringify({ name: tool.name, description: tool.description, input_schema: tool.inputSchema }),
      ),
    );
  });

  it("gives each appended message its figures, and the assistant's message names its request, once", async () => {
    await new Runner(harness.deps(harness.scripted(LOAD_REVIEW_THEN_ANSWER))).run("review my code");
    const appended = harness.events.flatMap((event) => (event.type === "history_appended" ? [event] : []));
    expect(appended.map((event) => [event.message.role, event.requestIndex])).toEqual([
      ["user", undefined],
      ["assistant", 1],
      ["tool", undefined],
      ["assistant", 2],
    ]);
    for (const event of appended) expect(event.figures?.hash).toBe(sha256(JSON.stringify(event.message)));
    expect(harness.events.some((event) => event.type === "assistant_message")).toBe(false);
    // The last request's message segments are the appended messages' figures.
    const last = harness.requests().at(-1)!;
    expect(last.segments!.filter((segment) => segment.kind === "message").map((s) => s.hash)).toEqual(
      appended.slice(0, last.messages.length).map((event) => event.figures!.hash),
    );
  });

  it("computes the eager alternative with the builders eager mode uses", async () => {
    await new Runner(harness.deps(harness.scripted("name: p\nturns:\n  - text: ok\n"))).run("hi");
    // The same workspace and first message, in eager mode (a conversation of its own).
    await new Runner(
      harness.deps(harness.scripted("name: p\nturns:\n  - text: ok\n"), { disclosure: "eager", history: [] }),
    ).run("hi");
    const [progressive, eager] = harness.requests();
    expect(eager.messages).toEqual(progressive.messages);
    const eagerSegments = eager.segments!;
    const sum = (kind?: string) =>
      eagerSegments
        .filter((segment) => !kind || segment.kind === kind)
        .reduce((total, s) => total + s.tokens, 0);
    expect(progressive.eager).toEqual({
      stableChars: eager.system.stable.length,
      stableTokens: countTokens(eager.system.stable),
      environmentTokens: sum("environment"),
      totalTokens: sum(),
    });
    // In eager mode the alternative is the request itself.
    expect(eager.eager!.totalTokens).toBe(sum());
  });
});

describe("the Runner's event sink", () => {
  it("throwing is reported as the sink's failure, not the provider's, and the stream is closed", async () => {
    let closed = false;
    const provider = {
      name: "fine",
      model: "fine-1",
      async *stream(): AsyncIterable<ProviderEvent> {
        try {
          yield { type: "text_delta", text: "hello" };
          yield { type: "done" };
        } finally {
          closed = true;
        }
      },
    };
    const events: RunnerEvent[] = [];
    const deps = harness.deps(provider, {
      onEvent: (event) => {
        events.push(event);
        if (event.type === "text_delta") throw new Error("the socket is gone");
      },
    });
    await expect(new Runner(deps).run("hi")).rejects.toThrow(
      "the runner's event sink failed: the socket is gone",
    );
    expect(closed).toBe(true);
    const stop = events.find((event) => event.type === "stop");
    expect(stop === undefined || !JSON.stringify(stop).includes("the provider failed")).toBe(true);
  });
});
