// One tool call as a card: state, arguments (hidden characters escaped), result (collapsed when long),
// time, permission trace and, for exec calls, the sandbox the process ran in and the files it wrote.
"use client";
import { memo, useEffect, useState } from "react";
import type { ToolCallState, ToolCallView } from "../state/types.ts";
import { hiddenCharactersIn, hiddenWarning } from "../../server/shared/hidden-characters.ts";
import { sandboxCallLine } from "../lib/sandbox-text.ts";
import { CommandWrites } from "./command-writes.tsx";
import { EscapedPre } from "./escaped-text.tsx";
import { truncationNotes } from "../lib/truncation-notes.ts";
import { Loading, McpResultView } from "./lazy.tsx";
import { Badge, Pre, formatJson, type Tone } from "./ui.tsx";

const stateTones: Record<ToolCallState, Tone> = {
  pending: "slate",
  awaiting_approval: "amber",
  running: "blue",
  done: "green",
  error: "red",
  denied: "red",
};
const stateLabels: Record<ToolCallState, string> = {
  pending: "pending",
  awaiting_approval: "awaiting approval",
  running: "running",
  done: "done",
  error: "error",
  denied: "denied",
};

const longResult = 600;

/** Short arguments on one line; long ones pretty-printed. */
function compactJson(value: unknown): string {
  const line = JSON.stringify(value) ?? "";
  return line.length <= 100 ? line : formatJson(value);
}

/** Every string inside a tool input (JSON already escapes control characters, but the raw ones count). */
function stringsIn(value: unknown, depth = 0): string[] {
  if (typeof value === "string") return [value];
  if (depth > 8 || value === null || typeof value !== "object") return [];
  return Object.values(value).flatMap((item) => stringsIn(item, depth + 1));
}

/** Seconds since the card entered the running state, ticking once a second (so Stop has something to stop). */
function useRunningSeconds(running: boolean): number {
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    if (!running) return;
    const started = Date.now();
    setSeconds(0);
    const timer = setInterval(() => setSeconds(Math.floor((Date.now() - started) / 1000)), 1000);
    return () => clearInterval(timer);
  }, [running]);
  return seconds;
}

/** A failed call's headline: its error type, and its message unless the result below already says it. */
export function errorHeadline(errorType: string, error: string | undefined, content: string): string {
  if (!error || content.trim() === error.trim() || content.includes(error)) return errorType;
  return `${errorType}: ${error}`;
}

export const ToolCallCard = memo(function ToolCallCard({ call }: { call: ToolCallView }) {
  const content = call.fullOutput ?? call.result?.content ?? "";
  const metadata = call.result?.metadata;
  const runningSeconds = useRunningSeconds(call.state === "running");
  const inputText = compactJson(call.input);
  const hidden = hiddenCharactersIn([inputText, ...stringsIn(call.input)], call.trace?.hiddenCharacters);
  const sandbox = call.trace?.sandbox ?? call.approval?.trace.sandbox;
  return (
    <div
      className="rounded border border-slate-300 bg-white p-1.5 text-xs"
      data-testid={`tool-call-${call.id}`}
      data-tool={call.name}
      data-state={call.state}
    >
      <div className="flex flex-wrap items-center gap-1">
        <span className="font-mono font-semibold">{call.name}</span>
        <Badge tone={stateTones[call.state]} testId="tool-call-state">
          {stateLabels[call.state]}
        </Badge>
        {!call.known && <Badge tone="red">unknown tool</Badge>}
        {call.known && !call.visible && (
          <Badge tone="violet" title="Registered during this run; not in this run's tool definitions">
            registered, not visible
          </Badge>
        )}
        {call.durationMs !== undefined && <span className="text-slate-500">{call.durationMs} ms</span>}
        {call.state === "running" && (
          <span className="text-blue-800" data-testid="tool-call-elapsed">
            {runningSeconds} s
          </span>
        )}
        {call.trace && (
          <span className="text-slate-500" title={call.trace.reason}>
            {call.trace.decision} by {call.trace.source}
            {call.trace.rule ? ` (${call.trace.rule})` : ""}
          </span>
        )}
        {call.trace?.preApprovedBy && call.trace.preApprovedBy.length > 0 && (
          <Badge tone="violet" testId="tool-call-pre-approved" title={call.trace.reason}>
            pre-approved by skill {call.trace.preApprovedBy.join(", ")} (allowed-tools)
          </Badge>
        )}
      </div>
      {hidden.length > 0 && (
        <Badge tone="red" testId="tool-call-hidden" title={hiddenWarning(hidden, "call")}>
          ⚠ {hidden.length} hidden character{hidden.length === 1 ? "" : "s"}, shown escaped
        </Badge>
      )}
      <EscapedPre text={inputText} testId="tool-call-input" className="mt-1 max-h-24" />
      {sandbox && (
        <p
          className={`mt-1 ${sandbox.enabled ? "text-emerald-800" : "font-semibold text-red-800"}`}
          data-testid="tool-call-sandbox"
          data-enabled={sandbox.enabled}
        >
          {sandboxCallLine(sandbox, call.name)}
        </p>
      )}
      {call.state === "denied" && (
        <p className="mt-1 text-red-800" data-testid="tool-call-denial">
          Denied{call.denialReason ? `: ${call.denialReason}` : ""}. The model is told the call was denied.
        </p>
      )}
      {call.result && (
        <div className="mt-1" data-testid="tool-call-result">
          {call.result.errorType && call.state !== "denied" && (
            <p className="text-red-800" data-testid="tool-call-error">
              {errorHeadline(call.result.errorType, call.result.error, content)}
            </p>
          )}
          {metadata?.finishedDespiteStop && (
            <p className="text-amber-800" data-testid="tool-call-finished-despite-stop">
              Stop came while this call ran, but it finished by itself: this is what it really did.
            </p>
          )}
          {metadata && (metadata.exitCode !== undefined || truncationNotes(metadata).length > 0) ? (
            <p className="text-slate-500">
              {metadata.exitCode !== undefined &&
                metadata.exitCode !== null &&
                `exit ${String(metadata.exitCode)}`}
              {metadata.signal ? ` · killed by ${String(metadata.signal)}` : ""}
              {truncationNotes(metadata).map((note) => ` · ${note}`)}
            </p>
          ) : null}
          <CommandWrites metadata={metadata} />
          {/* Only an MCP server's result carries metadata.mcp: the view loads for the first such result. */}
          {metadata?.mcp !== undefined && (
            <Loading inline>
              <McpResultView metadata={metadata} />
            </Loading>
          )}
          {content.length > longResult ? (
            <details>
              <summary className="cursor-pointer">
                {call.state === "denied" ? "what the model was told" : "result"} ({content.length} chars)
              </summary>
              <Pre text={content} />
            </details>
          ) : (
            content && (
              <>
                {call.state === "denied" && <div className="text-slate-500">what the model was told:</div>}
                <Pre text={content} className="max-h-40" />
              </>
            )
          )}
        </div>
      )}
    </div>
  );
});
