// Setup the provider suites share: a fresh fake API server for every test (closed after it), and a
// provider pointed at it with retries fast enough for tests.
import { afterEach, beforeEach } from "vitest";
import { AnthropicProvider, type AnthropicProviderOptions } from "../anthropic.ts";
import { OpenAiProvider, type OpenAiProviderOptions } from "../openai.ts";
import { startFakeAnthropic } from "./fake-anthropic.ts";
import { startFakeOpenAi } from "./fake-openai.ts";
import type { FakeServer } from "./fake-http.ts";

export const FAST_RETRY = { baseDelayMs: 2, maxDelayMs: 20 };
export const ANTHROPIC_TEST_KEY = "sk-ant-test-0123456789abcdef";
export const OPENAI_TEST_KEY = "sk-proj-test-abcdef0123456789";

export interface TestFakeServer extends FakeServer {
  /** The parsed JSON body of the `index`th request the fake received. */
  sentBody(index?: number): Record<string, any>;
}

/** Registers beforeEach/afterEach hooks; the returned handle always speaks to the current test's server. */
export function useFakeServer(start: () => Promise<FakeServer>): TestFakeServer {
  let current: FakeServer | undefined;
  beforeEach(async () => {
    current = await start();
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  const active = (): FakeServer => {
    if (!current) throw new Error("the fake server is only running inside a test");
    return current;
  };
  return {
    get url() {
      return active().url;
    },
    get requests() {
      return active().requests;
    },
    enqueue: (...responses) => active().enqueue(...responses),
    remaining: () => active().remaining(),
    close: () => active().close(),
    sentBody: (index = 0) => active().requests[index].body as Record<string, any>,
  };
}

export function useAnthropicFake(): {
  fake: TestFakeServer;
  provider(overrides?: Partial<AnthropicProviderOptions>): AnthropicProvider;
} {
  const fake = useFakeServer(startFakeAnthropic);
  const provider = (overrides: Partial<AnthropicProviderOptions> = {}) =>
    new AnthropicProvider({
      apiKey: ANTHROPIC_TEST_KEY,
      baseUrl: fake.url,
      model: "claude-test",
      retry: FAST_RETRY,
      ...overrides,
    });
  return { fake, provider };
}

export function useOpenAiFake(): {
  fake: TestFakeServer;
  provider(overrides?: Partial<OpenAiProviderOptions>): OpenAiProvider;
} {
  const fake = useFakeServer(startFakeOpenAi);
  const provider = (overrides: Partial<OpenAiProviderOptions> = {}) =>
    new OpenAiProvider({
      apiKey: OPENAI_TEST_KEY,
      baseUrl: `${fake.url}/v1`,
      model: "gpt-test",
      retry: FAST_RETRY,
      ...overrides,
    });
  return { fake, provider };
}
