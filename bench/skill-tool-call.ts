// Overhead of one trivial skill tool call through the real seams — Registry.validate, PermissionEngine
// .evaluate, ProcessRunner.run (execa, process group, bounded capture, group-exit check) — against a bare
// child_process.spawn of the same command. A third side runs the same call under the OS sandbox
// (bubblewrap, network off, the workdir writable, the tool folder read-only). All run interleaved, so they
// share the machine's noise.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { PermissionEngine } from "../server/permission/engine.ts";
import type { PermissionCheck } from "../server/permission/types.ts";
import { childEnvironment } from "../server/tools/child-environment.ts";
import { HOLD_WRITES_VARIABLE, detectHeldWrites } from "../server/tools/held-writes.ts";
import { ProcessRunner } from "../server/tools/process-runner.ts";
import { Registry } from "../server/tools/registry.ts";
import {
  BASE_MOUNTS,
  ISOLATION_FLAGS,
  detectSandbox,
  sandboxPolicy,
  sandboxState,
} from "../server/tools/sandbox.ts";
import { processExecution } from "../server/tools/system/process-result.ts";
import { defineTool, type Tool } from "../server/tools/types.ts";

/** This file's own process runner (the composition root a test is). */
const processes = new ProcessRunner();

export interface SkillToolCallResult {
  medianMs: number;
  baselineMedianMs: number;
  ratio: number;
  /** Median of (subject − baseline) per interleaved pair: steadier than the ratio on a busy machine. */
  medianOverheadMs: number;
  iterations: number;
  /** The same call under bubblewrap, when it is available here. */
  sandboxed?: {
    medianMs: number;
    /** Sandboxed median over the unsandboxed call's median. */
    ratioToUnsandboxed: number;
    /** Median of (sandboxed − unsandboxed) per interleaved pair: the sandbox's cost per call. */
    medianOverheadMs: number;
    /** For scale: median of (bare bwrap spawn − bare spawn) per pair, what bubblewrap alone costs here. */
    bareBwrapOverheadMs: number;
    /**
     * The same sandboxed call with its writes not held (PSEUDOCLAUDE_SANDBOX_HOLD_WRITES=off: no overlay,
     * the check after the call), interleaved: what holding writes costs a call that writes nothing. Absent
     * where writes cannot be held here.
     */
    direct?: { medianMs: number; heldOverDirectRatio: number; medianHeldOverheadMs: number };
    /** A call writing MANY_FILES new files (npm-like), held against direct: the apply's cost. */
    manyFiles?: { files: number; heldMedianMs: number; directMedianMs: number; ratio: number };
  };
}

/** The trivial command: starting node itself is what a typical skill script costs at least. */
const PROGRAM = process.execPath;
const ARGS = ["-e", ""];
const WARMUP_ITERATIONS = 3;
/** Many-files calls per side (each writes MANY_FILES files). */
const MANY_FILES_RUNS = 3;
/** The measured command, for reports (the result itself holds numbers only). */
export const BENCH_COMMAND: readonly string[] = [PROGRAM, ...ARGS];

function trivialSkillTool(cwd: string, sandboxed = false): Tool<{ value?: string }> {
  const name = sandboxed ? "bench_noop_sandboxed" : "bench_noop";
  return defineTool<{ value?: string }>({
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
      const outcome = await processes.run({
        file: PROGRAM,
        args: ARGS,
        cwd,
        input: JSON.stringify(input),
        timeoutMs: 30_000,
        signal: context.signal,
        // Built per call, as the real tools do (it stats a fixed list of paths).
        ...(sandboxed
          ? {
              sandbox: sandboxPolicy({
                workdir: context.workdir,
                readOnlyRoots: [cwd],
                settings: context.sandbox ?? { network: false, homes: [] },
              }),
            }
          : {}),
      });
      return processExecution(
        { tool: name, command: BENCH_COMMAND.join(" "), cwd, timeoutMs: 30_000, content: "stdout" },
        outcome,
      );
    },
  });
}

