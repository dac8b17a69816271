import { describe, expect, it } from "vitest";
import { parseTriggersFile } from "./triggers-file.ts";

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
