import { describe, expect, it } from "vitest";
import type { ProbeRecord, ServerMessage, TriggerLabRunInfo } from "../../server/protocol/index.ts";
import { initialUiState, uiReducer } from "./reducer.ts";
import { envelope, summary } from "./test-builders.ts";

const info: TriggerLabRunInfo = {
  labId: "lab_1",
  evalFile: "/w/.PseudoClaude/evals/triggers.yaml",
  provider: "scripted",
  model: "scripted-scenarios",
  runs: 2,
  concurrency: 4,
  startedAt: "2026-12-02T10:00:00.000Z",
};
const hit: ProbeRecord = {
  first: "csv-report",
  loaded: ["csv-report"],
  outcome: "load_skill",
  calls: ["load_skill"],
};

function run(messages: ServerMessage[]) {
  return uiReducer(initialUiState, { type: "server_batch", messages });
}

describe("trigger lab state", () => {
  const opened = envelope(1, { type: "session_opened", session: summary(), history: [], activeSkills: [] });
  const started = envelope(2, {
    type: "trigger_lab_started",
    info,
    queries: [
      { query: "make a report", expect: "csv-report", kind: "implicit" },
      { query: "hi", expect: "none", kind: "negative" },
    ],
    total: 4,
  });

  it("fills the live table cell by cell as progress arrives", () => {
    const state = run([
      opened,
      started,
      envelope(3, {
        type: "trigger_lab_progress",
        progress: { labId: "lab_1", side: "a", done: 1, total: 4, queryIndex: 0, run: 2, probe: hit },
      }),
    ]);
    const lab = state.session!.triggerLab!;
    expect(lab.status).toBe("running");
    expect(lab.done).toBe(1);
    expect(lab.probes.a[0]).toEqual([undefined, hit]);
    expect(lab.probes.a[1]).toEqual([undefined, undefined]);
  });

  it("ignores progress of another lab, and a failure keeps the table with the reason", () => {
    const state = run([
      opened,
      started,
      envelope(3, {
        type: "trigger_lab_progress",
        progress: { labId: "lab_other", side: "a", done: 1, total: 4, queryIndex: 0, run: 1, probe: hit },
      }),
      envelope(4, { type: "trigger_lab_failed", labId: "lab_1", message: "the provider failed" }),
    ]);
    const lab = state.session!.triggerLab!;
    expect(lab.probes.a[0]).toEqual([undefined, undefined]);
    expect(lab).toMatchObject({ status: "failed", error: "the provider failed" });
  });

  it("keeps the last catalog budget report", () => {
    const report = {
      profile: "codex" as const,
      limit: 8000,
      unit: "chars" as const,
      derivation: "8,000-character fallback (context window unknown)",
      used: 10,
      fullCost: 10,
      entries: [],
      sources: [],
      note: "",
    };
    const state = run([opened, envelope(2, { type: "catalog_budget_report", report })]);
    expect(state.session!.catalogBudget).toEqual(report);
  });
});
