// Trigger-lab throughput: the real lab (server/eval) over the demo workdir's catalog, through the real
// OpenAI provider, against a local OpenAI-format server (real HTTP + SSE, server/eval/testing) that holds
// every answer for a fixed "thinking" time, at --concurrency 8. Reported: probes per second, the
// server's own answer time per probe (measured inside the server), the probe time the lab sees, and
// the difference — what the playground (request building, SDK, HTTP, SSE parsing, load_skill, scoring)
// adds per probe.
import { cp, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { runTriggerLab } from "../server/eval/lab.ts";
import { startQueryServer, type QueryAnswer } from "../server/eval/testing/query-openai-server.ts";
import type { TriggerEvalFile } from "../server/eval/triggers-file.ts";
import { OpenAiProvider } from "../server/providers/openai.ts";
import { createWorkspace } from "../server/session/workspace.ts";
import { median, round, type Figure, type FigureRow } from "./harness.ts";

const CONCURRENCY = 8;
const ANSWER_DELAY_MS = 50;
const QUERIES = 20;

function workload(): { evals: Omit<TriggerEvalFile, "file">; answers: Record<string, QueryAnswer> } {
  const skills = ["csv-report", "review", "add-report", "release-notes", "todo-triage"];
  const answers: Record<string, QueryAnswer> = {};
  const queries: TriggerEvalFile["queries"] = [];
  for (let index = 0; index < QUERIES; index += 1) {
    const query = `benchmark query ${index}: please help with task number ${index}`;
    const negative = index % 5 === 4;
    const expect = negative ? "none" : skills[index % skills.length];
    queries.push({ query, expect, kind: negative ? "negative" : "implicit", line: index + 2 });
    answers[query] = negative
      ? { text: "No skill needed." }
      : {
          text: "Loading a skill.",
          toolCalls: [{ name: "load_skill", arguments: { name: skills[(index * 3) % skills.length] } }],
        };
  }
  return { evals: { queries }, answers };
}

export const triggerLabFigure: Figure = {
  name: "trigger-lab",
  workload: `${QUERIES} queries × K probes, --concurrency ${CONCURRENCY}, local OpenAI-format server answering in ${ANSWER_DELAY_MS} ms`,
  target: "report probes/s and overhead per probe",
  async run({ quick }): Promise<FigureRow[]> {
    const runs = quick ? 2 : 4;
    const repetitions = quick ? 2 : 5;
    const root = await mkdtemp(path.join(os.tmpdir(), "bench-trigger-lab-"));
    const demo = fileURLToPath(new URL("../examples/demo-workdir", import.meta.url));
    const workdir = path.join(root, "demo");
    await cp(demo, workdir, { recursive: true });
    const { evals, answers } = workload();
    const server = await startQueryServer({ answers, delayMs: ANSWER_DELAY_MS });
    try {
      const workspace = await createWorkspace({ workdir, home: path.join(root, "home") });
      const provider = new OpenAiProvider({
        baseUrl: server.baseUrl,
        model: "gpt-bench",
        retry: { maxRetries: 0 },
      });
      const lab = {
        catalog: workspace.catalog,
        tools: workspace.registry.definitions(),
        facts: workspace.prompt.environmentFacts(),
        workdir: workspace.workdir,
        home: workspace.home,
        tokens: workspace.tokens,
      };
      const rates: number[] = [];
      const probeMs: number[] = [];
      const serverMs: number[] = [];
      for (let repetition = 0; repetition <= repetitions; repetition += 1) {
        const answeredBefore = server.answerMs.length;
        const started = performance.now();
        const result = await runTriggerLab({
          evals: { ...evals, file: path.join(root, `bench-${repetition}.yaml`) },
          workspace: lab,
          createProvider: () => provider,
          runs,
          concurrency: CONCURRENCY,
          save: false,
        });
        const elapsed = performance.now() - started;
        const probes = result.a.queries.flatMap((query) => query.probes);
        const failed = probes.filter((probe) => probe.outcome === "provider_error");
        if (failed.length > 0) throw new Error(`${failed.length} probes failed: ${failed[0].error}`);
        if (repetition === 0) continue; // warm-up: the SDK's first request, JIT
        rates.push(probes.length / (elapsed / 1000));
        probeMs.push(...probes.map((probe) => probe.durationMs ?? 0));
        serverMs.push(...server.answerMs.slice(answeredBefore));
      }
      const probesPerSecond = median(rates);
      const probeMedian = median(probeMs);
      const serverMedian = median(serverMs);
      const ideal = CONCURRENCY / (serverMedian / 1000);
      return [
        {
          figure: "trigger-lab",
          workload: `${QUERIES} queries × ${runs} probes, concurrency ${CONCURRENCY}, server answers in ${ANSWER_DELAY_MS} ms`,
          unit: "probes/s",
          median: round(probesPerSecond),
          baselineMedian: round(ideal),
          ratio: round(probesPerSecond / ideal),
          target: "report",
          status: "report",
          note: `probe ${probeMedian.toFixed(1)} ms (lab's view) vs server ${serverMedian.toFixed(1)} ms (its own answer time): the playground adds ${(probeMedian - serverMedian).toFixed(1)} ms per probe; baseline = ${CONCURRENCY} in flight ÷ server time`,
          details: {
            probesPerSecond: rates.map((value) => round(value)),
            probeMedianMs: round(probeMedian),
            serverAnswerMedianMs: round(serverMedian),
            overheadPerProbeMs: round(probeMedian - serverMedian),
            peakInFlight: server.peakInFlight,
          },
        },
      ];
    } finally {
      await server.close();
      await rm(root, { recursive: true, force: true });
    }
  },
};
