import { describe, expect, it } from "vitest";
import { parseSkillCreatorEvals, parseTriggersFile } from "./triggers-file.ts";

const FILE = "/work/evals/triggers.yaml";

describe("parseTriggersFile", () => {
  it("reads queries, the scenarios folder (relative to the file) and an ablation", () => {
    const parsed = parseTriggersFile(
      `queries:\n  - { query: "make a report", expect: csv-report, kind: implicit }\n  - query: "two plus two?"\n    expect: none\n    kind: negative\nscenarios: trigger-scenarios\nablation: { skill: csv-report, description: "Other words." }\n`,
      FILE,
    );
    expect(parsed.queries).toEqual([
      { query: "make a report", expect: "csv-report", kind: "implicit", line: 2 },
      { query: "two plus two?", expect: "none", kind: "negative", line: 3 },
    ]);
    expect(parsed.scenarios).toBe("/work/evals/trigger-scenarios");
    expect(parsed.ablation).toEqual({ skill: "csv-report", description: "Other words." });
  });

  it.each([
    ["queries: []\n", "triggers.yaml:1: queries must be a non-empty list"],
    ["nope: 1\nqueries: []\n", "nope is not a known field"],
    [
      'queries:\n  - { query: "x", expect: a, kind: sideways }\n',
      "triggers.yaml:2: queries[0].kind must be one of explicit, implicit, contextual, negative",
    ],
    [
      'queries:\n  - { query: "x", expect: a, kind: implicit }\n  - { query: "", expect: a, kind: implicit }\n',
      "triggers.yaml:3: queries[1].query must be a non-empty string",
    ],
    ['queries:\n  - { query: "x", expect: a, kind: negative }\n', 'a negative query expects "none"'],
    ['queries:\n  - { query: "x", expect: none, kind: implicit }\n', 'a negative query expects "none"'],
    [
      'queries:\n  - { query: "x", expect: a, kind: implicit, weight: 2 }\n',
      "queries[0].weight is not a known field",
    ],
    ["queries:\n  - [unclosed\n", "YAML error"],
  ])("refuses %j with file, line and field", (source, message) => {
    expect(() => parseTriggersFile(source, FILE)).toThrow(message);
  });
});

describe("skill-creator's JSON form and checks beyond triggering", () => {
  const JSON_FILE = "/work/evals/csv.json";

  it("reads [{query, should_trigger}] for the skill named by the caller, with optional checks", () => {
    const parsed = parseSkillCreatorEvals(
      `[\n  {"query": "summarise sales.csv", "should_trigger": true, "first_tool": "load_skill"},\n  {"query": "parse a CSV in python", "should_trigger": false, "never_tool": ["run_command"], "max_input_tokens": 5000}\n]`,
      JSON_FILE,
      "csv-report",
    );
    expect(parsed.queries).toEqual([
      {
        query: "summarise sales.csv",
        expect: "csv-report",
        kind: "implicit",
        line: 2,
        checks: { firstTool: "load_skill" },
      },
      {
        query: "parse a CSV in python",
        expect: "none",
        kind: "negative",
        avoid: "csv-report",
        line: 3,
        checks: { neverTool: ["run_command"], maxInputTokens: 5000 },
      },
    ]);
  });

  it.each([
    ['[{"query": "x", "should_trigger": true}]', undefined, "tests one skill: name it (--skill NAME)"],
    [
      '[{"query": "x", "should_trigger": "yes"}]',
      "s",
      "csv.json:1: [0].should_trigger must be true or false",
    ],
    ['[\n {"query": "x", "should": true}]', "s", "csv.json:2: [0].should is not a known field"],
    [
      '[{"query": "x", "should_trigger": true, "max_input_tokens": 0}]',
      "s",
      "max_input_tokens must be a whole number",
    ],
    ["[1,", "s", "not valid JSON"],
  ])("refuses %s with the line and the field", (source, skill, message) => {
    expect(() => parseSkillCreatorEvals(source, JSON_FILE, skill)).toThrow(message);
  });

  it("reads first_tool, never_tool and max_input_tokens in the YAML form", () => {
    const parsed = parseTriggersFile(
      'queries:\n  - { query: "a", expect: x, kind: implicit, first_tool: load_skill, never_tool: run_command, max_input_tokens: 900 }\n',
      FILE,
    );
    expect(parsed.queries[0].checks).toEqual({
      firstTool: "load_skill",
      neverTool: ["run_command"],
      maxInputTokens: 900,
    });
  });
});
