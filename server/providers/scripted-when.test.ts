// A turn's `when`: a scripted line that speaks of a file is played only when the run's tool results show
// what it says; otherwise its `otherwise` answer (or a default that says why) ends the scenario.
import { describe, expect, it } from "vitest";
import { PlaygroundError } from "../errors/index.ts";
import type { ChatMessage } from "../protocol/model.ts";
import { parseScenario } from "./scenario.ts";
import { SCENARIO_EXHAUSTED_TEXT, ScriptedProvider } from "./scripted.ts";
import type { ModelRequest, ProviderEvent } from "./types.ts";

const SOURCE = `name: review
turns:
  - text: Reading it.
    tool_calls:
      - { name: read_file, input: { path: src/a.js } }
  - text: "Finding: a.js multiplies by 100."
    when:
      results_contain: ["* 100", "parseFloat"]
    otherwise: I read nothing that this finding is about.
  - text: Anything else?
`;

function request(messages: ChatMessage[]): ModelRequest {
  return { system: { stable: "", environment: "" }, messages, tools: [] };
}

async function answer(provider: ScriptedProvider, messages: ChatMessage[]): Promise<string> {
  const events: ProviderEvent[] = [];
  for await (const event of provider.stream(request(messages), new AbortController().signal))
    events.push(event);
  return events.map((event) => (event.type === "text_delta" ? event.text : "")).join("");
}

/** A run that asked for src/a.js and got `result` back. */
function afterRead(result: string, earlier: ChatMessage[] = []): ChatMessage[] {
  return [
    ...earlier,
    { role: "user", content: "review src/a.js" },
    {
      role: "assistant",
      content: "Reading it.",
      toolCalls: [{ id: "c1", name: "read_file", input: { path: "src/a.js" } }],
    },
    { role: "tool", toolCallId: "c1", toolName: "read_file", content: result, isError: false },
  ];
}

describe("a turn's when", () => {
  it("plays the turn when every text is in a tool result of the run", async () => {
    const provider = new ScriptedProvider(parseScenario(SOURCE, "review.yaml"));
    await answer(provider, [{ role: "user", content: "review src/a.js" }]);
    const text = await answer(provider, afterRead("const cents = parseFloat(x) * 100;"));
    expect(text).toBe("Finding: a.js multiplies by 100.");
  });

  it("plays `otherwise` instead, and ends the scenario, when a text is missing", async () => {
    const provider = new ScriptedProvider(parseScenario(SOURCE, "review.yaml"));
    await answer(provider, [{ role: "user", content: "review src/a.js" }]);
    const text = await answer(provider, afterRead("read_file: src/a.js does not exist"));
    expect(text).toBe("I read nothing that this finding is about.");
    expect(await answer(provider, afterRead("x"))).toBe(SCENARIO_EXHAUSTED_TEXT);
  });

  it("reads only the results of this run: an earlier run's read does not count", async () => {
    const provider = new ScriptedProvider(parseScenario(SOURCE.replace(/    otherwise: .*\n/, ""), "r.yaml"));
    await answer(provider, [{ role: "user", content: "review src/a.js" }]);
    const earlier = afterRead("parseFloat(x) * 100");
    const text = await answer(provider, afterRead("(empty file)", earlier));
    // Without `otherwise`, the default says what the results did not show.
    expect(text).toBe(
      "(scripted model: this scenario's next answer is about `* 100`, `parseFloat`, which the tool results of this run do not show, so it is not played here.)",
    );
  });

  it("is checked at load: a list of non-empty strings, and `otherwise` only with a when", () => {
    const failure = (source: string): string => {
      try {
        parseScenario(source, "x.yaml");
      } catch (error) {
        expect(error).toBeInstanceOf(PlaygroundError);
        return (error as Error).message;
      }
      throw new Error("parsed");
    };
    expect(failure("name: x\nturns:\n  - text: a\n    when: { results_contain: [] }\n")).toBe(
      "x.yaml: turns[0].when.results_contain must be a non-empty string or a list of them",
    );
    expect(failure("name: x\nturns:\n  - text: a\n    when: { contains: a }\n")).toBe(
      "x.yaml: turns[0].when.contains is not a known field (expected one of: results_contain)",
    );
    expect(failure("name: x\nturns:\n  - text: a\n    otherwise: b\n")).toBe(
      "x.yaml: turns[0].otherwise needs a when (it is played when that does not hold)",
    );
    expect(
      parseScenario("name: x\nturns:\n  - text: a\n    when: { results_contain: b }\n", "x").turns[0].when,
    ).toEqual({ resultsContain: ["b"] });
  });
});
