import { describe, expect, it } from "vitest";
import { parseScenario } from "../server/providers/scenario.ts";
import { splitIntoChunks } from "../server/providers/scripted.ts";
import { DELTAS, marker, streamScenario } from "./stream-scenario.ts";
import { memoryScenario } from "./memory-child.ts";

describe("streamScenario", () => {
  it("is a valid scenario whose turn the scripted provider streams as exactly 10,000 deltas ending in the marker", () => {
    const scenario = parseScenario(streamScenario(2), "stream.yaml");
    expect(scenario.turns).toHaveLength(2);
    const chunks = splitIntoChunks(scenario.turns[1].text ?? "");
    expect(chunks).toHaveLength(DELTAS);
    expect(chunks[chunks.length - 1]).toBe(marker(2));
  });
});

describe("memoryScenario", () => {
  it("has one text-only answer per user message", () => {
    const scenario = parseScenario(memoryScenario(100), "memory.yaml");
    expect(scenario.turns).toHaveLength(100);
    expect(
      scenario.turns.every((turn) => turn.toolCalls.length === 0 && (turn.text ?? "").length > 100),
    ).toBe(true);
  });
});
