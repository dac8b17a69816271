// Skill tool call: wraps `benchSkillToolCall` from bench/skill-tool-call.ts (written by the tools owner:
// a trivial tools.json tool through registry + permission + process runner, against a bare
// `child_process.spawn` of the same program) into a table row. Imported by a computed specifier so this
// file typechecks and the run says "not measured" while that module does not exist yet.
import { round, type Figure, type FigureRow } from "./harness.ts";

interface SkillToolCallResult {
  medianMs: number;
  baselineMedianMs: number;
  ratio: number;
  /** Median of (subject − baseline) per interleaved pair, when the module reports it. */
  medianOverheadMs?: number;
  /** The same call under bubblewrap (bench/skill-tool-call.ts), when available. */
  sandboxed?: {
    medianMs: number;
    ratioToUnsandboxed: number;
    medianOverheadMs: number;
    bareBwrapOverheadMs?: number;
    direct?: { medianMs: number; heldOverDirectRatio: number; medianHeldOverheadMs: number };
    manyFiles?: { files: number; heldMedianMs: number; directMedianMs: number; ratio: number };
  };
}

type BenchSkillToolCall = (iterations: number) => Promise<SkillToolCallResult>;

async function loadBench(): Promise<BenchSkillToolCall> {
  const loaded = (await import(new URL("./skill-tool-call.ts", import.meta.url).href)) as Record<
    string,
    unknown
  >;
  if (typeof loaded.benchSkillToolCall !== "function") {
    throw new Error("bench/skill-tool-call.ts does not export benchSkillToolCall(iterations)");
  }
  return loaded.benchSkillToolCall as BenchSkillToolCall;
}

export const skillToolCallFigure: Figure = {
  name: "skill-tool-call",
  workload: "trivial tool via registry + permission + process runner",
  target: "≤ 1.2× bare child_process.spawn",
  async run({ quick }): Promise<FigureRow[]> {
    const bench = await loadBench();
    const iterations = quick ? 10 : 40;
    const result = await bench(iterations);
    const { sandboxed, ...numbers } = result;
    const { direct, manyFiles, ...sandboxNumbers } = sandboxed ?? {};
    for (const [key, value] of Object.entries({ ...numbers, ...sandboxNumbers, ...direct, ...manyFiles })) {
      if (typeof value !== "number" || !Number.isFinite(value))
        throw new Error(`benchSkillToolCall returned ${key}=${String(value)}`);
    }
    return [
      {
        figure: "skill-tool-call",
        workload: `trivial skill tool via registry + permission + process runner, ${iterations} calls`,
        unit: "ms",
        median: round(result.medianMs),
        baselineMedian: round(result.baselineMedianMs),
        ratio: round(result.ratio),
        target: "≤ 1.2×",
        status: result.ratio <= 1.2 ? "pass" : "miss",
        note: `baseline: bare child_process.spawn of the same program (bench/skill-tool-call.ts)${
          result.medianOverheadMs !== undefined
            ? `; median paired overhead ${result.medianOverheadMs.toFixed(2)} ms per call`
            : ""
        }`,
        details: { ...result, iterations },
      },
      ...(sandboxed
        ? [
            {
              figure: "skill-tool-call",
              workload: `same call under bubblewrap (network off), ${iterations} calls`,
              unit: "ms",
              median: round(sandboxed.medianMs),
              baselineMedian: round(result.medianMs),
              ratio: round(sandboxed.ratioToUnsandboxed),
              target: "≤ +10 ms per call",
              status: sandboxed.medianOverheadMs <= 10 ? ("pass" as const) : ("miss" as const),
              note: `baseline: the unsandboxed call above, same run, interleaved; median paired overhead ${sandboxed.medianOverheadMs.toFixed(2)} ms per call${
                sandboxed.bareBwrapOverheadMs !== undefined
                  ? ` (bare bwrap alone: ${sandboxed.bareBwrapOverheadMs.toFixed(2)} ms over a bare spawn)`
                  : ""
              }`,
              details: { ...sandboxed, iterations },
            },
          ]
        : []),
      ...(direct
        ? [
            {
              figure: "skill-tool-call",
              workload: `same sandboxed call, writes held until checked (overlay) against not held, ${iterations} calls`,
              unit: "ms",
              median: round(sandboxed!.medianMs),
              baselineMedian: round(direct.medianMs),
              ratio: round(direct.heldOverDirectRatio),
              target: "read-only call not noticeably slower (≤ +5 ms)",
              status: direct.medianHeldOverheadMs <= 5 ? ("pass" as const) : ("miss" as const),
              note: `baseline: the same call with PSEUDOCLAUDE_SANDBOX_HOLD_WRITES=off, same run, interleaved; median paired overhead ${direct.medianHeldOverheadMs.toFixed(2)} ms per call`,
              details: { ...direct, iterations },
            },
          ]
        : []),
      ...(manyFiles
        ? [
            {
              figure: "skill-tool-call",
              workload: `sandboxed call writing ${manyFiles.files} new files (npm-like), held against not held, 3 calls each`,
              unit: "ms",
              median: round(manyFiles.heldMedianMs),
              baselineMedian: round(manyFiles.directMedianMs),
              ratio: round(manyFiles.ratio),
              target: "report only",
              status: "report" as const,
              note: "the held side checks the merged result and applies it (new folders renamed whole); the direct side is checked after the call",
              details: manyFiles,
            },
          ]
        : []),
    ];
  },
};
