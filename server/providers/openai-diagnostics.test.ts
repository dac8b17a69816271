// OpenAI's cache reports in the same fields as Anthropic's, over the real SDK and a local server speaking
// Chat Completions: cached_tokens is the read (inside prompt_tokens), and a prompt_cache_diagnostics
// object (the Responses API's, which a compatible server may add) becomes the provider-neutral report.
import { describe, expect, it } from "vitest";
import { openAiStream } from "./testing/fake-openai.ts";
import { useOpenAiFake } from "./testing/provider-setup.ts";
import { collectEvents, eventsOfType, sampleRequest } from "./testing/collect.ts";
import { readOpenAiDiagnostics } from "./openai-diagnostics.ts";

const { fake, provider } = useOpenAiFake();

describe("openai provider: cache reports", () => {
  it("maps cached_tokens and a cache_miss diagnostic into the usage event", async () => {
    fake.enqueue(
      openAiStream({
        text: "ok",
        usage: { prompt_tokens: 5000, completion_tokens: 9, cached_tokens: 3840 },
        promptCacheDiagnostics: {
          type: "cache_miss",
          reason: "tools_changed",
          cache_missed_tokens: 1160,
          comparison_reusable_tokens: 5000,
        },
      }),
    );
    const events = await collectEvents(provider(), sampleRequest());
    const [usage] = eventsOfType(events, "usage");
    expect(usage.usage).toMatchObject({ inputTokens: 5000, cacheReadInputTokens: 3840 });
    expect(usage.usage.cacheDiagnostics).toMatchObject({
      provider: "openai",
      outcome: "diverged",
      type: "tools_changed",
      missedInputTokens: 1160,
      source: "OpenAI prompt_cache_diagnostics",
    });
    expect(usage.usage.cacheDiagnostics?.responseId).toMatch(/^chatcmpl-/);
  });

  it("reports nothing of the kind when the server sends none", async () => {
    fake.enqueue(openAiStream({ text: "ok", usage: { prompt_tokens: 10, completion_tokens: 1 } }));
    const [usage] = eventsOfType(await collectEvents(provider(), sampleRequest()), "usage");
    expect(usage.usage.cacheDiagnostics).toBeUndefined();
  });

  it("reads each documented result type", () => {
    const read = (value: unknown) => readOpenAiDiagnostics(value, "resp_1", "resp_0");
    expect(read({ type: "cache_hit" })).toMatchObject({ outcome: "same" });
    expect(read({ type: "comparison_response_not_found" })).toMatchObject({
      outcome: "inconclusive",
      type: "comparison_response_not_found",
    });
    expect(read({ type: "unavailable" })).toMatchObject({ outcome: "inconclusive", type: "unavailable" });
    expect(read({ type: "cache_miss", reason: "input_changed", cache_missed_tokens: 12 })).toMatchObject({
      outcome: "diverged",
      type: "input_changed",
      missedInputTokens: 12,
    });
    expect(read(null)).toBeUndefined();
  });
});
