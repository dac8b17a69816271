// The description router: it reads the index lines of the real stable system, so editing a description
// changes what it loads; its decision (every skill's score) reaches the Runner's provider_payload event;
// once a skill is loaded it plays that skill's scenario, and says it is not a language model.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildStableSystem } from "../prompt/stable-system.ts";
import { ROUTER_LABEL } from "../protocol/routing.ts";
import { Runner } from "../runner/runner.ts";
import { recordProblem } from "../session/log-schema.ts";
import { createHarness, type Harness } from "../testing/runner-harness.ts";
import { parseIndex, route } from "./router-score.ts";
import { RouterProvider } from "./router.ts";
import { parseScenario } from "./scenario.ts";

const ROWS_SCENARIO = parseScenario(
  [
    "name: rows-demo",
    "turns:",
    "  - text: Counting rows.",
    "    tool_calls:",
    "      - { name: load_skill, input: { name: rows, arguments: data.csv } }",
    "  - text: The file has 3 rows.",
  ].join("\n"),
  "rows-demo.yaml",
);

const item = (name: string, description: string) => ({
  name,
  description,
  source: "builtin" as const,
  path: `/skills/${name}/SKILL.md`,
});

describe("router scoring", () => {
  const skills = [
    item(
      "csv-report",
      "Turn a CSV file into a short report. Use when the user asks to summarise a spreadsheet.",
    ),
    item("review", "Review code for bugs and security problems."),
  ];

  it("loads the skill whose description matches, and none when its description stops matching", () => {
    const stable = buildStableSystem({ skills, disclosure: "progressive" });
    const decision = route("make a short report from data/sales.csv", parseIndex(stable));
    expect(decision.chosen).toBe("csv-report");
    expect(decision.scores.map((score) => score.skill)).toEqual(["csv-report", "review"]);
    expect(decision.scores[0].terms.map((term) => term.term)).toEqual(["short", "report", "csv"]);
    expect(decision.label).toBe(ROUTER_LABEL);

    const edited = buildStableSystem({
      skills: [item("csv-report", "Never use this skill."), skills[1]],
      disclosure: "progressive",
    });
    const after = route("make a short report from data/sales.csv", parseIndex(edited));
    expect(after.chosen).toBeNull();
    expect(after.reason).toMatch(/no description scores 3 or more/);
  });

  it("reads eager headings and budget-trimmed lines, and a skill named in full reaches the threshold", () => {
    const eager = buildStableSystem({
      skills,
      disclosure: "eager",
      eagerBodies: [{ name: "review", body: "SOP" }],
    });
    expect(parseIndex(eager).map((entry) => entry.name)).toEqual(["csv-report", "review"]);
    const trimmed = buildStableSystem({
      skills,
      disclosure: "progressive",
      listingBudget: { profile: "codex", contextWindow: 100 },
    });
    expect(parseIndex(trimmed).length).toBeLessThanOrEqual(2);
    const named = route("run csv-report please", [{ name: "csv-report", description: "" }]);
    expect(named.chosen).toBe("csv-report");
    expect(named.scores[0]).toMatchObject({ named: true, score: 3 });
  });
});

describe("router provider in a Runner", () => {
  let harness: Harness;
  beforeEach(async () => {
    harness = await createHarness();
  });
  afterEach(async () => {
    await harness.cleanup();
  });

  it("loads the best-scoring skill, carries its scores on provider_payload, then plays its scenario", async () => {
    const runner = new Runner(harness.deps(new RouterProvider({ scenarios: [ROWS_SCENARIO] })));
    const outcome = await runner.run("how many rows does data.csv have? count them");
    expect(outcome.reason).toBe("completed");
    const payloads = harness.events.filter((event) => event.type === "provider_payload");
    expect(payloads).toHaveLength(2);
    const routing = payloads[0].type === "provider_payload" ? payloads[0].routing : undefined;
    expect(routing?.chosen).toBe("rows");
    // As the session log stores it, the event passes the log schema the reader checks (S23).
    expect(recordProblem({ kind: "event", seq: 1, at: "t", event: payloads[0] })).toBeUndefined();
    expect(routing?.scores.find((score) => score.skill === "review")?.score).toBe(0);
    // The second request continues the scenario: no new decision.
    expect(payloads[1].type === "provider_payload" && payloads[1].routing).toBeFalsy();
    const calls = harness.events.flatMap((event) => (event.type === "tool_call" ? [event.call] : []));
    expect(calls).toEqual([
      expect.objectContaining({ name: "load_skill", input: { name: "rows", arguments: "data.csv" } }),
    ]);
    expect(harness.activeSkills.names()).toContain("rows");
    const last = harness.history[harness.history.length - 1];
    expect(last).toMatchObject({ role: "assistant", content: "The file has 3 rows." });
  });

  it("loads nothing and says it is not a language model when no description fits", async () => {
    const runner = new Runner(harness.deps(new RouterProvider({ scenarios: [ROWS_SCENARIO] })));
    await runner.run("what is two plus two?");
    expect(harness.events.some((event) => event.type === "tool_call")).toBe(false);
    const answer = harness.history[harness.history.length - 1];
    expect(answer.role === "assistant" && answer.content).toContain(ROUTER_LABEL);
  });
});
