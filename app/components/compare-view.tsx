// Two runs side by side (a branch and its origin, two providers, progressive vs eager): per request the
// server's tokens (with the tokenizer named), the cost when the cache/cost model reported one, the
// provider's usage; per run the skills loaded, the tools called, the stop reason and the final answer;
// and a line diff of any pane between a request of each side.
"use client";
import { useState } from "react";
import type { RequestDigest, RunDigest, SessionSummary } from "../../server/protocol/index.ts";
import { formatUsd } from "../../server/shared/figures.ts";
import { usageText } from "../lib/usage-text.ts";
import { SafeMarkdown } from "../lib/markdown.tsx";
import { Dialog } from "./dialog.tsx";
import { LineDiffView } from "./line-diff.tsx";
import { Button, formatJson } from "./ui.tsx";

export type ComparePane = "stable" | "environment" | "messages" | "tools";
const paneNames: Record<ComparePane, string> = {
  stable: "Stable system",
  environment: "Environment",
  messages: "Messages",
  tools: "Tools",
};

export interface CompareSide {
  sessionId: string;
  /** Undefined while get_runs is on its way. */
  runs?: RunDigest[];
  /** The run and request to start with (a branch's origin request). */
  preferredRequest?: number;
}

function digestText(request: RequestDigest | undefined, pane: ComparePane): string {
  if (!request) return "";
  if (pane === "stable") return request.system.stable;
  if (pane === "environment") return request.system.environment;
  return formatJson(pane === "messages" ? request.messages : request.tools);
}

function initialRun(side: CompareSide): number {
  const runs = side.runs ?? [];
  const found = runs.findIndex((run) =>
    run.requests.some((request) => request.requestIndex === side.preferredRequest),
  );
  return found >= 0 ? found : 0;
}

function RequestFigures({ request }: { request: RequestDigest | undefined }) {
  if (!request) return <span className="text-slate-500">—</span>;
  return (
    <span>
      #{request.requestIndex} · {request.provider}/{request.model} ·{" "}
      {request.tokens ? (
        <span title={`counted by the server: ${request.tokenizer ?? "its tokenizer"}`}>
          {request.tokens.total} tokens (stable {request.tokens.stable}, env {request.tokens.environment},
          messages {request.tokens.messages}, tools {request.tokens.tools})
        </span>
      ) : (
        "no token figures (older log)"
      )}
      {request.costUsd !== undefined && (
        <span data-testid="compare-cost"> · {formatUsd(request.costUsd)}</span>
      )}
      {request.usage && <span className="text-slate-600"> · {usageText(request.usage)}</span>}
    </span>
  );
}

function SidePicker({
  label,
  side,
  sessions,
  run,
  onSession,
  onRun,
  testId,
}: {
  label: string;
  side: CompareSide;
  sessions: SessionSummary[];
  run: number;
  onSession: (id: string) => void;
  onRun: (run: number) => void;
  testId: string;
}) {
  return (
    <div className="space-y-1 text-xs" data-testid={testId}>
      <div className="font-semibold">{label}</div>
      <select
        className="w-full rounded border border-slate-300 py-0.5"
        aria-label={`${label}: session`}
        data-testid={`${testId}-session`}
        value={side.sessionId}
        onChange={(event) => onSession(event.target.value)}
      >
        {sessions.map((summary) => (
          <option key={summary.id} value={summary.id}>
            {summary.title} ({summary.settings.provider})
          </option>
        ))}
      </select>
      {side.runs === undefined ? (
        <div className="text-slate-500">loading runs…</div>
      ) : side.runs.length === 0 ? (
        <div className="text-slate-500">this session has no runs yet</div>
      ) : (
        <select
          className="w-full rounded border border-slate-300 py-0.5"
          aria-label={`${label}: run`}
          data-testid={`${testId}-run`}
          value={run}
          onChange={(event) => onRun(Number(event.target.value))}
        >
          {side.runs.map((item, index) => (
            <option key={item.runId} value={index}>
              run {index + 1}:{" "}
              {item.userMessage ? item.userMessage.slice(0, 60) : "(continues the copied conversation)"}
            </option>
          ))}
        </select>
      )}
    </div>
  );
}

