// Live checks against the real services. They run only when a key (or, for OpenAI-compatible servers, a
// base URL) is configured, and are otherwise skipped with the reason in the test title, so a run without
// keys says plainly what it did not check.
import { describe, expect, it } from "vitest";
import { loadProvidersConfig } from "./config.ts";
import { createProvider } from "./index.ts";
import { READ_FILE_TOOL, collectEvents, eventsOfType, terminalEvent } from "./testing/collect.ts";
import type { ModelRequest } from "./types.ts";

const config = loadProvidersConfig();
const anthropicReady = Boolean(config.anthropic.apiKey);
const openaiReady = Boolean(config.openai.apiKey) || config.openai.customBaseUrl;

const request: ModelRequest = {
  system: {
    stable: "You are a terse test assistant. When asked to read a file, call the read_file tool.",
    environment: "Working directory: /tmp/live-test",
  },
  messages: [{ role: "user", content: "Read the file notes.txt." }],
  tools: [READ_FILE_TOOL],
};

describe("live providers", () => {
  it.skipIf(!anthropicReady)(
    `anthropic answers a real request with a tool call${anthropicReady ? "" : " (skipped: ANTHROPIC_API_KEY not set)"}`,
    async () => {
      const provider = await createProvider({ name: "anthropic", config });
      const events = await collectEvents(provider, request);
      expect(terminalEvent(events), JSON.stringify(terminalEvent(events))).toEqual({ type: "done" });
      expect(eventsOfType(events, "tool_call").map((event) => event.call.name)).toContain("read_file");
      expect(eventsOfType(events, "usage")[0].usage.inputTokens).toBeGreaterThan(0);
    },
    120_000,
  );

  it.skipIf(!openaiReady)(
    `openai-compatible server answers a real request${openaiReady ? ` (${config.openai.baseUrl})` : " (skipped: neither OPENAI_API_KEY nor OPENAI_BASE_URL set)"}`,
    async () => {
      const provider = await createProvider({ name: "openai", config });
      const events = await collectEvents(provider, request);
      expect(terminalEvent(events), JSON.stringify(terminalEvent(events))).toEqual({ type: "done" });
      expect(
        eventsOfType(events, "tool_call").length + eventsOfType(events, "text_delta").length,
      ).toBeGreaterThan(0);
    },
    300_000,
  );
});
