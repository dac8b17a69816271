// Scoring the trigger lab (pure). For a skill S, over every probe:
// - true positive: the probe expects S and its first load_skill is S;
// - false positive: its first load_skill is S but it expects something else (another skill or none);
// - false negative: it expects S and its first load_skill is not S (another skill — a hijack —, none,
//   or no answer at all: a provider error is a miss too, and is also counted as a confound).
// precision = TP / (TP + FP), recall = TP / (TP + FN); null when the denominator is 0.
import type {
  ProbeRecord,
  TriggerConfounds,
  TriggerConfusion,
  TriggerLabSummary,
  TriggerQueryKind,
  TriggerSkillScore,
} from "../protocol/trigger-lab.ts";
import { compareNames } from "../protocol/names.ts";

export const NONE = "none";

export interface ScoredQuery {
  query: string;
  expect: string;
  kind: TriggerQueryKind;
  probes: ProbeRecord[];
}

function ratio(numerator: number, denominator: number): number | null {
  return denominator === 0 ? null : numerator / denominator;
}

/** Whether a probe passed its query: the first load is the expected skill (for "none": no load at all). */
export function probePassed(expect: string, probe: ProbeRecord): boolean {
  return expect === NONE ? probe.first === null : probe.first === expect;
}

export function scoreTriggerLab(
  queries: readonly ScoredQuery[],
  catalogNames: readonly string[],
): TriggerLabSummary {
  const names = new Set(catalogNames);
  for (const query of queries) if (query.expect !== NONE) names.add(query.expect);
  const skills: TriggerSkillScore[] = [...names].sort(compareNames).map((name) => {
    let truePositives = 0;
    let falsePositives = 0;
    let falseNegatives = 0;
    let expecting = 0;
    let triggered = 0;
    for (const query of queries) {
      for (const probe of query.probes) {
        const expected = query.expect === name;
        if (expected) {
          expecting += 1;
          if (probe.loaded.includes(name)) triggered += 1;
        }
        if (probe.first === name) {
          if (expected) truePositives += 1;
          else falsePositives += 1;
        } else if (expected) {
          falseNegatives += 1;
        }
      }
    }
    return {
      name,
      precision: ratio(truePositives, truePositives + falsePositives),
      recall: ratio(truePositives, truePositives + falseNegatives),
      triggerRate: ratio(triggered, expecting),
      probes: expecting,
      truePositives,
      falsePositives,
      falseNegatives,
    };
  });

  const confusion: TriggerConfusion = {};
  const confounds: TriggerConfounds = {
    other_tool_first: 0,
    provider_error: 0,
    unknown_skill: 0,
    several_loads: 0,
  };
  for (const query of queries) {
    const row = (confusion[query.expect] ??= {});
    for (const probe of query.probes) {
      const got = probe.first ?? NONE;
      row[got] = (row[got] ?? 0) + 1;
      if (probe.outcome === "other_tool_first") confounds.other_tool_first += 1;
      if (probe.outcome === "provider_error") confounds.provider_error += 1;
      const loadCalls = (probe.calls ?? []).filter((call) => call === "load_skill").length;
      if (loadCalls > 1) confounds.several_loads += 1;
      if (probe.first !== null && !names.has(probe.first)) confounds.unknown_skill += 1;
    }
  }

  return {
    skills,
    queries: queries.map((query) => ({
      query: query.query,
      expect: query.expect,
      kind: query.kind,
      passRate:
        query.probes.length === 0
          ? 0
          : query.probes.filter((probe) => probePassed(query.expect, probe)).length / query.probes.length,
      probes: query.probes,
    })),
    confusion,
    confounds,
  };
}
