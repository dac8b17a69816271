// Runner overhead: one run of 100 iterations (99 turns that call a trivial tool, then a final answer)
// with the scripted provider, in a real workspace (createWorkspace: 1,000-skill catalog, system tools,
// load_skill, prompt sources) with 20 skills activated through load_skill, and the real permission
// engine in default mode — against a loop that only pulls the same 100 turns out of the same provider.
// The difference, divided by 100, is what the Runner adds per iteration: environment rebuild, request
// snapshots, events, permission, argument validation, history.
import { PermissionEngine } from "../server/permission/index.ts";
import type { PermissionHook } from "../server/permission/types.ts";
import { Runner } from "../server/runner/runner.ts";
import { ScriptedProvider } from "../server/providers/scripted.ts";
import type { Scenario } from "../server/providers/scenario.ts";
import type { ModelRequest, ProviderEvent } from "../server/providers/types.ts";
import { createWorkspace } from "../server/session/workspace.ts";
import { ProcessRunner } from "../server/tools/process-runner.ts";
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

/** The real engine decides (default mode allows read-only tools); nobody is there to answer an ask. */
function permissionHook(): PermissionHook {
  const engine = new PermissionEngine({ mode: "default" });
  return {
    evaluate: (check) => engine.evaluate(check),
    ask: async () => ({ kind: "deny", reason: "the benchmark has nobody to ask" }),
  };
}

export function overheadScenario(iterations: number): Scenario {
  const turns: Scenario["turns"] = [];
  for (let step = 1; step < iterations; step++) {
    turns.push({
      text: `Step ${step}: checking the next file before I decide what to change.`,
      toolCalls: [{ name: "bench_noop", input: { step } }],
    });
  }
  turns.push({ text: "Done: every step checked, nothing left to change.", toolCalls: [] });
  return { name: "runner-overhead", turns, file: "bench/runner-overhead.ts" };
}

interface RunnerFixture {
  runOnce(): Promise<void>;
  providerOnly(): Promise<void>;
}

async function runnerFixture(generated: GeneratedCatalog, iterations: number): Promise<RunnerFixture> {
  const workspace = await createWorkspace({
    workdir: generated.workdir,
    home: generated.home,
    builtinDir: generated.layers.builtin,
  });
  workspace.registry.register(NOOP_TOOL);
  for (const name of workspace.catalog.names().slice(0, ACTIVE)) {
    const loaded = await workspace.loadSkill(name);
    if (!loaded.ok) throw new Error(`load_skill ${name} failed: ${loaded.error}`);
  }
  if (workspace.activeSkills.size !== ACTIVE)
    throw new Error(`${workspace.activeSkills.size} skills active; expected ${ACTIVE}`);
  const scenario = overheadScenario(iterations);
  const permission = permissionHook();
  // The bench's own runner: the scripted tools here start no process.
  const processes = new ProcessRunner();

  return {
    async runOnce() {
      let events = 0;
      const runner = new Runner(
        workspace.runnerDependencies({
          provider: new ScriptedProvider(scenario),
          processes,
          permission,
          onEvent: (_event: RunnerEvent) => void events++,
          maxIterations: iterations,
        }),
      );
      const outcome = await runner.run("Check every file, one step at a time.");
      if (outcome.reason !== "completed" || outcome.iterations !== iterations) {
        throw new Error(
          `runner stopped with ${outcome.reason} after ${outcome.iterations} iterations (${outcome.message ?? ""}); expected completed after ${iterations}`,
        );
      }
    },
    async providerOnly() {
      const provider = new ScriptedProvider(scenario);
      const request: ModelRequest = {
        system: { stable: "", environment: "" },
        messages: [{ role: "user", content: "Check every file, one step at a time." }],
        tools: [],
      };
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
  target: "≤ 0.3 ms per iteration added",
  async run({ quick }): Promise<FigureRow[]> {
    const skills = quick ? 300 : 1000;
    const generated = await generateCatalog({ skills, withTools: Math.round(skills / 5), shadowed: 0 });
    try {
      const fixture = await runnerFixture(generated, ITERATIONS);
      // CPU time of each run as well: on a shared machine other processes stretch the wall time of a run
      // (and of the loop it is paired with) while the CPU time this process spends stays put.
      const cpuMs: number[] = [];
      const measuredRun = async () => {
        const started = process.cpuUsage();
        await fixture.runOnce();
        const used = process.cpuUsage(started);
        cpuMs.push((used.user + used.system) / 1000);
      };
      const samples = await interleave(quick ? 5 : 21, measuredRun, fixture.providerOnly, 2);
      const cpuPerIteration = median(cpuMs.slice(2)) / ITERATIONS;
      const runMs = median(samples.subject);
      const loopMs = median(samples.baseline);
      // Median of the paired differences (each run minus the loop timed right after it): steadier than the
      // difference of medians when other processes load the machine in bursts.
      const addedPerIteration =
        median(samples.subject.map((value, index) => value - samples.baseline[index])) / ITERATIONS;
      return [
        {
          figure: "runner-overhead",
          workload: `${ITERATIONS} iterations, scripted provider, ${skills.toLocaleString("en-US")} skills, ${ACTIVE} active`,
          unit: "ms",
          median: round(runMs),
          baselineMedian: round(loopMs),
          ratio: round(runMs / loopMs),
          target: "≤ 0.3 ms/iteration added",
          status: addedPerIteration <= 0.3 ? "pass" : "miss",
          note: `Runner adds ${addedPerIteration.toFixed(3)} ms per iteration (median of paired run − provider-only loop, ÷ ${ITERATIONS}); CPU time ${cpuPerIteration.toFixed(3)} ms per iteration (median run's process CPU time ÷ ${ITERATIONS}, provider included)`,
          details: {
            addedPerIterationMs: round(addedPerIteration, 4),
            cpuPerIterationMs: round(cpuPerIteration, 4),
            samplesMs: {
              runner: samples.subject.map((value) => round(value)),
              providerOnly: samples.baseline.map((value) => round(value)),
            },
          },
        },
      ];
    } finally {
      await generated.cleanup();
    }
  },
};
