// Overhead of one trivial skill tool call through the real seams — Registry.validate, PermissionEngine
// .evaluate, runProcess (execa, process group, bounded capture, group-exit check) — against a bare
// child_process.spawn of the same command. Both run interleaved, so they share the machine's noise.
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import { PermissionEngine } from "../server/permission/engine.ts";
import type { PermissionCheck } from "../server/permission/types.ts";
import { runProcess } from "../server/tools/process-runner.ts";
import { Registry } from "../server/tools/registry.ts";
import { processExecution } from "../server/tools/system/process-result.ts";
import type { Tool } from "../server/tools/types.ts";

export interface SkillToolCallResult {
  medianMs: number;
  baselineMedianMs: number;
  ratio: number;
  /** Median of (subject − baseline) per interleaved pair: steadier than the ratio on a busy machine. */
  medianOverheadMs: number;
  iterations: number;
}

/** The trivial command: starting node itself is what a typical skill script costs at least. */
const PROGRAM = process.execPath;
const ARGS = ["-e", ""];
const WARMUP_ITERATIONS = 3;
/** The measured command, for reports (the result itself holds numbers only). */
export const BENCH_COMMAND: readonly string[] = [PROGRAM, ...ARGS];

function trivialSkillTool(cwd: string): Tool {
  const name = "bench_noop";
  return {
    definition: {
      name,
      description: "does nothing",
      inputSchema: { type: "object", properties: { value: { type: "string" } }, additionalProperties: false },
      safety: "side_effect",
      category: "exec",
      origin: "skill",
      skill: "bench",
    },
    describe: (input) => ({ cwd, command: [PROGRAM, ...ARGS].join(" "), stdin: JSON.stringify(input) }),
    async execute(input, context) {
      const outcome = await runProcess({
        file: PROGRAM,
        args: ARGS,
        cwd,
        input: JSON.stringify(input),
        timeoutMs: 30_000,
        signal: context.signal,
      });
      return processExecution(name, outcome, 30_000);
    },
  };
}

async function oneToolCall(
  registry: Registry,
  engine: PermissionEngine,
  cwd: string,
  signal: AbortSignal,
): Promise<void> {
  const input = { value: "x" };
  const invalid = registry.validate("bench_noop", input);
  if (invalid) throw new Error(invalid.content);
  const tool = registry.get("bench_noop")!;
  const check: PermissionCheck = {
    callId: "bench",
    tool: tool.definition,
    input,
    target: tool.describe(input, { workdir: cwd }),
  };
  const trace = engine.evaluate(check);
  if (trace.decision !== "allow") throw new Error(`benchmark call not allowed: ${JSON.stringify(trace)}`);
  const execution = await tool.execute(input, { workdir: cwd, callId: "bench", signal });
  if (!execution.result.ok) throw new Error(`benchmark call failed: ${execution.result.content}`);
}

function bareSpawn(cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(PROGRAM, ARGS, { cwd, stdio: ["pipe", "pipe", "pipe"] });
    // `node -e ""` never reads stdin; EPIPE on this write is expected, as in runProcess.
    child.stdin.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE") reject(error);
    });
    child.stdin.end(JSON.stringify({ value: "x" }));
    child.stdout.resume();
    child.stderr.resume();
    child.once("error", reject);
    child.once("close", (code) => (code === 0 ? resolve() : reject(new Error(`bare spawn exited ${code}`))));
  });
}

function medianOf(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export async function benchSkillToolCall(
  iterations: number,
  cwd: string = process.cwd(),
): Promise<SkillToolCallResult> {
  const registry = new Registry();
  registry.register(trivialSkillTool(cwd));
  const engine = new PermissionEngine();
  // The user allowed the tool for the session, so the measured call goes through evaluate to "allow".
  engine.addSessionRule({
    callId: "setup",
    tool: registry.get("bench_noop")!.definition,
    input: {},
    target: { cwd },
  });
  const signal = new AbortController().signal;

  const subject: number[] = [];
  const baseline: number[] = [];
  for (let index = 0; index < WARMUP_ITERATIONS + iterations; index++) {
    // Alternate which side goes first so neither always runs on a warmer machine.
    const order = index % 2 === 0 ? ["subject", "baseline"] : ["baseline", "subject"];
    for (const side of order) {
      const started = performance.now();
      if (side === "subject") await oneToolCall(registry, engine, cwd, signal);
      else await bareSpawn(cwd);
      const elapsed = performance.now() - started;
      if (index >= WARMUP_ITERATIONS) (side === "subject" ? subject : baseline).push(elapsed);
    }
  }
  const medianMs = medianOf(subject);
  const baselineMedianMs = medianOf(baseline);
  const pairDifferences = subject.map((value, index) => value - baseline[index]!);
  return {
    medianMs,
    baselineMedianMs,
    ratio: medianMs / baselineMedianMs,
    medianOverheadMs: medianOf(pairDifferences),
    iterations,
  };
}