export function CompareView({
  left,
  right,
  sessions,
  onPickSession,
  onClose,
}: {
  left: CompareSide;
  right: CompareSide;
  sessions: SessionSummary[];
  onPickSession: (side: "left" | "right", sessionId: string) => void;
  onClose: () => void;
}) {
  const [runs, setRuns] = useState<{ left?: number; right?: number }>({});
  const [requests, setRequests] = useState<{ left?: number; right?: number }>({});
  const [pane, setPane] = useState<ComparePane>("stable");
  const leftRun = left.runs?.[runs.left ?? initialRun(left)];
  const rightRun = right.runs?.[runs.right ?? initialRun(right)];
  const pickRequest = (run: RunDigest | undefined, chosen: number | undefined, preferred?: number) =>
    run?.requests[
      chosen ??
        Math.max(
          0,
          run.requests.findIndex((request) => request.requestIndex === preferred),
        )
    ];
  const leftRequest = pickRequest(leftRun, requests.left, left.preferredRequest);
  const rightRequest = pickRequest(rightRun, requests.right, undefined);
  const rowCount = Math.max(leftRun?.requests.length ?? 0, rightRun?.requests.length ?? 0);
  const runFacts: { label: string; value: (run: RunDigest) => string; testId: string }[] = [
    { label: "skills loaded", value: (run) => run.skillsLoaded.join(", ") || "none", testId: "skills" },
    { label: "tools called", value: (run) => run.toolsCalled.join(", ") || "none", testId: "tools" },
    {
      label: "stop reason",
      value: (run) =>
        run.stopReason
          ? `${run.stopReason}${run.stopMessage ? `: ${run.stopMessage}` : ""}`
          : "still running",
      testId: "stop",
    },
    { label: "final answer", value: (run) => run.finalAnswer || "(none)", testId: "answer" },
  ];
  const requestSelect = (
    side: "left" | "right",
    run: RunDigest | undefined,
    current: RequestDigest | undefined,
  ) =>
    run && (
      <select
        className="rounded border border-slate-300"
        aria-label={`${side === "left" ? "Left" : "Right"}: request`}
        data-testid={`compare-${side}-request`}
        value={current ? run.requests.indexOf(current) : 0}
        onChange={(event) => setRequests({ ...requests, [side]: Number(event.target.value) })}
      >
        {run.requests.map((request, index) => (
          <option key={request.requestIndex} value={index}>
            #{request.requestIndex}
          </option>
        ))}
      </select>
    );

  return (
    <Dialog title="Compare two runs" testId="compare-view" onClose={onClose} width="w-[72rem]" align="top">
      <div className="space-y-2">
        <div className="flex justify-end">
          <Button testId="compare-close" onClick={onClose}>
            Close
          </Button>
        </div>
        <div className="grid grid-cols-2 gap-2">
          <SidePicker
            label="Left"
            testId="compare-left"
            side={left}
            sessions={sessions}
            run={runs.left ?? initialRun(left)}
            onSession={(id) => {
              setRuns({ ...runs, left: undefined });
              setRequests({ ...requests, left: undefined });
              onPickSession("left", id);
            }}
            onRun={(run) => {
              setRuns({ ...runs, left: run });
              setRequests({ ...requests, left: undefined });
            }}
          />
          <SidePicker
            label="Right"
            testId="compare-right"
            side={right}
            sessions={sessions}
            run={runs.right ?? initialRun(right)}
            onSession={(id) => {
              setRuns({ ...runs, right: undefined });
              setRequests({ ...requests, right: undefined });
              onPickSession("right", id);
            }}
            onRun={(run) => {
              setRuns({ ...runs, right: run });
              setRequests({ ...requests, right: undefined });
            }}
          />
        </div>
        <table className="w-full border-collapse text-xs" data-testid="compare-table">
          <tbody>
            {Array.from({ length: rowCount }, (_unused, index) => (
              <tr
                key={index}
                className="border-t border-slate-200 align-top"
                data-testid="compare-request-row"
              >
                <td className="w-24 pr-1 text-slate-500">request {index + 1}</td>
                <td className="pr-2">
                  <RequestFigures request={leftRun?.requests[index]} />
                </td>
                <td>
                  <RequestFigures request={rightRun?.requests[index]} />
                </td>
              </tr>
            ))}
            {runFacts.map((fact) => {
              // The final answer is the model's Markdown: shown rendered (sanitized), like the chat shows it.
              const cell = (run: RunDigest | undefined, testId: string) =>
                !run ? (
                  "—"
                ) : fact.testId === "answer" && run.finalAnswer ? (
                  <SafeMarkdown
                    markdown={run.finalAnswer}
                    className="text-xs"
                    testId={`${testId}-markdown`}
                  />
                ) : (
                  <span className="whitespace-pre-wrap">{fact.value(run)}</span>
                );
              return (
                <tr key={fact.label} className="border-t border-slate-200 align-top">
                  <td className="w-24 pr-1 text-slate-500">{fact.label}</td>
                  <td className="pr-2" data-testid={`compare-left-${fact.testId}`}>
                    {cell(leftRun, `compare-left-${fact.testId}`)}
                  </td>
                  <td data-testid={`compare-right-${fact.testId}`}>
                    {cell(rightRun, `compare-right-${fact.testId}`)}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        <p className="text-[0.7rem] text-slate-500">
          Tokens are the server&apos;s counts of what was sent (tokenizer named on hover); usage is what the
          provider reported; a cost appears only when the cache/cost model computed one for the request.
        </p>
        <div className="flex flex-wrap items-center gap-1 text-xs">
          <span>Line diff of</span>
          {(Object.keys(paneNames) as ComparePane[]).map((name) => (
            <Button
              key={name}
              small
              kind={pane === name ? "primary" : "plain"}
              pressed={pane === name}
              testId={`compare-pane-${name}`}
              onClick={() => setPane(name)}
            >
              {paneNames[name]}
            </Button>
          ))}
          <span className="ml-2">left {requestSelect("left", leftRun, leftRequest)}</span>
          <span>right {requestSelect("right", rightRun, rightRequest)}</span>
        </div>
        {leftRequest && rightRequest ? (
          <LineDiffView
            testId="compare-diff"
            before={digestText(leftRequest, pane)}
            after={digestText(rightRequest, pane)}
            beforeLabel={`left #${leftRequest.requestIndex} ${paneNames[pane]}`}
            afterLabel={`right #${rightRequest.requestIndex} ${paneNames[pane]}`}
          />
        ) : (
          <p className="text-xs text-slate-500">Pick a run with requests on both sides to see a line diff.</p>
        )}
      </div>
    </Dialog>
  );
}
