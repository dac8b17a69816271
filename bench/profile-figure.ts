// Re-runs a figure under the V8 CPU profiler (in-process, node:inspector) and summarizes where its time
// went, so a missed target comes with the frames that explain it. The profiled run's timings are not
// reported: profiling slows everything down, the table keeps the unprofiled figures.
import { Session } from "node:inspector/promises";
import type { Figure, FigureRow } from "./harness.ts";
import { summarizeProfile, type FrameCost, type CpuProfile } from "./profile-summary.ts";

const NOT_CODE = new Set(["(root)", "(idle)", "(program)"]);
/** The profiler's own frames (serializing the profile on stop), not the figure's work. */
const PROFILER_OWN =
  /^(dispatch|post node:inspector|profileFigure |fn node:internal\/util|\(anonymous\) node:internal\/util|processTicksAndRejections )/;

export interface FigureProfile {
  /** Where CPU time was spent, by self time (the frame itself). */
  topSelf: FrameCost[];
  /** Frames whose callees include the cost (inclusive time), project and library frames only. */
  topInclusive: FrameCost[];
  idleMs: number;
  sampledMs: number;
  /** What the figure itself attached during the profiled run (e.g. the browser page's own profile). */
  figureProfiles?: Record<string, unknown>;
}

const NOT_CODE_FRAMES = NOT_CODE;

/** Top frames of any V8 CPU profile (this process, or a page's via CDP). */
export function topFrames(
  profile: CpuProfile,
  limit = 12,
): { topSelf: FrameCost[]; topInclusive: FrameCost[]; idleMs: number; sampledMs: number } {
  const costs = summarizeProfile(profile);
  const rounded = (cost: FrameCost): FrameCost => ({
    frame: cost.frame,
    selfMs: Math.round(cost.selfMs),
    totalMs: Math.round(cost.totalMs),
  });
  const code = costs.filter((cost) => !NOT_CODE_FRAMES.has(cost.frame) && !PROFILER_OWN.test(cost.frame));
  return {
    topSelf: [...code]
      .sort((left, right) => right.selfMs - left.selfMs)
      .slice(0, limit)
      .map(rounded),
    topInclusive: code
      .filter(
        (cost) =>
          /\.(ts|js|tsx)|node:/.test(cost.frame) &&
          !cost.frame.startsWith("run bench/") &&
          !cost.frame.includes("bench/harness.ts"),
      )
      .sort((left, right) => right.totalMs - left.totalMs)
      .slice(0, limit)
      .map(rounded),
    idleMs: Math.round(costs.find((cost) => cost.frame === "(idle)")?.selfMs ?? 0),
    sampledMs: Math.round(costs.find((cost) => cost.frame === "(root)")?.totalMs ?? 0),
  };
}

export async function profileFigure(figure: Figure, quick: boolean, limit = 12): Promise<FigureProfile> {
  const session = new Session();
  session.connect();
  try {
    await session.post("Profiler.enable");
    await session.post("Profiler.setSamplingInterval", { interval: 200 });
    await session.post("Profiler.start");
    const rows: FigureRow[] = await figure.run({ quick, profiling: true });
    const { profile } = (await session.post("Profiler.stop")) as { profile: CpuProfile };
    const figureProfiles = rows.find((row) => row.details?.pageProfile)?.details?.pageProfile;
    return {
      ...topFrames(profile, limit),
      ...(figureProfiles ? { figureProfiles: { page: figureProfiles } } : {}),
    };
  } finally {
    await session.post("Profiler.disable");
    session.disconnect();
  }
}

function formatFrames(title: string, profile: ReturnType<typeof topFrames>): string[] {
  const lines = [
    `${title} (${profile.sampledMs} ms sampled, ${profile.idleMs} ms idle = waiting on I/O, timers or the thread pool):`,
  ];
  lines.push("  top self time:");
  for (const cost of profile.topSelf) lines.push(`    ${String(cost.selfMs).padStart(6)} ms  ${cost.frame}`);
  lines.push("  top inclusive time:");
  for (const cost of profile.topInclusive)
    lines.push(`    ${String(cost.totalMs).padStart(6)} ms  ${cost.frame}`);
  return lines;
}

export function formatProfile(name: string, profile: FigureProfile): string {
  const lines = formatFrames(`profile of ${name}, Node side`, profile);
  const page = profile.figureProfiles?.page as ReturnType<typeof topFrames> | undefined;
  if (page) lines.push(...formatFrames(`profile of ${name}, browser page (CDP)`, page));
  return lines.join("\n");
}
