// Runner overhead: one run of 100 iterations (99 turns that call a trivial tool, then a final answer)
// with the scripted provider, a 1,000-skill catalog in the stable system and 20 active skills in the
// environment — against a loop that only pulls the same 100 turns out of the same provider. The
// difference, divided by 100, is what the Runner adds per iteration: environment rebuild, request
// snapshots, events, permission, argument validation, history.
import { Runner } from "../server/runner/runner.ts";
import type { PromptSources } from "../server/runner/types.ts";
import type { PermissionHook } from "../server/permission/types.ts";
import { ScriptedProvider } from "../server/providers/scripted.ts";
import type { Scenario } from "../server/providers/scenario.ts";
import type { ModelRequest, ProviderEvent } from "../server/providers/types.ts";
import { ActiveSkills, Catalog, renderInvocation } from "../server/skills/index.ts";
import { Registry } from "../server/tools/registry.ts";
import { okResult, type Tool } from "../server/tools/types.ts";
import type { RunnerEvent } from "../server/protocol/index.ts";
import { generateCatalog, type GeneratedCatalog } from "./generate-catalog.ts";
import { interleave, median, round, type Figure, type FigureRow } from "./harness.ts";

const ITERATIONS = 100;
const ACTIVE = 20;

/** The cheapest possible tool, so the figure measures the Runner, not a tool. */
const NOOP_TOOL: Tool = {
  definition: {
    name: "bench_noop",
    description: "Returns ok. Used by the runner-overhead benchmark.",
    inputSchema: { type: "object", properties: { step: { type: "integer" } }, required: ["step"] },
    safety: "read_only",
    category: "read",
    origin: "main",
  },
  describe: (_input, context) => ({ cwd: context.workdir }),
  execute: async () => ({ result: okResult("bench_noop", "ok") }),
};

/** Allows every call, as the `default` mode does for read-only tools, without asking anyone. */
const ALLOW_READS: PermissionHook = {
  evaluate: (check) => ({ decision: "allow", source: "mode", rule: "default", category: check.tool.category }),
  ask: async () => ({ kind: "deny", reason: "the benchmark never asks" }),
};

export function overheadScenario(iterations: number): Scenario {
  const turns: Scenario["turns"] = [];
  for (let step = 1; step < iterations; step++) {
    turns.push({ text: `Step ${step}: checking the next file before I decide what to change.`, toolCalls: [{ name: "bench_noop", input: { step } }] });
  }
  turns.push({ text: "Done: every step checked, nothing left to change.", toolCalls: [] });
  return { name: "runner-overhead", turns, file: "bench/runner-overhead.ts" };
}

interface RunnerFixture {
  runOnce(): Promise<void>;
  providerOnly(): Promise<void>;
}

async function runnerFixture(generated: GeneratedCatalog, iterations: number): Promise<RunnerFixture> {
  const catalog = await Catalog.create(generated.layers);
  const active = new ActiveSkills();
  for (const skill of catalog.list().slice(0, ACTIVE)) {
    active.activate({ name: skill.meta.name, source: skill.source, body: renderInvocation(skill) });
  }
  const prompt: PromptSources = {
    promptItems: () => catalog.promptItems(),
    activeSkills: () => active.list().map((entry) => ({ name: entry.name, body: entry.body })),
    eagerBodies: () => catalog.list().map((skill) => ({ name: skill.meta.name, body: renderInvocation(skill) })),
    environmentFacts: () => ({ version: "bench", cwd: generated.workdir, platform: process.platform }),
  };
  const scenario = overheadScenario(iterations);
  const registry = new Registry();
  registry.register(NOOP_TOOL, { protected: true });

  return {
    async runOnce() {
      let events = 0;
      const runner = new Runner({
        provider: new ScriptedProvider(scenario),
        registry,
        permission: ALLOW_READS,
        prompt,
        workdir: generated.workdir,
        history: [],
        onEvent: (_event: RunnerEvent) => void events++,
        maxIterations: iterations,
      });
      const outcome = await runner.run("Check every file, one step at a time.");
      if (outcome.reason !== "completed" || outcome.iterations !== iterations) {
        throw new Error(`runner stopped with ${outcome.reason} after ${outcome.iterations} iterations (${outcome.message ?? ""}); expected completed after ${iterations}`);
      }
    },
    async providerOnly() {
      const provider = new ScriptedProvider(scenario);
      const request: ModelRequest = { system: { stable: "", environment: "" }, messages: [{ role: "user", content: "Check every file, one step at a time." }], tools: [] };
      const signal = new AbortController().signal;
      let deltas = 0;
      for (let iteration = 0; iteration < iterations; iteration++) {
        for await (const event of provider.stream(request, signal) as AsyncIterable<ProviderEvent>) {
          if (event.type === "text_delta") deltas++;
          if (event.type === "error") throw new Error(`provider failed: ${event.message}`);
        }
      }
      if (deltas === 0) throw new Error("the provider streamed no text");
    },
  };
}

export const runnerOverheadFigure: Figure = {
  name: "runner-overhead",
  workload: "100 iterations, scripted provider, 1,000 skills, 20 active",
  target: "≤ 1 ms per iteration added",
  async run({ quick }): Promise<FigureRow[]> {
    const skills = quick ? 300 : 1000;
    const generated = await generateCatalog({ skills, withTools: Math.round(skills / 5), shadowed: 0 });
    try {
      const fixture = await runnerFixture(generated, ITERATIONS);
      const samples = await interleave(quick ? 3 : 11, fixture.runOnce, fixture.providerOnly, 1);
      const runMs = median(samples.subject);
      const loopMs = median(samples.baseline);
      const addedPerIteration = (runMs - loopMs) / ITERATIONS;
      return [
        {
          figure: "runner-overhead",
          workload: `${ITERATIONS} iterations, scripted provider, ${skills.toLocaleString("en-US")} skills, ${ACTIVE} active`,
          unit: "ms",
          median: round(runMs),
          baselineMedian: round(loopMs),
          ratio: round(runMs / loopMs),
          target: "≤ 1 ms/iteration added",
          status: addedPerIteration <= 1 ? "pass" : "miss",
          note: `Runner adds ${addedPerIteration.toFixed(3)} ms per iteration (median run − median provider-only loop, ÷ ${ITERATIONS})`,
          details: {
            addedPerIterationMs: round(addedPerIteration, 4),
            samplesMs: { runner: samples.subject.map((value) => round(value)), providerOnly: samples.baseline.map((value) => round(value)) },
          },
        },
      ];
    } finally {
      await generated.cleanup();
    }
  },
};
