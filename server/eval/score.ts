// Scoring the trigger lab (pure). For a skill S, over every probe:
// - true positive: the probe expects S and its first load_skill is S;
// - false positive: its first load_skill is S but it expects something else (another skill or none);
// - false negative: it expects S and its first load_skill is not S (another skill — a hijack —, none,
//   or no answer at all: a provider error is a miss too, and is also counted as a confound).
// precision = TP / (TP + FP), recall = TP / (TP + FN); null when the denominator is 0.
// Per query (skill-creator's rule): the trigger rate is the share of runs in which its skill triggered, and
// the query passes at a 0.5 threshold — a positive at ≥ 0.5, a negative below — with its checks holding in
// at least half the runs. `overall` counts every run as "did the query's skill trigger?", so precision,
// recall and the false-positive rate are over runs. A probe that never ran (a cap) is not scored.
import type {
  ProbeRecord,
  TriggerConfounds,
  TriggerConfusion,
  TriggerLabSummary,
  TriggerQueryKind,
  TriggerOverall,
  TriggerSkillScore,
} from "../protocol/trigger-lab.ts";
import { compareNames } from "../protocol/names.ts";

export const NONE = "none";

export interface ScoredQuery {
  query: string;
  expect: string;
  kind: TriggerQueryKind;
  probes: ProbeRecord[];
  avoid?: string;
}

export const PASS_THRESHOLD = 0.5;

function ratio(numerator: number, denominator: number): number | null {
  return denominator === 0 ? null : numerator / denominator;
}

/**
 * Whether a probe passed its query: the first load is the expected skill (for "none": no load at all, or,
 * for a negative that avoids one skill, not that skill).
 */
export function probePassed(expect: string, probe: ProbeRecord, avoid?: string): boolean {
  if (expect !== NONE) return probe.first === expect;
  return avoid === undefined ? probe.first === null : probe.first !== avoid;
}

/** Whether the query's skill triggered in this probe (its first load): expect, avoid, or any skill for "none". */
export function triggered(query: { expect: string; avoid?: string }, probe: ProbeRecord): boolean {
  if (query.expect !== NONE) return probe.first === query.expect;
  return query.avoid === undefined ? probe.first !== null : probe.first === query.avoid;
}

const ran = (probe: ProbeRecord) => probe.outcome !== "not_run";

function scoreQuery(query: ScoredQuery) {
  const probes = query.probes.filter(ran);
  const passRate =
    probes.length === 0
      ? 0
      : probes.filter((probe) => probePassed(query.expect, probe, query.avoid)).length / probes.length;
  // A query none of whose probes ran (a cap came first) has no verdict: it is not a failure.
  if (probes.length === 0) return { passRate, runs: 0 };
  const triggerRate = probes.filter((probe) => triggered(query, probe)).length / probes.length;
  const checked = probes.filter((probe) => probe.checks !== undefined);
  const checksPassRate =
    checked.length === 0
      ? undefined
      : checked.filter((probe) => probe.checks!.every((check) => check.ok)).length / checked.length;
  const positive = query.expect !== NONE;
  const triggerOk = positive ? triggerRate >= PASS_THRESHOLD : triggerRate < PASS_THRESHOLD;
  const passed = triggerOk && (checksPassRate === undefined || checksPassRate >= PASS_THRESHOLD);
  return {
    passRate,
    triggerRate,
    runs: probes.length,
    ...(checksPassRate !== undefined ? { checksPassRate } : {}),
    passed,
  };
}

function overallOf(queries: readonly ScoredQuery[], passed: number): TriggerOverall {
  let truePositives = 0;
  let falsePositives = 0;
  let trueNegatives = 0;
  let falseNegatives = 0;
  for (const query of queries) {
    for (const probe of query.probes.filter(ran)) {
      const yes = triggered(query, probe);
      if (query.expect !== NONE) {
        if (yes) truePositives += 1;
        else falseNegatives += 1;
      } else if (yes) falsePositives += 1;
      else trueNegatives += 1;
    }
  }
  const all = truePositives + falsePositives + trueNegatives + falseNegatives;
  return {
    truePositives,
    falsePositives,
    trueNegatives,
    falseNegatives,
    precision: ratio(truePositives, truePositives + falsePositives),
    recall: ratio(truePositives, truePositives + falseNegatives),
    falsePositiveRate: ratio(falsePositives, falsePositives + trueNegatives),
    accuracy: ratio(truePositives + trueNegatives, all),
    queriesPassed: passed,
    queries: queries.length,
  };
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
    let trueNegatives = 0;
    let expecting = 0;
    let loadedAnywhere = 0;
    for (const query of queries) {
      for (const probe of query.probes.filter(ran)) {
        const expected = query.expect === name;
        if (expected) {
          expecting += 1;
          if (probe.loaded.includes(name)) loadedAnywhere += 1;
        }
        if (probe.first === name) {
          if (expected) truePositives += 1;
          else falsePositives += 1;
        } else if (expected) {
          falseNegatives += 1;
        } else {
          trueNegatives += 1;
        }
      }
    }
    return {
      name,
      precision: ratio(truePositives, truePositives + falsePositives),
      recall: ratio(truePositives, truePositives + falseNegatives),
      triggerRate: ratio(loadedAnywhere, expecting),
      probes: expecting,
      truePositives,
      falsePositives,
      falseNegatives,
      trueNegatives,
      falsePositiveRate: ratio(falsePositives, falsePositives + trueNegatives),
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
    for (const probe of query.probes.filter(ran)) {
      const got = probe.first ?? NONE;
      row[got] = (row[got] ?? 0) + 1;
      if (probe.outcome === "other_tool_first") confounds.other_tool_first += 1;
      if (probe.outcome === "provider_error") confounds.provider_error += 1;
      const loadCalls = (probe.calls ?? []).filter((call) => call === "load_skill").length;
      if (loadCalls > 1) confounds.several_loads += 1;
      if (probe.first !== null && !names.has(probe.first)) confounds.unknown_skill += 1;
    }
  }

  const scoredQueries = queries.map((query) => ({
    query: query.query,
    expect: query.expect,
    kind: query.kind,
    ...(query.avoid ? { avoid: query.avoid } : {}),
    ...scoreQuery(query),
    probes: query.probes,
  }));
  return {
    skills,
    queries: scoredQueries,
    confusion,
    confounds,
    overall: overallOf(
      queries.filter((_query, index) => scoredQueries[index].runs > 0),
      scoredQueries.filter((query) => "passed" in query && query.passed).length,
    ),
  };
}
