// The log schema knows the events issue 22 added: a well-formed skill_resource_used and branch_checked
// record is read, one with a wrong field is skipped with its field named.
import { describe, expect, it } from "vitest";
import { logRecordSample, logRecordValidators, recordProblem } from "./log-schema.ts";

const record = (event: Record<string, unknown>) => ({
  kind: "event",
  seq: 7,
  at: "2026-12-03T10:00:00.000Z",
  event,
});

describe("the log schema's newer events", () => {
  it("reads skill_resource_used and refuses a use that is neither ran nor named", () => {
    const used = {
      type: "skill_resource_used",
      runId: "run_1",
      callId: "call_1",
      tool: "run_command",
      skill: "csv-report",
      path: "scripts/column-types.mjs",
      how: "ran",
    };
    expect(recordProblem(record(used))).toBeUndefined();
    expect(recordProblem(record({ ...used, how: "executed" }))).toMatch(/skill_resource_used: .*how/);
  });

  it("reads branch_checked and refuses one without its request index", () => {
    const check = {
      requestIndex: 4,
      originRequestIndex: 3,
      exact: false,
      edited: ["stable system"],
      differences: [{ kind: "tool", name: "x", reason: "tool x is new since request #3" }],
      compared: 12,
      pinnedDate: "2026-12-02",
    };
    expect(recordProblem(record({ type: "branch_checked", check }))).toBeUndefined();
    const { requestIndex: _dropped, ...partial } = check;
    expect(recordProblem(record({ type: "branch_checked", check: partial }))).toMatch(
      /branch_checked: .*requestIndex/,
    );
  });
});

describe("the log validators' samples (warmed before the first reopen)", () => {
  it("are records each validator accepts, or none where a required field may be of any type", () => {
    const validators = logRecordValidators();
    const samples = validators.map((validator) => logRecordSample(validator));
    for (const [index, sample] of samples.entries())
      if (sample !== undefined) expect(validators[index](sample).ok).toBe(true);
    // The header, the envelope and nearly every event type have one; tool_call's `input` may be anything.
    expect(samples[0]).toMatchObject({ kind: "header" });
    expect(samples[1]).toMatchObject({ kind: "event", seq: 0 });
    expect(samples.filter((sample) => sample === undefined).length).toBeLessThanOrEqual(2);
    expect(recordProblem({ ...(samples[1] as object), event: { type: "stop" } })).toMatch(/^stop: /);
  });
});
