// "Why this skill": the description router's decision for the selected request — every listed skill's
// score, the words of the message that its description shares (with what each added), the threshold, and
// what was loaded. The router is not a language model, and the view says so.
"use client";
import type { RoutingDecision } from "../../server/protocol/index.ts";
import { Badge } from "./ui.tsx";

export function RoutingView({ decision }: { decision: RoutingDecision }) {
  const top = Math.max(decision.threshold, ...decision.scores.map((score) => score.score));
  return (
    <details
      open
      className="rounded border border-violet-200 bg-violet-50/40 p-1 text-xs"
      data-testid="routing-view"
    >
      <summary className="cursor-pointer">
        <strong>Why this skill</strong>{" "}
        <Badge tone="violet" testId="routing-label" title={decision.method}>
          {decision.label}
        </Badge>{" "}
        <span data-testid="routing-chosen" data-chosen={decision.chosen ?? "none"}>
          {decision.chosen ? `loaded ${decision.chosen}` : "no skill loaded"}
        </span>
      </summary>
      <p className="text-slate-600" data-testid="routing-reason">
        {decision.reason}. Threshold {decision.threshold}; {decision.method}.
      </p>
      <table className="w-full">
        <tbody>
          {decision.scores.map((score) => (
            <tr key={score.skill} data-testid={`routing-score-${score.skill}`} data-score={score.score}>
              <td className="pr-1 font-mono whitespace-nowrap">{score.skill}</td>
              <td className="w-24">
                <div
                  className="relative h-2 rounded bg-slate-100"
                  title={`${score.score} of threshold ${decision.threshold}`}
                >
                  <div
                    className={`h-2 rounded ${score.skill === decision.chosen ? "bg-violet-600" : "bg-slate-400"}`}
                    style={{ width: `${Math.min(100, (score.score / top) * 100)}%` }}
                  />
                  <div
                    className="absolute top-[-2px] h-3 w-px bg-red-600"
                    style={{ left: `${(decision.threshold / top) * 100}%` }}
                  />
                </div>
              </td>
              <td className="px-1 text-right font-mono">{score.score.toFixed(2)}</td>
              <td className="text-slate-600">
                {score.named && (
                  <span className="mr-1 font-semibold">named in full (+{decision.threshold})</span>
                )}
                {score.terms.map((term) => `${term.term} +${term.weight.toFixed(2)}`).join(", ") ||
                  (score.named ? "" : "no shared word")}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
