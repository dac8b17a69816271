import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PlaygroundError } from "../errors/index.ts";
import type { ChatMessage } from "../protocol/model.ts";
import { loadScenario, loadScenarioDirectory, parseScenario } from "./scenario.ts";
import { SCENARIO_EXHAUSTED_TEXT, ScriptedProvider, splitIntoChunks } from "./scripted.ts";
import type { ModelRequest, ProviderEvent } from "./types.ts";

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), "scenario-test-"));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

function request(messages: ChatMessage[]): ModelRequest {
  return { system: { stable: "", environment: "" }, messages, tools: [] };
}

async function collect(events: AsyncIterable<ProviderEvent>): Promise<ProviderEvent[]> {
  const out: ProviderEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

function textOf(events: ProviderEvent[]): string {
  return events.map((event) => (event.type === "text_delta" ? event.text : "")).join("");
}

async function expectScenarioError(source: string, message: string): Promise<void> {
  const file = path.join(directory, "x.yaml");
  await writeFile(file, source);
  const failure = await loadScenario(file).then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(failure).toBeInstanceOf(PlaygroundError);
  expect((failure as PlaygroundError).code).toBe("invalid_scenario");
  expect((failure as PlaygroundError).message).toBe(`${file}: ${message}`);
}

describe("scenario files", () => {
  it("names the file and the field of a bad tool call", async () => {
    await expectScenarioError(
      "name: x\nturns:\n  - text: a\n  - text: b\n  - tool_calls:\n      - { name: '', input: {} }\n",
      "turns[2].tool_calls[0].name must be a non-empty string",
    );
  });

  it("rejects a missing name, empty turns, a misspelt key, a bad regex, bad input and bad YAML", async () => {
    await expectScenarioError("turns:\n  - text: hi\n", "name must be a non-empty string");
    await expectScenarioError("name: x\nturns: []\n", "turns must be a non-empty list");
    await expectScenarioError(
      "name: x\nturns:\n  - text: hi\n    toolcalls: []\n",
      "turns[0].toolcalls is not a known field (expected one of: text, tool_calls, request, when, otherwise)",
    );
    await expectScenarioError(
      "name: x\nturns:\n  - tool_calls:\n      - { name: read_file, input: [1] }\n",
      "turns[0].tool_calls[0].input must be an object (a mapping of argument names to values)",
    );
    await expectScenarioError(
      "name: x\nturns:\n  - {}\n",
      "turns[0] must have a non-empty text or at least one tool_calls entry",
    );
    const file = path.join(directory, "broken.yaml");
    await writeFile(file, "name: x\nturns:\n  - text: [unclosed\n");
    await expect(loadScenario(file)).rejects.toThrow(/broken\.yaml: YAML error at line \d+, column \d+/);
  });

  it("reports a bad match regex", () => {
    expect(() => parseScenario("name: x\nmatch: '('\nturns:\n  - text: hi\n", "s.yaml")).toThrow(
      /^s\.yaml: match is not a valid regular expression/,
    );
  });

  it("runs match in the linear-time engine: what it cannot run is refused with the reason (S18)", () => {
    expect(() => parseScenario("name: x\nmatch: '(a)\\1'\nturns:\n  - text: hi\n", "s.yaml")).toThrow(
      /^s\.yaml: match cannot run in the linear-time regex engine \(RE2\).*\\1 is a backreference/,
    );
    const scenario = parseScenario("name: x\nmatch: '^(a+)+$'\nturns:\n  - text: hi\n", "s.yaml");
    expect([scenario.matcher?.test("AAA"), scenario.matcher?.test("aab")]).toEqual([true, false]);
  });

  it("refuses a scenario folder with no *.yaml file, naming the folder", async () => {
    await writeFile(path.join(directory, "notes.txt"), "not a scenario");
    await expect(loadScenarioDirectory(directory)).rejects.toThrow(
      `${directory}: the scenario folder has no *.yaml or *.yml file`,
    );
  });

  it("reports a missing file", async () => {
    await expect(loadScenario(path.join(directory, "nope.yaml"))).rejects.toThrow(/nope\.yaml: cannot read/);
  });
});

describe("ScriptedProvider", () => {
  const scenario = parseScenario(
    [
      "name: demo",
      "turns:",
      "  - text: Let me load the review skill.",
      "    tool_calls:",
      "      - { name: load_skill, input: { name: review } }",
      "  - text: All done here.",
    ].join("\n"),
    "demo.yaml",
  );

  it("streams text as word chunks, then tool calls, then done", async () => {
    const provider = new ScriptedProvider(scenario);
    expect(provider.model).toBe("scripted-demo");
    const events = await collect(
      provider.stream(request([{ role: "user", content: "go" }]), new AbortController().signal),
    );
    const deltas = events.filter((event) => event.type === "text_delta");
    expect(deltas.length).toBeGreaterThan(3);
    expect(textOf(events)).toBe("Let me load the review skill.");
    const types = events.map((event) => event.type);
    expect(types.indexOf("tool_call")).toBeGreaterThan(types.lastIndexOf("text_delta"));
    expect(types.at(-1)).toBe("done");
    const call = events.find((event) => event.type === "tool_call");
    expect(call && call.type === "tool_call" && call.call).toMatchObject({
      name: "load_skill",
      input: { name: "review" },
    });
    // It has no tokenizer: its output count is labelled an estimate, never passed off as a provider report.
    const usage = events.find((event) => event.type === "usage");
    expect(usage && usage.type === "usage" && usage.usage).toEqual({
      outputTokens: deltas.length,
      source: "estimate",
      estimate: "scripted model: streamed chunks, not tokens",
    });
  });

  it("plays turns in order across runs and then says it has no more turns", async () => {
    const provider = new ScriptedProvider(scenario);
    const signal = new AbortController().signal;
    await collect(provider.stream(request([{ role: "user", content: "go" }]), signal));
    expect(textOf(await collect(provider.stream(request([{ role: "user", content: "go" }]), signal)))).toBe(
      "All done here.",
    );
    const last = await collect(provider.stream(request([{ role: "user", content: "again" }]), signal));
    expect(textOf(last)).toBe(SCENARIO_EXHAUSTED_TEXT);
    expect(last.at(-1)).toEqual({ type: "done" });
  });

  it("picks a scenario from a folder by match, continuing the current one otherwise", async () => {
    await writeFile(
      path.join(directory, "a-review.yaml"),
      "name: review\nmatch: review\nturns:\n  - text: R1\n  - text: R2\n",
    );
    await writeFile(
      path.join(directory, "b-csv.yaml"),
      "name: csv\nmatch: csv|report\nturns:\n  - text: C1\n",
    );
    await writeFile(path.join(directory, "z-default.yaml"), "name: fallback\nturns:\n  - text: F1\n");
    await writeFile(path.join(directory, "notes.txt"), "not a scenario");
    const scenarios = await loadScenarioDirectory(directory);
    expect(scenarios.map((entry) => entry.name)).toEqual(["review", "csv", "fallback"]);
    const provider = new ScriptedProvider(scenarios);
    const signal = new AbortController().signal;
    const history: ChatMessage[] = [];
    const say = async (text: string) => {
      history.push({ role: "user", content: text });
      const reply = textOf(await collect(provider.stream(request(history), signal)));
      history.push({ role: "assistant", content: reply, toolCalls: [] });
      return reply;
    };
    expect(await say("please make a CSV report")).toBe("C1");
    expect(await say("Review my code")).toBe("R1");
    expect(await say("and then?")).toBe("R2");
    expect(await say("hello")).toBe("F1");
    expect(await say("review again")).toBe("R1");
  });

  it("matches a slash invocation on its first line before the SOP below it", async () => {
    await writeFile(
      path.join(directory, "a-commit.yaml"),
      "name: commit\nmatch: commit\nturns:\n  - text: C\n",
    );
    await writeFile(
      path.join(directory, "b-review.yaml"),
      "name: review\nmatch: review\nturns:\n  - text: R\n",
    );
    const provider = new ScriptedProvider(await loadScenarioDirectory(directory));
    const sop = "/review src\n\nRead the diff of the last commit, then report.";
    const reply = await collect(
      provider.stream(request([{ role: "user", content: sop }]), new AbortController().signal),
    );
    expect(textOf(reply)).toBe("R");
  });

  it("restarts a folder scenario whose last run stopped mid-way (a canceled tool call)", async () => {
    await writeFile(
      path.join(directory, "slow.yaml"),
      "name: slow\nmatch: slow\nturns:\n  - tool_calls:\n      - { name: run_command, input: { command: sleep 30 } }\n  - text: finished\n",
    );
    await writeFile(path.join(directory, "other.yaml"), "name: other\nturns:\n  - text: O1\n");
    const provider = new ScriptedProvider(await loadScenarioDirectory(directory));
    const signal = new AbortController().signal;
    const first = await collect(
      provider.stream(request([{ role: "user", content: "something slow" }]), signal),
    );
    expect(first.some((event) => event.type === "tool_call")).toBe(true);
    // The run was canceled after the tool call; the user asks again.
    const history: ChatMessage[] = [
      { role: "user", content: "something slow" },
      { role: "assistant", content: "", toolCalls: [] },
      { role: "user", content: "slow again" },
    ];
    const again = await collect(provider.stream(request(history), signal));
    expect(again.some((event) => event.type === "tool_call")).toBe(true);
  });

  it("stops streaming with an error event when canceled", async () => {
    const provider = new ScriptedProvider(scenario);
    const controller = new AbortController();
    controller.abort();
    const events = await collect(
      provider.stream(request([{ role: "user", content: "go" }]), controller.signal),
    );
    expect(events.at(-1)).toMatchObject({ type: "error" });
  });

  it("splits text losslessly", () => {
    expect(splitIntoChunks("  a  b\nc ").join("")).toBe("  a  b\nc ");
  });
});

describe("the repo's scenarios/ folder", () => {
  const scenariosDir = fileURLToPath(new URL("../../scenarios/", import.meta.url));
  const skillsDir = fileURLToPath(new URL("../../skills/", import.meta.url));

  it("loads, and loads every built-in skill in some scenario", async () => {
    const scenarios = await loadScenarioDirectory(scenariosDir);
    const loaded = new Set(
      scenarios.flatMap((scenario) =>
        scenario.turns.flatMap((turn) =>
          turn.toolCalls.filter((call) => call.name === "load_skill").map((call) => String(call.input.name)),
        ),
      ),
    );
    const builtin = (await readdir(skillsDir, { withFileTypes: true })).filter((entry) =>
      entry.isDirectory(),
    );
    for (const entry of builtin)
      expect(loaded, `no scenario loads skill ${entry.name}`).toContain(entry.name);
    expect(scenarios.map((scenario) => scenario.name)).toContain("slow-tool");
  });
});

describe("{{tool_status:NAME}} in a scripted line", () => {
  it("says whether NAME is in the tool list of the request it answers", async () => {
    const scenario = parseScenario(
      "name: x\nturns:\n  - text: '{{tool_status:profile_csv}}.'\n  - text: '{{tool_status:profile_csv}}.'\n",
      "x.yaml",
    );
    const provider = new ScriptedProvider(scenario);
    const user: ChatMessage = { role: "user", content: "hi" };
    const hidden = textOf(await collect(provider.stream(request([user]), new AbortController().signal)));
    expect(hidden).toMatch(/^`profile_csv` is not in my tool list in this run/);
    const withTool: ModelRequest = {
      ...request([user, { role: "assistant", content: "x", toolCalls: [] }, { role: "user", content: "go" }]),
      tools: [
        {
          name: "profile_csv",
          description: "",
          inputSchema: {},
          safety: "read_only",
          category: "exec",
          origin: "skill",
        },
      ],
    };
    const shown = textOf(await collect(provider.stream(withTool, new AbortController().signal)));
    expect(shown).toBe("`profile_csv` is in my tool list in this run.");
  });
});
