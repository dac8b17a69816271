// The Runner, driven through the fake API servers, with real skills, a real skill tool (a child process)
// and real files: load_skill → skill tool → answer, with each real provider. Then a provider failure
// ends the run with provider_error, the history is kept, and the next message works.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RunnerEvent } from "../protocol/runner-events.ts";
import { Runner } from "../runner/runner.ts";
import { createHarness, ROWS_BODY, type Harness } from "../testing/runner-harness.ts";
import { AnthropicProvider } from "./anthropic.ts";
import { OpenAiProvider } from "./openai.ts";
import { ManualProvider } from "./manual.ts";
import { anthropicError, anthropicStream, startFakeAnthropic } from "./testing/fake-anthropic.ts";
import { openAiError, openAiStream, startFakeOpenAi } from "./testing/fake-openai.ts";
import type { FakeResponse, FakeServer } from "./testing/fake-http.ts";
import type { Provider } from "./types.ts";

interface Turn {
  text?: string;
  calls?: { id: string; name: string; input: Record<string, unknown> }[];
}

/** What differs per API: the fake, the provider, and where the system parts and tool results sit. */
interface ApiUnderTest {
  name: string;
  start(): Promise<FakeServer>;
  provider(fake: FakeServer): Provider;
  turn(turn: Turn): FakeResponse;
  unauthorized(): FakeResponse;
  /** [stable, environment] as sent. */
  systemParts(body: any): string[];
  /** Every tool result text in the request, in order. */
  toolResults(body: any): string[];
  assertCacheControl(body: any): void;
}

const anthropicApi: ApiUnderTest = {
  name: "anthropic",
  start: startFakeAnthropic,
  provider: (fake) =>
    new AnthropicProvider({
      apiKey: "sk-ant-flow-test-0123456789",
      baseUrl: fake.url,
      model: "claude-flow",
      retry: { baseDelayMs: 1 },
    }),
  turn: (turn) =>
    anthropicStream({
      text: turn.text,
      toolUses: turn.calls?.map((call) => ({ ...call, chunks: 7 })),
      usage: { input_tokens: 100, output_tokens: 10, cache_read_input_tokens: 80 },
    }),
  unauthorized: () => anthropicError(401, "authentication_error", "invalid x-api-key"),
  systemParts: (body) => body.system.map((block: { text: string }) => block.text),
  toolResults: (body) =>
    body.messages.flatMap((message: { content: any[] }) =>
      message.content.filter((block) => block.type === "tool_result").map((block) => block.content),
    ),
  assertCacheControl: (body) => {
    expect(body.system[0].cache_control).toEqual({ type: "ephemeral" });
    expect(body.system[1].cache_control).toBeUndefined();
  },
};

const openAiApi: ApiUnderTest = {
  name: "openai",
  start: startFakeOpenAi,
  provider: (fake) =>
    new OpenAiProvider({
      apiKey: "sk-flow-test-0123456789",
      baseUrl: `${fake.url}/v1`,
      model: "gpt-flow",
      retry: { baseDelayMs: 1 },
    }),
  turn: (turn) =>
    openAiStream({
      text: turn.text,
      toolCalls: turn.calls?.map((call) => ({
        id: call.id,
        name: call.name,
        arguments: call.input,
        chunks: 7,
      })),
      usage: { prompt_tokens: 100, completion_tokens: 10, cached_tokens: 80 },
    }),
  unauthorized: () =>
    openAiError(401, "Incorrect API key provided", "invalid_request_error", "invalid_api_key"),
  systemParts: (body) =>
    body.messages
      .filter((message: { role: string }) => message.role === "system")
      .map((message: { content: string }) => message.content),
  toolResults: (body) =>
    body.messages
      .filter((message: { role: string }) => message.role === "tool")
      .map((message: { content: string }) => message.content),
  assertCacheControl: (body) => {
    expect(body.messages[0].role).toBe("system");
    expect(body.messages[1].role).toBe("system");
  },
};

const CSV = "name,qty\napple,3\npear,5";

function stops(events: RunnerEvent[]) {
  return events.filter((event): event is Extract<RunnerEvent, { type: "stop" }> => event.type === "stop");
}

