// Re-runs a figure under the V8 CPU profiler (in-process, node:inspector) and summarizes where its time
// went, so a missed target comes with the frames that explain it. The profiled run's timings are not
// reported: profiling slows everything down, the table keeps the unprofiled figures.
import { Session } from "node:inspector/promises";
import type { Figure } from "./harness.ts";
import { summarizeProfile, type FrameCost, type CpuProfile } from "./profile-summary.ts";

const NOT_CODE = new Set(["(root)", "(idle)", "(program)"]);

export interface FigureProfile {
  /** Where CPU time was spent, by self time (the frame itself). */
  topSelf: FrameCost[];
  /** Frames whose callees include the cost (inclusive time), project and library frames only. */
  topInclusive: FrameCost[];
  idleMs: number;
  sampledMs: number;
}

export async function profileFigure(figure: Figure, quick: boolean, limit = 12): Promise<FigureProfile> {
  const session = new Session();
  session.connect();
  try {
    await session.post("Profiler.enable");
    await session.post("Profiler.setSamplingInterval", { interval: 200 });
    await session.post("Profiler.start");
    await figure.run({ quick });
    const { profile } = (await session.post("Profiler.stop")) as { profile: CpuProfile };
    const costs = summarizeProfile(profile);
    const rounded = (cost: FrameCost): FrameCost => ({ frame: cost.frame, selfMs: Math.round(cost.selfMs), totalMs: Math.round(cost.totalMs) });
    const code = costs.filter((cost) => !NOT_CODE.has(cost.frame));
    return {
      topSelf: [...code].sort((left, right) => right.selfMs - left.selfMs).slice(0, limit).map(rounded),
      topInclusive: code
        .filter((cost) => /\.(ts|js)|node:/.test(cost.frame) && !cost.frame.startsWith("run bench/") && !cost.frame.includes("bench/harness.ts"))
        .sort((left, right) => right.totalMs - left.totalMs)
        .slice(0, limit)
        .map(rounded),
      idleMs: Math.round(costs.find((cost) => cost.frame === "(idle)")?.selfMs ?? 0),
      sampledMs: Math.round(costs.find((cost) => cost.frame === "(root)")?.totalMs ?? 0),
    };
  } finally {
    await session.post("Profiler.disable");
    session.disconnect();
  }
}

export function formatProfile(name: string, profile: FigureProfile): string {
  const lines = [`profile of ${name} (${profile.sampledMs} ms sampled, ${profile.idleMs} ms idle = waiting on I/O or the thread pool):`];
  lines.push("  top self time:");
  for (const cost of profile.topSelf) lines.push(`    ${String(cost.selfMs).padStart(6)} ms  ${cost.frame}`);
  lines.push("  top inclusive time:");
  for (const cost of profile.topInclusive) lines.push(`    ${String(cost.totalMs).padStart(6)} ms  ${cost.frame}`);
  return lines.join("\n");
}