async function oneToolCall(
  registry: Registry,
  engine: PermissionEngine,
  cwd: string,
  signal: AbortSignal,
  name = "bench_noop",
): Promise<void> {
  const input = { value: "x" };
  const prepared = registry.prepare(name, input);
  if (!prepared.ok) throw new Error(prepared.result.content);
  const tool = prepared.call;
  const check: PermissionCheck = {
    callId: "bench",
    tool: tool.definition,
    input,
    target: tool.describe(cwd),
  };
  const trace = engine.evaluate(check);
  if (trace.decision !== "allow") throw new Error(`benchmark call not allowed: ${JSON.stringify(trace)}`);
  const execution = await tool.execute({
    workdir: cwd,
    callId: "bench",
    signal,
    sandbox: { network: false, homes: [] },
  });
  if (!execution.result.ok)
    throw new Error(`benchmark call failed: ${execution.result.content.replace(/\n/g, " ")}`);
}

/** `bwrap` given explicitly: the same program under bare bubblewrap with the namespaces the sandbox uses. */
function bareSpawn(cwd: string, bwrap?: string): Promise<void> {
  const [file, args] = bwrap
    ? [
        bwrap,
        [
          ...BASE_MOUNTS,
          "--tmpfs",
          "/tmp",
          "--bind",
          cwd,
          cwd,
          "--unshare-net",
          ...ISOLATION_FLAGS,
          "--",
          PROGRAM,
          ...ARGS,
        ],
      ]
    : [PROGRAM, ARGS];
  return new Promise((resolve, reject) => {
    // The same allowlisted environment the process runner gives a tool (no NODE_OPTIONS loader from tsx).
    const env = childEnvironment(undefined, false) as NodeJS.ProcessEnv;
    const child = spawn(file, args, { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
    // `node -e ""` never reads stdin; EPIPE on this write is expected, as in ProcessRunner.run.
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

export async function benchSkillToolCall(iterations: number, cwd?: string): Promise<SkillToolCallResult> {
  // A scratch workdir of its own: the sandbox leaves an empty read-only `.PseudoClaude` mount point in it.
  const scratch = cwd ?? mkdtempSync(path.join(tmpdir(), "bench-skill-tool-"));
  try {
    return await measure(iterations, scratch);
  } finally {
    if (cwd === undefined) rmSync(scratch, { recursive: true, force: true });
  }
}

type Side = "subject" | "baseline" | "sandboxed" | "sandboxedDirect" | "bareBwrap";

/** Runs `work` with writes not held (the env setting is read per call). */
async function direct<T>(work: () => Promise<T>): Promise<T> {
  process.env[HOLD_WRITES_VARIABLE] = "off";
  try {
    return await work();
  } finally {
    delete process.env[HOLD_WRITES_VARIABLE];
  }
}

/** Files the many-files call writes: 1,000 folders of 10, like an npm install of a mid-size project. */
export const MANY_FILES = 10_000;
const MANY_FILES_SCRIPT =
  'const fs = require("fs"); for (let p = 0; p < 1000; p++) { const d = "node_modules/p" + p; ' +
  'fs.mkdirSync(d, { recursive: true }); for (let f = 0; f < 10; f++) fs.writeFileSync(d + "/f" + f + ".js", "x"); }';

/** One run_command-like call writing MANY_FILES files in a fresh workdir, sandboxed; its wall time. */
async function manyFilesCall(): Promise<number> {
  const workdir = mkdtempSync(path.join(tmpdir(), "bench-many-files-"));
  try {
    const started = performance.now();
    const outcome = await processes.run({
      file: PROGRAM,
      args: ["-e", MANY_FILES_SCRIPT],
      cwd: workdir,
      timeoutMs: 120_000,
      sandbox: sandboxPolicy({ workdir, settings: { network: false, homes: [] } }),
    });
    const elapsed = performance.now() - started;
    if (outcome.exitCode !== 0 || outcome.sandboxViolation)
      throw new Error(`many-files call failed: ${outcome.stderr} ${outcome.sandboxViolation ?? ""}`);
    return elapsed;
  } finally {
    rmSync(workdir, { recursive: true, force: true });
  }
}

async function measure(iterations: number, cwd: string): Promise<SkillToolCallResult> {
  const withSandbox = detectSandbox().available;
  const withHeld = withSandbox && detectHeldWrites(detectSandbox().program).available;
  const registry = new Registry();
  registry.register(trivialSkillTool(cwd));
  if (withSandbox) registry.register(trivialSkillTool(cwd, true));
  // The engine is told the sandbox state, as in a session (without it every exec call asks).
  const engine = new PermissionEngine({ sandbox: sandboxState(false) });
  // The user allowed the tools for the session, so the measured calls go through evaluate to "allow".
  for (const name of registry.names()) {
    engine.addSessionRule({
      callId: "setup",
      tool: registry.get(name)!.definition,
      input: {},
      target: { cwd },
    });
  }
  const signal = new AbortController().signal;

  const samples: Record<Side, number[]> = {
    subject: [],
    baseline: [],
    sandboxed: [],
    sandboxedDirect: [],
    bareBwrap: [],
  };
  const sides: Side[] = withSandbox
    ? ["subject", "baseline", "sandboxed", ...(withHeld ? (["sandboxedDirect"] as const) : []), "bareBwrap"]
    : ["subject", "baseline"];
  for (let index = 0; index < WARMUP_ITERATIONS + iterations; index++) {
    // Rotate which side goes first so none always runs on a warmer machine.
    const order = sides.map((_, offset) => sides[(index + offset) % sides.length]!);
    for (const side of order) {
      const started = performance.now();
      if (side === "subject") await oneToolCall(registry, engine, cwd, signal);
      else if (side === "sandboxed") await oneToolCall(registry, engine, cwd, signal, "bench_noop_sandboxed");
      else if (side === "sandboxedDirect")
        await direct(() => oneToolCall(registry, engine, cwd, signal, "bench_noop_sandboxed"));
      else if (side === "bareBwrap") await bareSpawn(cwd, detectSandbox().program);
      else await bareSpawn(cwd);
      const elapsed = performance.now() - started;
      if (index >= WARMUP_ITERATIONS) samples[side].push(elapsed);
    }
  }
  const medianMs = medianOf(samples.subject);
  const baselineMedianMs = medianOf(samples.baseline);
  const pairDifferences = samples.subject.map((value, index) => value - samples.baseline[index]!);
  const sandboxedMedianMs = withSandbox ? medianOf(samples.sandboxed) : undefined;
  // The apply's cost on a big output: a few calls each way, alternating (each takes seconds).
  const many: Record<"held" | "direct", number[]> = { held: [], direct: [] };
  if (withHeld)
    for (let index = 0; index < MANY_FILES_RUNS; index++) {
      many.held.push(await manyFilesCall());
      many.direct.push(await direct(manyFilesCall));
    }
  const directMedianMs = withHeld ? medianOf(samples.sandboxedDirect) : undefined;
  return {
    medianMs,
    baselineMedianMs,
    ratio: medianMs / baselineMedianMs,
    medianOverheadMs: medianOf(pairDifferences),
    iterations,
    ...(sandboxedMedianMs !== undefined
      ? {
          sandboxed: {
            medianMs: sandboxedMedianMs,
            ratioToUnsandboxed: sandboxedMedianMs / medianMs,
            medianOverheadMs: medianOf(
              samples.sandboxed.map((value, index) => value - samples.subject[index]!),
            ),
            bareBwrapOverheadMs: medianOf(
              samples.bareBwrap.map((value, index) => value - samples.baseline[index]!),
            ),
            ...(directMedianMs !== undefined
              ? {
                  direct: {
                    medianMs: directMedianMs,
                    heldOverDirectRatio: sandboxedMedianMs / directMedianMs,
                    medianHeldOverheadMs: medianOf(
                      samples.sandboxed.map((value, index) => value - samples.sandboxedDirect[index]!),
                    ),
                  },
                  manyFiles: {
                    files: MANY_FILES,
                    heldMedianMs: medianOf(many.held),
                    directMedianMs: medianOf(many.direct),
                    ratio: medianOf(many.held) / medianOf(many.direct),
                  },
                }
              : {}),
          },
        }
      : {}),
  };
}
