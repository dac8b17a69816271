// Middle column: the conversation (streaming text, tool call cards, stops and errors), pending
// approvals, the manual "you are the model" composer, and the message box.
"use client";
import { memo, useEffect, useRef } from "react";
import type { ApprovalAnswer, SkillView } from "../../server/protocol/index.ts";
import type { ChatTurn, ManualTurnRequest, ToolCallView } from "../state/types.ts";
import { ApprovalCard } from "./approval-card.tsx";
import { Composer } from "./composer.tsx";
import { ManualComposer } from "./manual-composer.tsx";
import { ToolCallCard } from "./tool-call-card.tsx";
import { SafeMarkdown } from "../lib/markdown.tsx";
import { Badge, ErrorCard } from "./ui.tsx";

const stopText: Record<string, string> = {
  completed: "Run completed",
  max_iterations: "Stopped: reached the iteration limit",
  unknown_tool_limit: "Stopped: the model called unknown tools twice in a row",
  canceled: "Stopped by the user; its tools were killed",
  provider_error: "Stopped: the provider failed",
  interrupted: "Interrupted: the server stopped during this run",
};

// Memoized: while text streams, only the turn that grows re-renders, not the whole conversation.
const Turn = memo(function Turn({
  turn,
  toolCalls,
  highlighted,
  awaitingManual,
  onSelectRequest,
}: {
  turn: ChatTurn;
  toolCalls: Record<string, ToolCallView>;
  highlighted: boolean;
  /** The manual provider is waiting for the person to write this turn. */
  awaitingManual: boolean;
  onSelectRequest: (requestIndex: number) => void;
}) {
  switch (turn.kind) {
    case "user":
      return (
        <div
          className="ml-auto w-fit max-w-[85%] rounded bg-blue-700 px-2 py-1 text-sm text-white"
          data-testid="turn-user"
        >
          {turn.skill && <Badge tone="blue">/{turn.skill}</Badge>}{" "}
          <span className="whitespace-pre-wrap">{turn.text}</span>
        </div>
      );
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
          {turn.text &&
            (turn.streaming ? (
              <p className="text-sm whitespace-pre-wrap" data-testid="assistant-text">
                {turn.text}
              </p>
            ) : (
              // Finished text is shown as sanitized Markdown (DOMPurify), never as raw HTML.
              <SafeMarkdown markdown={turn.text} testId="assistant-text" />
            ))}
          {!turn.text && turn.toolCallIds.length === 0 && (
            <p className="text-sm text-slate-400">
              {awaitingManual
                ? "waiting for you to answer as the model (below)…"
                : turn.streaming
                  ? "thinking…"
                  : "(no response)"}
            </p>
          )}
          {turn.toolCallIds.map((id) =>
            toolCalls[id] ? <ToolCallCard key={id} call={toolCalls[id]} /> : null,
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
      const summary = `${stopText[turn.reason] ?? turn.reason} after ${turn.iterations} request${turn.iterations === 1 ? "" : "s"}`;
      if (turn.reason === "completed" || turn.reason === "canceled") {
        return (
          <div
            className={`text-center text-xs ${turn.reason === "completed" ? "text-slate-500" : "font-semibold text-amber-900"}`}
            data-testid="turn-stop"
            data-reason={turn.reason}
          >
            — {summary}
            {turn.message ? `: ${turn.message}` : ""} —
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
          <strong>{summary}</strong>
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

/** Tasks the demo workdir and the offline scenarios are built for (see the README's walk-through). */
const DEMO_PROMPTS = [
  "review src/orders.js",
  "profile data/sales.csv",
  "list the TODOs",
  "commit my changes",
];

export function ChatPanel({
  turns,
  toolCalls,
  pendingApprovals,
  manualTurn,
  skills,
  running,
  connected,
  highlightRequest,
  onSend,
  onStop,
  onAnswer,
  onManualResponse,
  onSelectRequest,
}: {
  turns: ChatTurn[];
  toolCalls: Record<string, ToolCallView>;
  pendingApprovals: string[];
  manualTurn?: ManualTurnRequest;
  skills: SkillView[];
  running: boolean;
  connected: boolean;
  highlightRequest?: number;
  onSend: (text: string) => void;
  onStop: () => void;
  onAnswer: (callId: string, answer: ApprovalAnswer) => void;
  onManualResponse: (
    requestIndex: number,
    text: string,
    toolCalls: { name: string; input: unknown }[],
  ) => void;
  onSelectRequest: (requestIndex: number) => void;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const primaryApproval = useRef<HTMLDivElement>(null);
  const lastTurn = turns[turns.length - 1];
  const lastLength = lastTurn?.kind === "assistant" ? lastTurn.text.length + lastTurn.toolCallIds.length : 0;
  useEffect(() => {
    const element = scroller.current;
    // Follow the stream when the reader is already at the bottom, and always after they sent a message.
    const nearBottom = element && element.scrollHeight - element.scrollTop - element.clientHeight < 160;
    if (element && (nearBottom || lastTurn?.kind === "user")) element.scrollTop = element.scrollHeight;
  }, [turns.length, lastLength, pendingApprovals.length, lastTurn?.kind]);
  useEffect(() => {
    if (highlightRequest === undefined) return;
    document.getElementById(`turn-request-${highlightRequest}`)?.scrollIntoView({ block: "nearest" });
  }, [highlightRequest]);

  return (
    <div className="flex h-full flex-col" data-testid="chat-panel">
      <div ref={scroller} className="min-h-0 flex-1 space-y-2 overflow-y-auto p-2" data-testid="chat-turns">
        {turns.length === 0 && (
          <div className="mt-8 text-center text-sm text-slate-500">
            <p>
              Ask something, or type <span className="font-mono">/</span> to invoke a skill directly.
            </p>
            <p className="mt-4 text-xs uppercase tracking-wide text-slate-400">
              or try one of the demo's tasks
            </p>
            <div className="mt-2 flex flex-wrap justify-center gap-2">
              {DEMO_PROMPTS.map((prompt) => (
                <button
                  key={prompt}
                  type="button"
                  disabled={!connected || running}
                  onClick={() => onSend(prompt)}
                  className="rounded-full border border-slate-300 bg-white px-3 py-1 text-slate-700 hover:border-blue-400 hover:text-blue-700 disabled:opacity-50"
                  data-testid="demo-prompt"
                >
                  {prompt}
                </button>
              ))}
            </div>
          </div>
        )}
        {turns.map((turn) => (
          <Turn
            key={turn.id}
            turn={turn}
            toolCalls={toolCalls}
            highlighted={
              turn.kind === "assistant" &&
              turn.requestIndex !== undefined &&
              turn.requestIndex === highlightRequest
            }
            awaitingManual={
              turn.kind === "assistant" &&
              turn.requestIndex !== undefined &&
              turn.requestIndex === manualTurn?.requestIndex
            }
            onSelectRequest={onSelectRequest}
          />
        ))}
      </div>
      {(pendingApprovals.length > 0 || manualTurn) && (
        <div
          className="max-h-[55%] space-y-2 overflow-y-auto border-t border-amber-300 p-2"
          data-testid="chat-attention"
        >
          {pendingApprovals.map((callId, index) => {
            const approval = toolCalls[callId]?.approval;
            return approval ? (
              <ApprovalCard
                key={callId}
                request={approval}
                primary={index === 0}
                focusTarget={index === 0 ? primaryApproval : undefined}
                onAnswer={(answer) => onAnswer(callId, answer)}
              />
            ) : null;
          })}
          {manualTurn && (
            <ManualComposer
              key={manualTurn.requestIndex}
              turn={manualTurn}
              onInspect={() => onSelectRequest(manualTurn.requestIndex)}
              onRespond={(text, calls) => onManualResponse(manualTurn.requestIndex, text, calls)}
            />
          )}
        </div>
      )}
      <Composer
        skills={skills}
        running={running}
        disabled={!connected}
        onSend={onSend}
        onStop={onStop}
        approvalWaiting={pendingApprovals.length > 0}
        onFocusApproval={() => primaryApproval.current?.focus({ preventScroll: true })}
      />
    </div>
  );
}
