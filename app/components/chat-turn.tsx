// One turn of the conversation: the user's message (a slash invocation as a compact chip with its SOP
// one click away), the assistant's text and tool calls, a stop, a retry or an error.
"use client";
import { memo } from "react";
import type { StopReason } from "../../server/protocol/index.ts";
import { SafeMarkdown } from "../lib/markdown.tsx";
import { plural } from "../../server/shared/figures.ts";
import { lineCount, slashTurn } from "../lib/slash-turn.ts";
import type { ChatTurn, ToolCallView } from "../state/types.ts";
import { Loading, ToolCallCard } from "./lazy.tsx";
import { ErrorCard } from "./ui.tsx";

const stopText: Record<string, string> = {
  completed: "Run completed",
  max_iterations: "Stopped: reached the iteration limit",
  unknown_tool_limit: "Stopped: the model called unknown tools twice in a row",
  canceled: "Stopped by the user; its tools were killed",
  provider_error: "Stopped: the provider failed",
  interrupted: "Interrupted: the server stopped during this run",
};

/**
 * The line a stop shows: what happened, after how many requests, and the server's message when it adds
 * something (a cancel's "stopped by the user" only repeats the first words, so it is left out).
 */
export function stopLine(reason: StopReason | string, iterations: number, message?: string): string {
  const what = stopText[reason] ?? reason;
  const summary = `${what} after ${plural(iterations, "request")}`;
  const repeats = !message || what.toLowerCase().includes(message.trim().toLowerCase());
  return repeats ? summary : `${summary}: ${message}`;
}

function UserTurn({ turn, skillNames }: { turn: Extract<ChatTurn, { kind: "user" }>; skillNames: string[] }) {
  const slash = slashTurn(turn.text, turn.skill, skillNames);
  if (!slash)
    return (
      <div
        className="ml-auto w-fit max-w-[85%] rounded bg-blue-700 px-2 py-1 text-sm text-white"
        data-testid="turn-user"
      >
        <span className="whitespace-pre-wrap">{turn.text}</span>
      </div>
    );
  // What the user typed, as typed; the SOP the playground sent with it stays folded.
  return (
    <div className="ml-auto w-fit max-w-[85%] text-sm" data-testid="turn-user" data-slash={slash.skill}>
      <div
        className="ml-auto w-fit rounded bg-blue-700 px-2 py-1 text-white"
        data-testid="turn-slash-command"
      >
        <span className="font-mono font-semibold">/{slash.skill}</span>
        {slash.args && <span className="whitespace-pre-wrap"> {slash.args}</span>}
      </div>
      {slash.sop && (
        <details className="mt-0.5 rounded border border-blue-200 bg-blue-50 px-2 py-0.5 text-xs text-slate-800">
          <summary className="cursor-pointer text-blue-900" data-testid="turn-slash-sop-toggle">
            the {slash.skill} SOP sent with it ({plural(lineCount(slash.sop), "line")})
          </summary>
          <pre
            className="mt-1 max-h-96 overflow-auto font-mono text-[0.7rem] whitespace-pre-wrap"
            data-testid="turn-slash-sop"
          >
            {slash.sop}
          </pre>
        </details>
      )}
    </div>
  );
}

// Memoized: while text streams, only the turn that grows re-renders, not the whole conversation.
export const Turn = memo(function Turn({
  turn,
  calls,
  highlighted,
  awaitingManual,
  skillNames,
  onSelectRequest,
}: {
  turn: ChatTurn;
  /** This turn's calls, in its order (a selector keeps the array while none of them changed). */
  calls: ToolCallView[];
  highlighted: boolean;
  /** The manual provider is waiting for the person to write this turn. */
  awaitingManual: boolean;
  /** The catalog's skill names, to recognise a slash command in a message from a saved history. */
  skillNames: string[];
  onSelectRequest: (requestIndex: number) => void;
}) {
  switch (turn.kind) {
    case "user":
      return <UserTurn turn={turn} skillNames={skillNames} />;
    case "assistant":
      return (
        <div
          className={`max-w-[95%] space-y-1 rounded border px-2 py-1 ${highlighted ? "border-blue-500 ring-2 ring-blue-200" : "border-slate-200"} bg-white`}
          data-testid="turn-assistant"
          id={turn.requestIndex !== undefined ? `turn-request-${turn.requestIndex}` : undefined}
          data-request-index={turn.requestIndex}
          data-highlighted={highlighted}
        >
          {turn.byHand && (
            <p className="text-[0.7rem] text-slate-500">
              run by hand from the tool console (no model request)
            </p>
          )}
          {turn.requestIndex !== undefined && (
            <button
              type="button"
              className="text-[0.7rem] text-blue-800 underline"
              data-testid={`turn-link-request-${turn.requestIndex}`}
              onClick={() => onSelectRequest(turn.requestIndex!)}
            >
              model request #{turn.requestIndex} → inspector
            </button>
          )}
          {turn.text && (
            // Streamed as plain text; once finished, shown as sanitized Markdown (DOMPurify), never as raw
            // HTML. One element for both, so the paragraph streamed into stays until the Markdown replaces it.
            <SafeMarkdown markdown={turn.text} streaming={turn.streaming} testId="assistant-text" />
          )}
          {!turn.text && turn.toolCallIds.length === 0 && (
            <p className="text-sm text-slate-500">
              {awaitingManual
                ? "waiting for you to answer as the model (below)…"
                : turn.streaming
                  ? "thinking…"
                  : "(no response)"}
            </p>
          )}
          {calls.length > 0 && (
            <Loading inline>
              {calls.map((call) => (
                <ToolCallCard key={call.id} call={call} />
              ))}
            </Loading>
          )}
        </div>
      );
    case "tool_message":
      return (
        <div
          className="rounded border border-slate-200 bg-slate-50 px-2 py-1 text-xs"
          data-testid="turn-tool"
        >
          <span className="font-mono">{turn.toolName}</span>:{" "}
          <span className="whitespace-pre-wrap">{turn.content}</span>
        </div>
      );
    case "stop": {
      const line = stopLine(turn.reason, turn.iterations, turn.message);
      if (turn.reason === "completed" || turn.reason === "canceled") {
        return (
          <div
            className={`text-center text-xs ${turn.reason === "completed" ? "text-slate-500" : "font-semibold text-amber-900"}`}
            data-testid="turn-stop"
            data-reason={turn.reason}
          >
            — {line} —
          </div>
        );
      }
      // Failures get a card: what happened and, in the server's message, what to do about it.
      return (
        <div
          role="alert"
          className="rounded border border-red-300 bg-red-50 p-2 text-sm text-red-900"
          data-testid="turn-stop"
          data-reason={turn.reason}
        >
          <strong>{stopLine(turn.reason, turn.iterations)}</strong>
          {turn.message && <p className="mt-1 whitespace-pre-wrap break-words">{turn.message}</p>}
          <p className="mt-1 text-xs text-red-800">
            The conversation so far is kept; you can send the next message.
          </p>
        </div>
      );
    }
    case "retry":
      return (
        <div className="text-center text-xs text-amber-900" data-testid="turn-retry">
          Provider busy ({turn.reason}); retry {turn.attempt} of request #{turn.requestIndex} in{" "}
          {Math.round(turn.delayMs / 100) / 10} s
        </div>
      );
    case "error":
      return <ErrorCard title={`Session error (${turn.code})`} message={turn.message} testId="turn-error" />;
  }
});
