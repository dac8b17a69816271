// Two saved lab results, query by query (issue 25): Fixed (failed before, passes now), Regressed, Still
// failing, Still passing, or added/removed when only one side has the query. The verdict is each query's
// `passed` (the 0.5 threshold) on side A; results saved before that field existed use passRate ≥ 0.5.
import type {
  LabComparison,
  QueryComparison,
  TriggerLabResult,
  TriggerQueryScore,
} from "../protocol/trigger-lab.ts";
import { PASS_THRESHOLD } from "./score.ts";

function passedOf(query: TriggerQueryScore): boolean {
  return query.passed ?? query.passRate >= PASS_THRESHOLD;
}

const key = (query: { query: string; expect: string }) => `${query.expect}\u0000${query.query}`;

export function compareLabResults(
  before: TriggerLabResult,
  after: TriggerLabResult,
  files: { before?: string; after?: string } = {},
): LabComparison {
  const earlier = new Map(before.a.queries.map((query) => [key(query), query]));
  const later = new Map(after.a.queries.map((query) => [key(query), query]));
  const queries: QueryComparison[] = [];
  for (const query of after.a.queries) {
    const old = earlier.get(key(query));
    const now = passedOf(query);
    if (!old) {
      queries.push({ query: query.query, expect: query.expect, after: now, verdict: "added" });
      continue;
    }
    if (old.runs === 0 || query.runs === 0) {
      queries.push({ query: query.query, expect: query.expect, verdict: "not_run" });
      continue;
    }
    const then = passedOf(old);
    const verdict = then ? (now ? "still_passing" : "regressed") : now ? "fixed" : "still_failing";
    queries.push({ query: query.query, expect: query.expect, before: then, after: now, verdict });
  }
  for (const query of before.a.queries) {
    if (!later.has(key(query))) {
      queries.push({ query: query.query, expect: query.expect, before: passedOf(query), verdict: "removed" });
    }
  }
  const counts: LabComparison["counts"] = {
    fixed: 0,
    regressed: 0,
    still_failing: 0,
    still_passing: 0,
    added: 0,
    removed: 0,
    not_run: 0,
  };
  for (const query of queries) counts[query.verdict] += 1;
  const side = (result: TriggerLabResult, file?: string) => ({
    labId: result.info.labId,
    startedAt: result.info.startedAt,
    ...(file ? { file } : {}),
  });
  return { before: side(before, files.before), after: side(after, files.after), queries, counts };
}

export const VERDICT_LABELS: Record<QueryComparison["verdict"], string> = {
  fixed: "Fixed",
  regressed: "Regressed",
  still_failing: "Still failing",
  still_passing: "Still passing",
  added: "Added",
  removed: "Removed",
  not_run: "Not run",
};
