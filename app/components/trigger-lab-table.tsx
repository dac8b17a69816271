// The trigger lab's live table: one row per query, one cell per probe (filled as the server reports
// them), the pass rate, and — once the lab is done — the per-skill scores and the confounds. With an
// ablation the B side sits next to the A side.
"use client";
import type { LabComparison, LabSide, ProbeRecord, TriggerLabSummary } from "../../server/protocol/index.ts";
import type { TriggerLabView } from "../state/trigger-lab-state.ts";
import { Badge } from "./ui.tsx";

const percent = (value: number | null | undefined) =>
  value === null || value === undefined ? "—" : `${Math.round(value * 100)}%`;

function passed(expect: string, probe: ProbeRecord, avoid?: string): boolean {
  if (expect !== "none") return probe.first === expect;
  return avoid === undefined ? probe.first === null : probe.first !== avoid;
}

function cellText(probe: ProbeRecord): string {
  if (probe.outcome === "not_run") return "not run";
  if (probe.outcome === "provider_error") return "error";
  if (probe.first)
    return probe.outcome === "other_tool_first"
      ? `${probe.calls?.[0] ?? "tool"} → ${probe.first}`
      : probe.first;
  return probe.outcome === "other_tool_first" ? `${probe.calls?.[0] ?? "tool"} first` : "no tool";
}

function ProbeCell({
  probe,
  expect,
  avoid,
  testId,
}: {
  probe: ProbeRecord | undefined;
  expect: string;
  avoid?: string;
  testId: string;
}) {
  if (!probe) {
    return (
      <td className="px-1 py-0.5 text-slate-500" data-testid={testId} data-state="pending">
        …
      </td>
    );
  }
  if (probe.outcome === "not_run") {
    return (
      <td
        className="px-1 py-0.5 text-slate-400"
        data-testid={testId}
        data-state="not_run"
        title={probe.error}
      >
        — not run
      </td>
    );
  }
  const checksOk = (probe.checks ?? []).every((check) => check.ok);
  const ok = passed(expect, probe, avoid) && checksOk;
  const checks = (probe.checks ?? []).map((check) => `${check.ok ? "✓" : "✗"} ${check.detail}`);
  return (
    <td
      className={`px-1 py-0.5 font-mono ${ok ? "text-emerald-800" : "text-red-800"}`}
      data-testid={testId}
      data-state={ok ? "pass" : "miss"}
      data-outcome={probe.outcome}
      title={[probe.error ?? `calls: ${(probe.calls ?? []).join(", ") || "none"}`, ...checks].join("\n")}
    >
      {ok ? "✓" : "✗"} {cellText(probe)}
      {!checksOk && " (check)"}
    </td>
  );
}

function livePass(expect: string, row: (ProbeRecord | undefined)[]): number | undefined {
  const answered = row.filter(
    (probe): probe is ProbeRecord => probe !== undefined && probe.outcome !== "not_run",
  );
  return answered.length === 0
    ? undefined
    : answered.filter((probe) => passed(expect, probe)).length / answered.length;
}