describe.each([anthropicApi, openAiApi])("Runner through the fake $name server", (api) => {
  let harness: Harness;
  let fake: FakeServer;
  beforeEach(async () => {
    harness = await createHarness();
    fake = await api.start();
  });
  afterEach(async () => {
    await fake.close();
    await harness.cleanup();
  });

  it("completes load_skill → skill tool → answer", async () => {
    fake.enqueue(
      api.turn({
        text: "Loading the rows skill.",
        calls: [{ id: "call_load", name: "load_skill", input: { name: "rows" } }],
      }),
      api.turn({ calls: [{ id: "call_count", name: "count_rows", input: { text: CSV } }] }),
      api.turn({ text: "The CSV has 3 rows." }),
    );
    const runner = new Runner(harness.deps(api.provider(fake)));
    const outcome = await runner.run("How many rows does my CSV have?");

    expect(outcome).toMatchObject({ reason: "completed", iterations: 3, finalText: "The CSV has 3 rows." });
    expect(
      harness.history.filter((message) => message.role === "tool").map((message) => message.content),
    ).toEqual(['loaded skill "rows" (1 specialized tools registered)', "rows: 3\n"]);
    expect(fake.requests).toHaveLength(3);
    const bodies = fake.requests.map((request) => request.body as any);
    const [stable1, environment1] = api.systemParts(bodies[0]);
    const [stable2, environment2] = api.systemParts(bodies[1]);
    const [stable3] = api.systemParts(bodies[2]);
    // The stable part is byte-identical across requests (cache prefix intact); the body went to the environment.
    expect(stable2).toBe(stable1);
    expect(stable3).toBe(stable1);
    expect(stable1).not.toContain(ROWS_BODY);
    expect(environment1).not.toContain(ROWS_BODY);
    expect(environment2).toContain(ROWS_BODY);
    bodies.forEach((body) => api.assertCacheControl(body));
    expect(api.toolResults(bodies[2])).toEqual([
      'loaded skill "rows" (1 specialized tools registered)',
      "rows: 3\n",
    ]);

    const usage = harness.events.filter((event) => event.type === "usage");
    expect(usage).toHaveLength(3);
    expect(usage[0]).toMatchObject({ usage: { inputTokens: 100, cacheReadInputTokens: 80 } });
    expect(harness.events.filter((event) => event.type === "provider_payload")).toHaveLength(3);
  });

  it("a provider failure stops the run with provider_error, keeps the history, and the next message works", async () => {
    fake.enqueue(
      api.turn({
        text: "Loading.",
        calls: [{ id: "call_load", name: "load_skill", input: { name: "rows" } }],
      }),
      api.unauthorized(),
      api.turn({ text: "Back again." }),
    );
    const runner = new Runner(harness.deps(api.provider(fake)));
    const failed = await runner.run("count rows");
    expect(failed.reason).toBe("provider_error");
    expect(failed.message).toMatch(/401/);
    expect(stops(harness.events)[0]).toMatchObject({ reason: "provider_error" });
    const kept = harness.history.length;
    expect(harness.history.map((message) => message.role)).toEqual(["user", "assistant", "tool"]);

    const next = await runner.run("try again");
    expect(next).toMatchObject({ reason: "completed", finalText: "Back again." });
    expect(harness.history.length).toBeGreaterThan(kept);
    // The retry request carried the whole earlier conversation, tool result included.
    expect(api.toolResults(fake.requests[2].body)).toEqual([
      'loaded skill "rows" (1 specialized tools registered)',
    ]);
  });
});

describe("Runner with the manual provider (the person is the model)", () => {
  let harness: Harness;
  beforeEach(async () => {
    harness = await createHarness();
  });
  afterEach(async () => {
    await harness.cleanup();
  });

  it("completes load_skill → skill tool → answer from answers typed by the person", async () => {
    const answers = [
      { text: "I'll load rows.", toolCalls: [{ name: "load_skill", input: { name: "rows" } }] },
      { text: "", toolCalls: [{ name: "count_rows", input: { text: CSV } }] },
      { text: "3 rows.", toolCalls: [] },
    ];
    const seenEnvironments: string[] = [];
    const manual = new ManualProvider({
      // The browser answers later, not inside the notification.
      onAwaitingInput: ({ request, reply }) => {
        seenEnvironments.push(request.system.environment);
        setImmediate(() => expect(reply(answers.shift()!)).toEqual({ ok: true }));
      },
    });
    const outcome = await new Runner(harness.deps(manual)).run("How many rows?");
    expect(outcome).toMatchObject({ reason: "completed", iterations: 3, finalText: "3 rows." });
    expect(
      harness.history.filter((message) => message.role === "tool").map((message) => message.content),
    ).toEqual(['loaded skill "rows" (1 specialized tools registered)', "rows: 3\n"]);
    expect(seenEnvironments[0]).not.toContain(ROWS_BODY);
    expect(seenEnvironments[1]).toContain(ROWS_BODY);
  });

  it("cancel while the person is thinking stops the run as canceled", async () => {
    const controller = new AbortController();
    const manual = new ManualProvider({ onAwaitingInput: () => setImmediate(() => controller.abort()) });
    const outcome = await new Runner(harness.deps(manual)).run("hello", { signal: controller.signal });
    expect(outcome.reason).toBe("canceled");
    expect(manual.pending()).toBeUndefined();
  });
});
