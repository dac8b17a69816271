// The optimizer's events in the UI state: the plan, each iteration, the person's turn, the result and an
// Apply; and the router's decision reaching the request it belongs to ("why this skill").
import { describe, expect, it } from "vitest";
import type { OptimizePlan, RoutingDecision, ServerMessage } from "../../server/protocol/index.ts";
import { initialUiState, uiReducer } from "./reducer.ts";
import { envelope, payloadBlobs, requestEvent, snapshot, summary } from "./test-builders.ts";

const plan: OptimizePlan = {
  estimate: { calls: 21, inputTokensPerCall: 1700, outputTokensPerCall: 200, usd: 0, basis: "offline" },
  probeCalls: 20,
  improverCalls: 1,
  trainSize: 6,
  testSize: 4,
  holdout: 0.4,
  seed: 42,
  iterations: 2,
  runs: 1,
  scorer: "router / description-router",
  improver: "you (manual: the person proposes)",
};
const iteration = (number: number, description: string, train: number, test: number) => ({
  iteration: number,
  description,
  train_passed: train,
  train_total: 6,
  test_passed: test,
  test_total: 4,
});

function run(messages: ServerMessage[]) {
  return uiReducer(initialUiState, { type: "server_batch", messages });
}

const opened = envelope(1, { type: "session_opened", session: summary(), history: [], activeSkills: [] });

describe("optimizer state", () => {
  it("follows the plan, the iterations, the person's turn, the result and the apply", () => {
    const waiting = run([
      opened,
      envelope(2, { type: "optimizer_started", skill: "add-report", original: "Old.", plan }),
      envelope(3, { type: "optimizer_iteration", iteration: iteration(1, "Old.", 3, 2), spentUsd: 0 }),
      envelope(4, {
        type: "optimizer_proposal_requested",
        step: "propose",
        prompt: "P",
        description: "Old.",
      }),
    ]);
    expect(waiting.session?.optimizer).toMatchObject({
      status: "waiting",
      request: { prompt: "P", description: "Old." },
      iterations: [{ iteration: 1 }],
    });
    const result = {
      original_description: "Old.",
      best_description: "New.",
      best_score: "3/4",
      best_train_score: "6/6",
      best_test_score: "3/4",
      iterations_run: 2,
      holdout: 0.4,
      train_size: 6,
      test_size: 4,
      exit_reason: "all 6 train queries pass (iteration 2)",
      history: [iteration(1, "Old.", 3, 2), iteration(2, "New.", 6, 3)],
      estimate: plan.estimate,
      spend: { calls: 21, usd: 0, estimatedCalls: 0 },
      skill: "add-report",
    };
    const done = uiReducer(waiting, {
      type: "server_batch",
      messages: [
        envelope(5, { type: "optimizer_iteration", iteration: iteration(2, "New.", 6, 3), spentUsd: 0 }),
        envelope(6, { type: "optimizer_finished", result }),
        envelope(7, {
          type: "description_applied",
          skill: "add-report",
          file: "/w/SKILL.md",
          before: "Old.",
          after: "New.",
        }),
      ],
    });
    expect(done.session?.optimizer).toMatchObject({
      status: "done",
      iterations: [{ iteration: 1 }, { iteration: 2 }],
      result: { best_description: "New." },
      applied: { file: "/w/SKILL.md", after: "New." },
    });
    expect(done.session?.optimizer?.request).toBeUndefined();
  });

  it("keeps the router's decision with the request it came with", () => {
    const routing: RoutingDecision = {
      label: "description router — not a language model",
      method: "BM25",
      threshold: 3,
      queryTerms: ["report"],
      scores: [{ skill: "csv-report", score: 4, terms: [{ term: "report", weight: 4 }], named: false }],
      chosen: "csv-report",
      reason: "csv-report scores 4, the best at or above 3",
    };
    const state = run([
      opened,
      envelope(2, { type: "run_started", runId: "r1", userMessage: "a report" }),
      envelope(
        3,
        requestEvent(
          snapshot({ provider: "router", model: "description-router", listedSkills: ["csv-report"] }),
        ),
      ),
      envelope(4, {
        type: "provider_payload",
        runId: "r1",
        requestIndex: 1,
        ...payloadBlobs({}),
        routing,
      }),
    ]);
    expect(state.session?.requests[0].routing?.chosen).toBe("csv-report");
  });
});
