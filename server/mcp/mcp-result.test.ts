import { describe, expect, it } from "vitest";
import { renderCallResult, repeatsText } from "./mcp-result.ts";

const origin = { server: "s", tool: "t" };

describe("structured content reaches the model only when it adds to the text", () => {
  it("is left out when a text block is the same value as JSON, however it is laid out", () => {
    const structured = { city: "Oslo", temperature: -3.5, tags: ["snow"] };
    const text = JSON.stringify(structured, null, 4);
    const result = renderCallResult("mcp__s__t", origin, {
      content: [{ type: "text", text }],
      structuredContent: structured,
    });
    expect(result.result.content).toBe(text);
    expect(result.result.metadata?.mcp).toMatchObject({ structuredContent: structured });
  });

  it("is left out when the text already carries every value (a file's text and {content: text})", () => {
    expect(repeatsText({ content: "line 1\nline 2" }, ["line 1\nline 2"])).toBe(true);
    expect(
      repeatsText({ temperature: 22.5, conditions: "Cloudy", rain: false }, ["22.5 °C, Cloudy, rain: false"]),
    ).toBe(true);
  });

  it("is added when it carries a value the text does not", () => {
    const result = renderCallResult("mcp__s__t", origin, {
      content: [{ type: "text", text: "Found the order." }],
      structuredContent: { id: "A-17", total: 4200 },
    });
    expect(result.result.content).toBe(
      'Found the order.\nStructured content:\n{\n  "id": "A-17",\n  "total": 4200\n}',
    );
    expect(repeatsText({ items: [1, 2, 3] }, ["1, 2"])).toBe(false);
  });

  it("is added when it has more leaf values than are worth checking", () => {
    const many = Array.from({ length: 2_001 }, (_, index) => index);
    expect(repeatsText({ many }, [many.join(" ")])).toBe(false);
  });
});
