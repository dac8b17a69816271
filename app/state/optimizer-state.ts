// The description optimizer in the UI state (issue 25): the plan (split, calls, cost), each iteration as
// it ends, what the server asks the person when they are the improver, the result, and the last Apply.
import type {
  OptimizeIteration,
  OptimizePlan,
  OptimizeResult,
  SessionEvent,
  SpendCaps,
} from "../../server/protocol/index.ts";
import type { SessionView } from "./types.ts";

export interface OptimizerView {
  skill: string;
  original: string;
  plan: OptimizePlan;
  caps?: SpendCaps;
  status: "running" | "waiting" | "done" | "failed";
  iterations: OptimizeIteration[];
  spentUsd: number;
  /** Set while the server waits for the person's next description. */
  request?: { step: "propose" | "shorten"; prompt: string; description: string };
  result?: OptimizeResult;
  error?: string;
  applied?: { skill: string; file: string; before: string; after: string };
}

type OptimizerEvent = Extract<
  SessionEvent,
  {
    type:
      | "optimizer_started"
      | "optimizer_iteration"
      | "optimizer_proposal_requested"
      | "optimizer_finished"
      | "optimizer_failed"
      | "description_applied";
  }
>;

const TYPES = new Set<string>([
  "optimizer_started",
  "optimizer_iteration",
  "optimizer_proposal_requested",
  "optimizer_finished",
  "optimizer_failed",
  "description_applied",
]);

export function isOptimizerEvent(event: SessionEvent): event is OptimizerEvent {
  return TYPES.has(event.type);
}

export function applyOptimizerEvent(view: SessionView, event: OptimizerEvent): SessionView {
  const current = view.optimizer;
  switch (event.type) {
    case "optimizer_started":
      return {
        ...view,
        optimizer: {
          skill: event.skill,
          original: event.original,
          plan: event.plan,
          ...(event.caps ? { caps: event.caps } : {}),
          status: "running",
          iterations: [],
          spentUsd: 0,
        },
      };
    case "optimizer_iteration":
      if (!current) return view;
      return {
        ...view,
        optimizer: {
          ...current,
          status: "running",
          request: undefined,
          iterations: [...current.iterations, event.iteration],
          spentUsd: event.spentUsd,
        },
      };
    case "optimizer_proposal_requested":
      if (!current) return view;
      return {
        ...view,
        optimizer: {
          ...current,
          status: "waiting",
          request: { step: event.step, prompt: event.prompt, description: event.description },
        },
      };
    case "optimizer_finished":
      if (!current) return view;
      return {
        ...view,
        optimizer: {
          ...current,
          status: "done",
          request: undefined,
          result: event.result,
          spentUsd: event.result.spend.usd,
        },
      };
    case "optimizer_failed":
      if (!current) return view;
      return {
        ...view,
        optimizer: { ...current, status: "failed", request: undefined, error: event.message },
      };
    case "description_applied":
      if (!current) return view;
      return {
        ...view,
        optimizer: {
          ...current,
          applied: { skill: event.skill, file: event.file, before: event.before, after: event.after },
        },
      };
  }
}
