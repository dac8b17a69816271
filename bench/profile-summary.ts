// Summarizes a `node --cpu-prof` profile: top functions by self time and by inclusive time, so a missed
// target can be explained by the frames that cost it. Usage: tsx bench/profile-summary.ts FILE [N]
import { readFile } from "node:fs/promises";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface FrameCost {
  frame: string;
  selfMs: number;
  totalMs: number;
}

function frameLabel(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url
    .replace(/^https?:\/\/[^/]+/, "")
    .replace(/^file:\/\//, "")
    .replace(/^.*\/(node_modules\/)/, "$1")
    .replace(/^.*\/work\/main\//, "");
  return `${functionName || "(anonymous)"} ${file ? `${file}:${lineNumber + 1}` : ""}`.trim();
}

export function summarizeProfile(profile: CpuProfile): FrameCost[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const selfMs = new Map<number, number>();
  for (const [index, sample] of profile.samples.entries()) {
    selfMs.set(sample, (selfMs.get(sample) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000);
  }
  const costs = new Map<string, FrameCost>();
  for (const [id, ms] of selfMs) {
    const node = byId.get(id);
    if (!node) continue;
    const label = frameLabel(node);
    const own = costs.get(label) ?? { frame: label, selfMs: 0, totalMs: 0 };
    own.selfMs += ms;
    costs.set(label, own);
    // Inclusive time: count each distinct frame once per sample stack (recursion must not double-count).
    const seen = new Set<string>();
    for (let current: number | undefined = id; current !== undefined; current = parent.get(current)) {
      const ancestor = byId.get(current);
      if (!ancestor) break;
      const ancestorLabel = frameLabel(ancestor);
      if (seen.has(ancestorLabel)) continue;
      seen.add(ancestorLabel);
      const entry = costs.get(ancestorLabel) ?? { frame: ancestorLabel, selfMs: 0, totalMs: 0 };
      entry.totalMs += ms;
      costs.set(ancestorLabel, entry);
    }
  }
  return [...costs.values()];
}

if (process.argv[1]?.endsWith("profile-summary.ts")) {
  const file = process.argv[2];
  if (!file) {
    console.error("usage: tsx bench/profile-summary.ts PROFILE.cpuprofile [N]");
    process.exit(2);
  }
  const limit = Number(process.argv[3] ?? 20);
  const costs = summarizeProfile(JSON.parse(await readFile(file, "utf8")) as CpuProfile);
  const show = (title: string, key: "selfMs" | "totalMs") => {
    console.log(title);
    for (const cost of [...costs].sort((left, right) => right[key] - left[key]).slice(0, limit)) {
      console.log(
        `${cost.selfMs.toFixed(0).padStart(7)} ms self ${cost.totalMs.toFixed(0).padStart(7)} ms total  ${cost.frame}`,
      );
    }
  };
  show("top by self time:", "selfMs");
  show("\ntop by inclusive time:", "totalMs");
}
