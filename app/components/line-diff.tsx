// A line diff (app/lib/line-diff.ts, computed with the `diff` library) as two gutters of line numbers and
// the lines, removed in red and added in green; long unchanged runs are folded.
"use client";
import { useMemo } from "react";
import { lineDiff } from "../lib/line-diff.ts";

export function LineDiffView({
  before,
  after,
  beforeLabel,
  afterLabel,
  testId = "line-diff",
}: {
  before: string;
  after: string;
  beforeLabel: string;
  afterLabel: string;
  testId?: string;
}) {
  const diff = useMemo(() => lineDiff(before, after), [before, after]);
  return (
    <div className="rounded border border-slate-200 text-xs" data-testid={testId}>
      <div
        className="flex gap-2 border-b border-slate-200 bg-slate-50 px-1 py-0.5"
        data-testid={`${testId}-summary`}
      >
        <span className="text-red-800">− {beforeLabel}</span>
        <span className="text-emerald-800">+ {afterLabel}</span>
        <span className="ml-auto text-slate-600">
          {diff.identical
            ? "identical"
            : `${diff.removed} line${diff.removed === 1 ? "" : "s"} removed, ${diff.added} added`}
        </span>
      </div>
      <table className="w-full border-collapse font-mono">
        <tbody>
          {diff.rows.map((row, index) =>
            row.kind === "folded" ? (
              <tr key={index} className="bg-slate-50 text-slate-500" data-testid={`${testId}-folded`}>
                <td colSpan={3} className="px-1">
                  ⋯ {row.count} unchanged line{row.count === 1 ? "" : "s"}
                </td>
              </tr>
            ) : (
              <tr
                key={index}
                data-testid={`${testId}-${row.kind}`}
                className={row.kind === "added" ? "bg-emerald-50" : row.kind === "removed" ? "bg-red-50" : ""}
              >
                <td className="w-8 pr-1 text-right text-slate-500 select-none">{row.oldLine ?? ""}</td>
                <td className="w-8 pr-1 text-right text-slate-500 select-none">{row.newLine ?? ""}</td>
                <td className="break-all whitespace-pre-wrap">
                  <span className="select-none">
                    {row.kind === "added" ? "+" : row.kind === "removed" ? "−" : " "}
                  </span>
                  {row.text}
                </td>
              </tr>
            ),
          )}
        </tbody>
      </table>
    </div>
  );
}
