// Anthropic cache diagnostics over the real SDK and a local server speaking the Messages API's SSE: the
// request carries `diagnostics.previous_message_id`, each documented response shape on message_start is
// read into the same provider-neutral fields, and a server that refuses the parameter is asked once more
// without it (a notice says so) — unless the refusal was about something else.
import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../protocol/model.ts";
import { anthropicError, anthropicStream } from "./testing/fake-anthropic.ts";
import { useAnthropicFake } from "./testing/provider-setup.ts";
import {
  LOAD_SKILL_TOOL,
  READ_FILE_TOOL,
  collectEvents,
  eventsOfType,
  sampleRequest,
  terminalEvent,
} from "./testing/collect.ts";
import type { ModelRequest } from "./types.ts";

const { fake, provider } = useAnthropicFake();

const asking = (previousResponseId: string | null): ModelRequest => ({
  ...sampleRequest(),
  cacheDiagnostics: { previousResponseId },
});

async function diagnosticsOf(diagnostics: unknown, previous: string | null = "msg_prev") {
  fake.enqueue(
    anthropicStream({ id: "msg_now", text: "ok", diagnostics, usage: { input_tokens: 5, output_tokens: 1 } }),
  );
  const events = await collectEvents(provider(), asking(previous));
  return eventsOfType(events, "usage")[0].usage.cacheDiagnostics;
}

describe("anthropic provider: cache diagnostics", () => {
  it("sends diagnostics.previous_message_id (null on the first request) only when asked", async () => {
    fake.enqueue(
      anthropicStream({ text: "a" }),
      anthropicStream({ text: "b" }),
      anthropicStream({ text: "c" }),
    );
    const client = provider();
    await collectEvents(client, asking(null));
    await collectEvents(client, asking("msg_01abc"));
    await collectEvents(client, sampleRequest());
    expect(fake.sentBody(0).diagnostics).toEqual({ previous_message_id: null });
    expect(fake.sentBody(1).diagnostics).toEqual({ previous_message_id: "msg_01abc" });
    expect(fake.sentBody(2)).not.toHaveProperty("diagnostics");
  });

  it("reads a divergence with its missed tokens, and the response id for the next request", async () => {
    expect(
      await diagnosticsOf({ cache_miss_reason: { type: "tools_changed", cache_missed_input_tokens: 4321 } }),
    ).toEqual({
      provider: "anthropic",
      responseId: "msg_now",
      comparedWith: "msg_prev",
      outcome: "diverged",
      type: "tools_changed",
      missedInputTokens: 4321,
      source: "Anthropic message_start message.diagnostics",
    });
  });

  it("reads null as no divergence, a null reason as pending, and the no-comparison types as inconclusive", async () => {
    expect(await diagnosticsOf(null)).toMatchObject({ outcome: "same" });
    expect(await diagnosticsOf({ cache_miss_reason: null })).toMatchObject({ outcome: "pending" });
    expect(await diagnosticsOf({ cache_miss_reason: { type: "previous_message_not_found" } })).toMatchObject({
      outcome: "inconclusive",
      type: "previous_message_not_found",
    });
    expect(await diagnosticsOf({ cache_miss_reason: { type: "unavailable" } })).toMatchObject({
      outcome: "inconclusive",
      type: "unavailable",
    });
    // The first request compares nothing, whatever the server says.
    expect(await diagnosticsOf(null, null)).toMatchObject({ outcome: "inconclusive", comparedWith: null });
  });

  it("reports a 1-hour cache write from usage.cache_creation", async () => {
    fake.enqueue(
      anthropicStream({
        text: "ok",
        usage: {
          input_tokens: 5,
          output_tokens: 1,
          cache_creation_input_tokens: 3000,
          cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 3000 },
        },
      }),
    );
    const events = await collectEvents(provider(), sampleRequest());
    expect(eventsOfType(events, "usage")[0].usage).toMatchObject({
      cacheCreationInputTokens: 3000,
      cacheWriteTtl: "1h",
    });
  });

  it("a server that refuses the parameter gets the request again without it, once, and a notice says so", async () => {
    fake.enqueue(
      anthropicError(400, "invalid_request_error", "diagnostics: Extra inputs are not permitted"),
      anthropicStream({ text: "answered without" }),
      anthropicStream({ text: "next" }),
    );
    const client = provider();
    const events = await collectEvents(client, asking(null));
    expect(fake.sentBody(0).diagnostics).toEqual({ previous_message_id: null });
    expect(fake.sentBody(1)).not.toHaveProperty("diagnostics");
    const [notice] = eventsOfType(events, "notice");
    expect(notice.code).toBe("cache_diagnostics_rejected");
    expect(notice.message).toContain("Extra inputs are not permitted");
    expect(terminalEvent(events)).toEqual({ type: "done" });
    expect(eventsOfType(events, "usage")[0].usage.cacheDiagnostics).toBeUndefined();
    // Who stops asking is the caller's ledger: a request without the field sends none.
    await collectEvents(client, sampleRequest());
    expect(fake.sentBody(2)).not.toHaveProperty("diagnostics");
    expect(fake.remaining()).toBe(0);
  });

  it("a 400 about something else fails again without the parameter: that answer is the error, and asking goes on", async () => {
    fake.enqueue(
      anthropicError(400, "invalid_request_error", "max_tokens: too large"),
      anthropicError(400, "invalid_request_error", "max_tokens: too large"),
      anthropicStream({ text: "fine" }),
    );
    const client = provider();
    const events = await collectEvents(client, asking(null));
    expect(eventsOfType(events, "notice")).toEqual([]);
    const terminal = terminalEvent(events);
    expect(terminal.type).toBe("error");
    expect(terminal.type === "error" && terminal.message).toContain("max_tokens: too large");
    await collectEvents(client, asking(null));
    expect(fake.sentBody(2).diagnostics).toEqual({ previous_message_id: null });
  });
});

