// A tool call cut off by the output-token limit (Anthropic stop_reason "max_tokens", Chat Completions
// finish_reason "length", with the call's JSON input incomplete) goes back to the model as an error
// result it can act on — retry with a smaller input — instead of ending the run as a provider error.
// Driven through the local servers that speak each API's wire format.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Runner } from "../runner/runner.ts";
import { createHarness, readNote, type Harness } from "../testing/runner-harness.ts";
import { AnthropicProvider } from "./anthropic.ts";
import { OpenAiProvider } from "./openai.ts";
import { anthropicStream, startFakeAnthropic } from "./testing/fake-anthropic.ts";
import { openAiStream, startFakeOpenAi } from "./testing/fake-openai.ts";
import type { FakeResponse, FakeServer } from "./testing/fake-http.ts";
import type { Provider } from "./types.ts";

/** What the model had written of write_note's input when the output limit cut it. */
const CUT_INPUT = '{"text": "Chapter one. It was a long note that went on and on, and';

interface ApiUnderTest {
  name: string;
  start(): Promise<FakeServer>;
  provider(fake: FakeServer): Provider;
  /** A complete echo call, then a write_note call whose input the output limit cut. */
  cutTurn(): FakeResponse;
  answer(text: string): FakeResponse;
  /** The tool results of a request body: [content, is an error]. */
  toolResults(body: any): [string, boolean][];
}

const anthropicApi: ApiUnderTest = {
  name: "anthropic",
  start: startFakeAnthropic,
  provider: (fake) =>
    new AnthropicProvider({
      apiKey: "sk-ant-cut-test-0123456789",
      baseUrl: fake.url,
      model: "claude-cut",
      maxTokens: 64,
      retry: { baseDelayMs: 1 },
    }),
  cutTurn: () =>
    anthropicStream({
      text: "Echoing, then writing the note.",
      toolUses: [
        { id: "toolu_echo", name: "echo", input: { text: "hi" } },
        { id: "toolu_cut", name: "write_note", input: {}, inputJson: CUT_INPUT, chunks: 3 },
      ],
      stopReason: "max_tokens",
    }),
  answer: (text) => anthropicStream({ text }),
  toolResults: (body) =>
    body.messages.flatMap((message: { content: any }) =>
      Array.isArray(message.content)
        ? message.content
            .filter((block: { type: string }) => block.type === "tool_result")
            .map((block: { content: unknown; is_error?: boolean }) => [
              typeof block.content === "string" ? block.content : JSON.stringify(block.content),
              block.is_error === true,
            ])
        : [],
    ),
};

const openAiApi: ApiUnderTest = {
  name: "openai",
  start: startFakeOpenAi,
  provider: (fake) =>
    new OpenAiProvider({
      apiKey: "sk-cut-test-0123456789",
      baseUrl: `${fake.url}/v1`,
      model: "gpt-cut",
      maxTokens: 64,
      retry: { baseDelayMs: 1 },
    }),
  cutTurn: () =>
    openAiStream({
      text: "Echoing, then writing the note.",
      toolCalls: [
        { id: "call_echo", name: "echo", arguments: { text: "hi" } },
        { id: "call_cut", name: "write_note", arguments: {}, argumentsJson: CUT_INPUT, chunks: 3 },
      ],
      finishReason: "length",
    }),
  answer: (text) => openAiStream({ text }),
  // Chat Completions has no error flag on a tool message: the text says it.
  toolResults: (body) =>
    body.messages
      .filter((message: { role: string }) => message.role === "tool")
      .map((message: { content: string }) => [message.content, message.content.startsWith("[tool error] ")]),
};

describe.each([anthropicApi, openAiApi])("a tool call cut by the output limit ($name)", (api) => {
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

  it("returns to the model as an error result saying so, and the run goes on", async () => {
    fake.enqueue(api.cutTurn(), api.answer("I'll write the note in smaller parts."));
    const outcome = await new Runner(harness.deps(api.provider(fake))).run("Write a long note.");

    expect(outcome).toMatchObject({ reason: "completed", iterations: 2 });
    // The cut call was not run; the complete one before it was.
    expect(await readNote(harness)).toBeUndefined();
    const tools = harness.history.filter((message) => message.role === "tool");
    expect(tools.map((message) => [message.toolName, message.isError === true])).toEqual([
      ["echo", false],
      ["write_note", true],
    ]);
    const cut = tools[1];
    expect(cut.content).toMatch(/cut off by the output token limit/);
    expect(cut.content).toMatch(/retry .*smaller input/i);
    // The assistant message keeps the call (its input as far as it is valid: none), so the result pairs.
    const assistant = harness.history.find((message) => message.role === "assistant");
    expect(assistant?.role === "assistant" && assistant.toolCalls.map((call) => call.name)).toEqual([
      "echo",
      "write_note",
    ]);
    const results = harness.events.filter((event) => event.type === "tool_result");
    expect(results.map((event) => event.result.ok)).toEqual([true, false]);
    expect(harness.events.some((event) => event.type === "stop" && event.reason === "provider_error")).toBe(
      false,
    );

    // The model sees the error result on its next request.
    expect(fake.requests).toHaveLength(2);
    const [echoResult, cutResult] = api.toolResults(fake.requests[1].body);
    expect(echoResult).toEqual(["echo: hi", false]);
    expect(cutResult[0]).toMatch(/cut off by the output token limit/);
    if (api.name === "anthropic") expect(cutResult[1]).toBe(true);
  });
});
