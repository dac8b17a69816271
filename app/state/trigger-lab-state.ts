// The trigger lab and catalog budget in the UI state: the live table of probes (filled as progress
// events arrive), the final scores, and the last budget report the server sent.
import type {
  CostEstimate,
  LabSide,
  ProbeRecord,
  SessionEvent,
  SpendCaps,
  TriggerLabResult,
  TriggerLabRunInfo,
} from "../../server/protocol/index.ts";
import type { SessionView } from "./types.ts";

export interface TriggerLabView {
  info: TriggerLabRunInfo;
  queries: { query: string; expect: string; kind: string }[];
  total: number;
  done: number;
  status: "running" | "done" | "failed";
  /** probes[side][queryIndex][run - 1]; undefined until that probe has answered. */
  probes: Record<LabSide, (ProbeRecord | undefined)[][]>;
  result?: TriggerLabResult;
  error?: string;
  /** The calls and their cost, said before the first call (servers before issue 25 send none). */
  estimate?: CostEstimate;
  caps?: SpendCaps;
  /** The result this one replaced in the session, for "against the previous run". */
  previous?: TriggerLabResult;
}

type LabEvent = Extract<
  SessionEvent,
  {
    type:
      | "trigger_lab_started"
      | "trigger_lab_progress"
      | "trigger_lab_finished"
      | "trigger_lab_failed"
      | "catalog_budget_report";
  }
>;

export function isLabEvent(event: SessionEvent): event is LabEvent {
  return (
    event.type === "trigger_lab_started" ||
    event.type === "trigger_lab_progress" ||
    event.type === "trigger_lab_finished" ||
    event.type === "trigger_lab_failed" ||
    event.type === "catalog_budget_report"
  );
}

function emptyGrid(queries: number, runs: number): (ProbeRecord | undefined)[][] {
  return Array.from({ length: queries }, () => Array.from({ length: runs }, () => undefined));
}

export function applyLabEvent(view: SessionView, event: LabEvent): SessionView {
  switch (event.type) {
    case "catalog_budget_report":
      return { ...view, catalogBudget: event.report };
    case "trigger_lab_started":
      return {
        ...view,
        triggerLab: {
          info: event.info,
          queries: event.queries,
          total: event.total,
          done: 0,
          status: "running",
          probes: {
            a: emptyGrid(event.queries.length, event.info.runs),
            b: emptyGrid(event.queries.length, event.info.runs),
            none: emptyGrid(event.queries.length, event.info.runs),
          },
          ...(event.estimate ? { estimate: event.estimate } : {}),
          ...(event.caps ? { caps: event.caps } : {}),
          ...(view.triggerLab?.result ? { previous: view.triggerLab.result } : {}),
        },
      };
    case "trigger_lab_progress": {
      const lab = view.triggerLab;
      if (!lab || lab.info.labId !== event.progress.labId) return view;
      const { side, queryIndex, run, probe, done } = event.progress;
      const grid = lab.probes[side].map((row, index) =>
        index === queryIndex ? row.map((cell, cellIndex) => (cellIndex === run - 1 ? probe : cell)) : row,
      );
      return {
        ...view,
        triggerLab: { ...lab, done: Math.max(lab.done, done), probes: { ...lab.probes, [side]: grid } },
      };
    }
    case "trigger_lab_finished": {
      const lab = view.triggerLab;
      const result = event.result;
      const fill = (summary: TriggerLabResult["a"] | undefined) =>
        summary?.queries.map((query) => query.probes) ?? [];
      return {
        ...view,
        triggerLab: {
          ...lab,
          info: result.info,
          queries: result.a.queries.map(({ query, expect, kind }) => ({ query, expect, kind })),
          total: lab?.total ?? result.a.queries.length * result.info.runs * (result.b ? 2 : 1),
          done: lab?.total ?? 0,
          status: "done",
          probes: { a: fill(result.a), b: fill(result.b), none: fill(result.none) },
          result,
          ...(result.estimate ? { estimate: result.estimate } : {}),
        },
      };
    }
    case "trigger_lab_failed": {
      const lab = view.triggerLab;
      if (!lab) {
        return {
          ...view,
          triggerLab: {
            info: {
              labId: event.labId ?? "lab",
              evalFile: "",
              provider: "",
              model: "",
              runs: 0,
              concurrency: 0,
              startedAt: "",
            },
            queries: [],
            total: 0,
            done: 0,
            status: "failed",
            probes: { a: [], b: [], none: [] },
            error: event.message,
          },
        };
      }
      return { ...view, triggerLab: { ...lab, status: "failed", error: event.message } };
    }
  }
}
