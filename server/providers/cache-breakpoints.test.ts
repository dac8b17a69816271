// Prompt-cache placement on the wire, against the local Anthropic- and OpenAI-format servers: the rolling
// breakpoint rides on the conversation's last block from the second iteration on, OpenAI gets the
// session's prompt_cache_key, and a recorded Anthropic usage sequence replayed through the Anthropic
// server is exactly what the cache model predicts, request by request.
import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CacheModel } from "../cache/cache-model.ts";
import { loadCacheConfig } from "../cache/rules-file.ts";
import type { ChatMessage, Usage } from "../protocol/model.ts";
import type { PromptSegment } from "../protocol/runner-events.ts";
import { sha256Hex } from "../prompt/hash.ts";
import { Runner } from "../runner/runner.ts";
import { createHarness, type Harness } from "../testing/runner-harness.ts";
import { AnthropicProvider } from "./anthropic.ts";
import { OpenAiProvider } from "./openai.ts";
import { anthropicStream, startFakeAnthropic } from "./testing/fake-anthropic.ts";
import { openAiStream, startFakeOpenAi } from "./testing/fake-openai.ts";
import type { FakeServer } from "./testing/fake-http.ts";
import { collectEvents, eventsOfType } from "./testing/collect.ts";

const KEY = "sk-ant-cache-test-0123456789";

describe("rolling breakpoints through the Runner and the local Anthropic server", () => {
  let harness: Harness;
  let fake: FakeServer;
  beforeEach(async () => {
    harness = await createHarness();
    fake = await startFakeAnthropic();
  });
  afterEach(async () => {
    await fake.close();
    await harness.cleanup();
  });

  const twoIterations = () =>
    fake.enqueue(
      anthropicStream({
        text: "Loading.",
        toolUses: [{ id: "toolu_1", name: "load_skill", input: { name: "review" } }],
      }),
      anthropicStream({ text: "Done." }),
    );
  const provider = () =>
    new AnthropicProvider({ apiKey: KEY, baseUrl: fake.url, model: "claude-sonnet-4-5" });

  it("the second iteration's body carries a breakpoint on the conversation's last block, besides the stable one", async () => {
    twoIterations();
    await new Runner(harness.deps(provider(), {}, { breakpoints: "rolling" })).run("review it");
    const bodies = fake.requests.map((request) => request.body as any);
    expect(bodies).toHaveLength(2);
    for (const body of bodies) expect(body.system[0].cache_control).toEqual({ type: "ephemeral" });
    const last = bodies[1].messages.at(-1);
    expect(last.role).toBe("user");
    expect(last.content.at(-1)).toMatchObject({
      type: "tool_result",
      tool_use_id: "toolu_1",
      cache_control: { type: "ephemeral" },
    });
    // Only the last block: earlier blocks carry none, so at most 2 of the 4 breakpoints are used.
    const marked = JSON.stringify(bodies[1]).match(/cache_control/g) ?? [];
    expect(marked).toHaveLength(2);
  });

  it("stable only: no breakpoint on the conversation", async () => {
    twoIterations();
    await new Runner(harness.deps(provider(), {}, { breakpoints: "stable" })).run("review it");
    const body = fake.requests[1].body as any;
    expect(JSON.stringify(body.messages)).not.toContain("cache_control");
  });

  it("every request event carries snapshot.cache under the provider's model", async () => {
    twoIterations();
    const config = loadCacheConfig({ env: {} });
    await new Runner(
      harness.deps(
        provider(),
        {},
        { breakpoints: "rolling", predictor: new CacheModel(config.rules, config.prices) },
      ),
    ).run("review it");
    const caches = harness.requests().map((snapshot) => snapshot.cache!);
    expect(caches.map((cache) => [cache.model, cache.rules, cache.breakpoints])).toEqual([
      ["claude-sonnet-4-5", "anthropic", "rolling"],
      ["claude-sonnet-4-5", "anthropic", "rolling"],
    ]);
    expect(Object.keys(caches[0].predicted).sort()).toEqual([
      "cacheCreationInputTokens",
      "cacheReadInputTokens",
      "inputTokens",
    ]);
  });
});

describe("OpenAI prompt_cache_key", () => {
  it("is sent with every request of the session", async () => {
    const fake = await startFakeOpenAi();
    try {
      fake.enqueue(openAiStream({ text: "ok" }));
      const provider = new OpenAiProvider({ baseUrl: `${fake.url}/v1`, model: "gpt-5.4-mini" });
      const request = {
        system: { stable: "S", environment: "E" },
        messages: [{ role: "user" as const, content: "hi" }],
        tools: [],
        promptCacheKey: "pseudoclaude-session-abc",
      };
      await collectEvents(provider, request);
      expect((fake.requests[0].body as any).prompt_cache_key).toBe("pseudoclaude-session-abc");
    } finally {
      await fake.close();
    }
  });
});

interface Fixture {
  segments: Record<string, Omit<PromptSegment, "hash">>;
  requests: {
    why: string;
    seconds: number;
    run: string;
    model: string;
    breakpoints: "stable" | "rolling";
    segments: string[];
    usage: {
      input_tokens: number;
      cache_creation_input_tokens: number;
      cache_read_input_tokens: number;
      output_tokens: number;
    };
  }[];
}

describe("a recorded Anthropic usage sequence, replayed through the local server", () => {
  it("is predicted exactly, request by request", async () => {
    const fixture = JSON.parse(
      readFileSync(new URL("../cache/fixtures/anthropic-usage-sequence.json", import.meta.url), "utf8"),
    ) as Fixture;
    const config = loadCacheConfig({ env: {} });
    const model = new CacheModel(config.rules, config.prices);
    const fake = await startFakeAnthropic();
    try {
      const start = Date.UTC(2026, 11, 2, 9, 0, 0);
      for (const [position, recorded] of fixture.requests.entries()) {
        fake.enqueue(anthropicStream({ text: "ok", usage: recorded.usage }));
        const messages: ChatMessage[] = recorded.segments
          .filter((id) => fixture.segments[id].kind === "message")
          .map((id) => ({ role: "user", content: id }));
        const provider = new AnthropicProvider({ apiKey: KEY, baseUrl: fake.url, model: recorded.model });
        const events = await collectEvents(provider, {
          system: { stable: "S", environment: "E" },
          messages,
          tools: [],
          cacheBreakpoints: recorded.breakpoints,
        });
        const reported: Usage = eventsOfType(events, "usage")[0].usage;
        const prediction = model.predict({
          requestIndex: position + 1,
          runId: recorded.run,
          at: new Date(start + recorded.seconds * 1000).toISOString(),
          model: recorded.model,
          breakpoints: recorded.breakpoints,
          segments: recorded.segments.map((id) => ({ ...fixture.segments[id], hash: sha256Hex(id) })),
        });
        expect(
          {
            inputTokens: reported.inputTokens,
            cacheCreationInputTokens: reported.cacheCreationInputTokens,
            cacheReadInputTokens: reported.cacheReadInputTokens,
          },
          `request ${position + 1}: ${recorded.why}`,
        ).toEqual(prediction.predicted);
      }
    } finally {
      await fake.close();
    }
  });
});
