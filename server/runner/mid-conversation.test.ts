// The third SOP placement: a mid-conversation system message, on the models cache-rules.json marks as
// accepting one. The SOP follows its load_skill result, the environment stays as it was, a skill tool that
// becomes visible in the next run is added after that run's user message instead of changing `tools`, and
// the cache model then predicts no divergence; a model without the feature gets the result placement.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCacheLedger, createCacheModel, loadCacheConfig } from "../cache/rules-file.ts";
import type { ModelRequest, Provider, ProviderEvent } from "../providers/types.ts";
import { Runner } from "./runner.ts";
import { createHarness, ROWS_BODY, type Harness } from "../testing/runner-harness.ts";

let harness: Harness;
beforeEach(async () => {
  harness = await createHarness();
});
afterEach(async () => {
  await harness.cleanup();
});

const LOAD_ROWS_THEN_USE = `
name: rows-system
turns:
  - tool_calls:
      - { name: load_skill, input: { name: rows } }
  - text: Loaded; its tool is visible from your next message.
  - tool_calls:
      - { name: count_rows, input: { text: "a\\nb\\nc" } }
  - text: Three rows.
`;

/** The scripted model, recording what each request sent the provider. */
function recording(provider: Provider, sent: ModelRequest[]): Provider {
  return {
    name: provider.name,
    model: provider.model,
    stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ProviderEvent> {
      sent.push(structuredClone(request));
      return provider.stream(request, signal);
    },
  };
}

function deps(cacheModel: string, sent: ModelRequest[]) {
  const config = loadCacheConfig({ env: {} });
  return harness.deps(
    recording(harness.scripted(LOAD_ROWS_THEN_USE), sent),
    { skillPlacement: "system" },
    {
      cacheModel,
      breakpoints: "rolling",
      predictor: createCacheModel(config),
      ledger: createCacheLedger(config),
    },
  );
}

describe("SOPs in a mid-conversation system message", () => {
  it("on a model that accepts it: the SOP follows its result, tools stay, the new tool is added mid-conversation", async () => {
    const sent: ModelRequest[] = [];
    const runner = new Runner(deps("claude-opus-4-8", sent));
    await runner.run("count rows");
    await runner.run("go ahead");
    const requests = harness.requests();
    const result = harness.history.find((message) => message.role === "tool")!;
    expect(result.role === "tool" && result.system).toContain(ROWS_BODY);
    expect(result.content).not.toContain(ROWS_BODY);
    // The environment did not change when the skill loaded, and says where SOPs arrive.
    expect(requests[1].system.environment).toBe(requests[0].system.environment);
    expect(requests[1].system.environment).toContain("arrives in a system message");
    // Run 2: count_rows is visible to the model, yet the request's tools are run 1's.
    const secondRun = harness.history.filter((message) => message.role === "user")[1];
    expect(secondRun.role === "user" && secondRun.addedTools?.map((tool) => tool.name)).toEqual([
      "count_rows",
    ]);
    expect(requests[2].tools.map((tool) => tool.name)).toContain("count_rows");
    expect(sent[2].tools.map((tool) => tool.name)).toEqual(sent[0].tools.map((tool) => tool.name));
    expect(sent[2].midConversation).toEqual({
      system: true,
      toolChanges: true,
      toolChangesBeta: "inline-tools-2026-09-15",
    });
    // So nothing before the new messages changed: no predicted divergence, no "tools changed" anywhere.
    expect(requests.map((snapshot) => snapshot.cache?.diagnostics?.type)).toEqual([null, null, null, null]);
    expect(requests[2].cache?.diagnostics).toMatchObject({
      toolsAdded: [],
      toolsRemoved: [],
      systemCharDelta: 0,
    });
    for (const segment of requests[2].cache!.segments) expect(segment.reason).not.toContain("tools changed");
    expect(requests[2].cache?.placementNote).toContain("claude-opus-4-8 accepts one");
    expect(harness.events.filter((event) => event.type === "tool_result").at(-1)).toMatchObject({
      result: { ok: true, tool: "count_rows" },
    });
  });

  it("on a model that does not: the SOP goes into the result, the tool into tools, and the ledger says why", async () => {
    const sent: ModelRequest[] = [];
    const runner = new Runner(deps("claude-sonnet-4-5", sent));
    await runner.run("count rows");
    await runner.run("go ahead");
    const requests = harness.requests();
    const result = harness.history.find((message) => message.role === "tool")!;
    expect(result.content).toContain(ROWS_BODY);
    expect(result.role === "tool" && result.system).toBeUndefined();
    expect(harness.history.some((message) => message.role === "user" && message.addedTools)).toBe(false);
    expect(sent[2].tools.map((tool) => tool.name)).toContain("count_rows");
    expect(requests[2].cache?.diagnostics?.type).toBe("tools_changed");
    expect(requests[0].cache?.placementNote).toContain(
      "claude-sonnet-4-5 takes no mid-conversation system message",
    );
  });
});