function SkillScores({ side, summary }: { side: LabSide; summary: TriggerLabSummary }) {
  const rows = summary.skills.filter(
    (skill) => skill.probes > 0 || skill.falsePositives > 0 || skill.truePositives > 0,
  );
  return (
    <table className="w-full text-xs" data-testid={`lab-skills-${side}`}>
      <thead>
        <tr className="text-left text-slate-500">
          <th className="px-1">skill</th>
          <th className="px-1">precision</th>
          <th className="px-1">recall</th>
          <th className="px-1">trigger rate</th>
          <th className="px-1">FP rate</th>
          <th className="px-1">probes</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((skill) => (
          <tr key={skill.name} data-testid={`lab-skill-${side}-${skill.name}`}>
            <td className="px-1 font-mono">{skill.name}</td>
            <td className="px-1" data-testid={`lab-precision-${side}-${skill.name}`}>
              {percent(skill.precision)}
            </td>
            <td className="px-1" data-testid={`lab-recall-${side}-${skill.name}`}>
              {percent(skill.recall)}
            </td>
            <td className="px-1">{percent(skill.triggerRate)}</td>
            <td className="px-1">{percent(skill.falsePositiveRate)}</td>
            <td className="px-1">{skill.probes}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const SIDE_TITLES: Record<LabSide, (lab: TriggerLabView) => string> = {
  a: () => "A: as is",
  b: (lab) => `B: ${lab.info.ablation?.skill} replaced`,
  none: () => "without skills",
};

const VERDICTS: Record<LabComparison["queries"][number]["verdict"], string> = {
  fixed: "Fixed",
  regressed: "Regressed",
  still_failing: "Still failing",
  still_passing: "Still passing",
  added: "Added",
  removed: "Removed",
  not_run: "Not run",
};

function Overall({ side, summary }: { side: LabSide; summary: TriggerLabSummary }) {
  const overall = summary.overall;
  if (!overall) return null;
  return (
    <p className="text-xs" data-testid={`lab-overall-${side}`}>
      over runs: precision {percent(overall.precision)}, recall {percent(overall.recall)}, false-positive rate{" "}
      {percent(overall.falsePositiveRate)} · <strong>{overall.queriesPassed}</strong>/{overall.queries}{" "}
      queries pass at 0.5
    </p>
  );
}

function Comparison({ comparison }: { comparison: LabComparison }) {
  const changed = comparison.queries.filter((query) => query.verdict !== "still_passing");
  return (
    <div className="text-xs" data-testid="lab-comparison">
      <p>
        <strong>Against the previous result</strong> ({comparison.before.startedAt}):{" "}
        {Object.entries(comparison.counts)
          .filter(([, count]) => count > 0)
          .map(([verdict, count]) => `${VERDICTS[verdict as keyof typeof VERDICTS]} ${count}`)
          .join(" · ")}
      </p>
      <ul>
        {changed.map((query) => (
          <li
            key={`${query.expect}-${query.query}`}
            data-testid="lab-comparison-row"
            data-verdict={query.verdict}
          >
            <span className={query.verdict === "fixed" ? "text-emerald-800" : "text-red-800"}>
              {VERDICTS[query.verdict]}
            </span>{" "}
            <span className="font-mono">{query.expect}</span> {query.query}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function TriggerLabTable({ lab }: { lab: TriggerLabView }) {
  const runs = lab.info.runs;
  const sides: LabSide[] = [
    "a",
    ...(lab.info.ablation ? (["b"] as const) : []),
    ...(lab.info.withoutSkills ? (["none"] as const) : []),
  ];
  const summaries = { a: lab.result?.a, b: lab.result?.b, none: lab.result?.none };
  return (
    <div className="space-y-3" data-testid="lab-table" data-status={lab.status}>
      <div className="flex items-center gap-2 text-xs">
        <Badge
          tone={lab.status === "done" ? "green" : lab.status === "failed" ? "red" : "blue"}
          testId="lab-status"
        >
          {lab.status === "running"
            ? `running ${lab.done}/${lab.total}`
            : lab.status === "done"
              ? `done: ${lab.total} probes`
              : "failed"}
        </Badge>
        <span className="text-slate-600">
          {lab.info.provider} / {lab.info.model} · {runs} run(s) per query · concurrency{" "}
          {lab.info.concurrency}
        </span>
      </div>
      <progress
        className="h-1 w-full"
        max={Math.max(1, lab.total)}
        value={lab.done}
        data-testid="lab-progress"
      />
      {lab.estimate && (
        <p className="text-xs text-slate-700" data-testid="lab-estimate" title={lab.estimate.basis}>
          <strong>Before spending:</strong> {lab.estimate.calls} model call(s),{" "}
          {lab.estimate.usd === null
            ? "cost unknown (no price for this model)"
            : lab.estimate.usd === 0
              ? "$0 (offline)"
              : `about $${lab.estimate.usd.toFixed(4)}`}
          {lab.caps?.maxCalls !== undefined ? ` · cap ${lab.caps.maxCalls} calls` : ""}
          {lab.caps?.maxUsd !== undefined ? ` · cap $${lab.caps.maxUsd}` : ""}
          {lab.result?.spend
            ? ` · spent ${lab.result.spend.calls} call(s), $${lab.result.spend.usd.toFixed(4)}`
            : ""}
        </p>
      )}
      {lab.result?.stopped && (
        <p className="rounded bg-amber-50 p-2 text-xs text-amber-900" data-testid="lab-stopped">
          Stopped: {lab.result.stopped}
        </p>
      )}
      {(lab.result?.notes ?? []).map((note) => (
        <p key={note} className="rounded bg-amber-50 p-2 text-xs text-amber-900" data-testid="lab-note">
          Note: {note}
        </p>
      ))}
      {lab.error && (
        <p className="rounded bg-red-50 p-2 text-xs text-red-900" data-testid="lab-error">
          {lab.error}
        </p>
      )}
      <div className="overflow-x-auto">
        <table className="w-full text-xs">
          <thead>
            <tr className="text-left text-slate-500">
              <th className="px-1">query</th>
              <th className="px-1">expect</th>
              <th className="px-1">kind</th>
              {sides.map((side) => (
                <th key={side} className="px-1" colSpan={runs + 1}>
                  {SIDE_TITLES[side](lab)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {lab.queries.map((query, queryIndex) => (
              <tr
                key={queryIndex}
                className="border-t border-slate-100"
                data-testid={`lab-row-${queryIndex}`}
              >
                <td className="max-w-64 truncate px-1" title={query.query}>
                  {query.query}
                </td>
                <td className="px-1 font-mono">{query.expect}</td>
                <td className="px-1">{query.kind}</td>
                {sides.flatMap((side) => {
                  const row = lab.probes[side][queryIndex] ?? [];
                  const scored = summaries[side]?.queries[queryIndex];
                  // A query a cap left without runs has no pass rate (and no verdict).
                  const finalPass = scored?.runs === 0 ? null : scored?.passRate;
                  return [
                    ...Array.from({ length: runs }, (_, run) => (
                      <ProbeCell
                        key={`${side}-${run}`}
                        probe={row[run]}
                        expect={query.expect}
                        avoid={summaries[side]?.queries[queryIndex]?.avoid}
                        testId={`lab-cell-${side}-${queryIndex}-${run + 1}`}
                      />
                    )),
                    <td
                      key={`${side}-pass`}
                      className="px-1 font-semibold"
                      data-testid={`lab-pass-${side}-${queryIndex}`}
                    >
                      {percent(finalPass === undefined ? livePass(query.expect, row) : finalPass)}
                    </td>,
                  ];
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {lab.result && (
        <div
          className={`grid gap-3 ${sides.length === 3 ? "grid-cols-3" : sides.length === 2 ? "grid-cols-2" : "grid-cols-1"}`}
        >
          {sides.map((side) => {
            const summary = summaries[side];
            if (!summary) return null;
            return (
              <div key={side} className="space-y-1">
                <h4 className="text-xs font-semibold">
                  {side === "a"
                    ? "A: descriptions as they are"
                    : side === "b"
                      ? `B: ${lab.info.ablation?.skill}'s description replaced`
                      : "Without skills (an empty index)"}
                </h4>
                <Overall side={side} summary={summary} />
                <SkillScores side={side} summary={summary} />
                <p className="text-xs text-slate-600" data-testid={`lab-confounds-${side}`}>
                  confounds:{" "}
                  {Object.entries(summary.confounds)
                    .map(([name, count]) => `${name} ${count}`)
                    .join(", ")}
                </p>
              </div>
            );
          })}
        </div>
      )}
      {lab.result?.comparison && <Comparison comparison={lab.result.comparison} />}
      {lab.result?.files && (
        <p className="text-xs text-slate-500" data-testid="lab-files">
          saved: {lab.result.files.jsonl} · {lab.result.files.summary}
        </p>
      )}
      {lab.result?.saveError && <p className="text-xs text-red-800">{lab.result.saveError}</p>}
    </div>
  );
}