describe("anthropic provider: mid-conversation system messages and tool changes", () => {
  const history: ChatMessage[] = [
    { role: "user", content: "profile it" },
    { role: "assistant", content: "", toolCalls: [{ id: "toolu_1", name: "load_skill", input: {} }] },
    {
      role: "tool",
      toolCallId: "toolu_1",
      toolName: "load_skill",
      content: "Loaded csv-report.",
      isError: false,
      system: "CSV REPORT SOP",
    },
    { role: "assistant", content: "Loaded.", toolCalls: [] },
    { role: "user", content: "now profile", addedTools: [READ_FILE_TOOL] },
  ];

  it("sends a result's SOP and a message's added tools as a system message after that user turn, with the beta header", async () => {
    fake.enqueue(anthropicStream({ text: "ok" }));
    await collectEvents(provider(), {
      ...sampleRequest(history, [LOAD_SKILL_TOOL]),
      midConversation: { system: true, toolChanges: true, toolChangesBeta: "inline-tools-2026-09-15" },
    });
    const body = fake.sentBody();
    expect(body.messages.map((message: { role: string }) => message.role)).toEqual([
      "user",
      "assistant",
      "user",
      "system",
      "assistant",
      "user",
      "system",
    ]);
    expect(body.messages[2].content[0].content).toBe("Loaded csv-report.");
    expect(body.messages[3].content).toEqual([{ type: "text", text: "CSV REPORT SOP" }]);
    expect(body.messages[6].content[0]).toMatchObject({
      type: "tool_addition",
      tool: { type: "tool_definition", definition: { name: "read_file" } },
    });
    expect(body.tools.map((tool: { name: string }) => tool.name)).toEqual(["load_skill"]);
    expect(fake.requests[0].headers["anthropic-beta"]).toBe("inline-tools-2026-09-15");
  });

  it("folds them back for a model that takes neither: the SOP into the result, the tool into tools, no header", async () => {
    fake.enqueue(anthropicStream({ text: "ok" }));
    await collectEvents(provider(), sampleRequest(history, [LOAD_SKILL_TOOL]));
    const body = fake.sentBody();
    expect(body.messages.some((message: { role: string }) => message.role === "system")).toBe(false);
    expect(body.messages[2].content[0].content).toBe("Loaded csv-report.\n\nCSV REPORT SOP");
    expect(body.tools.map((tool: { name: string }) => tool.name)).toEqual(["load_skill", "read_file"]);
    expect(fake.requests[0].headers["anthropic-beta"]).toBeUndefined();
  });
});
