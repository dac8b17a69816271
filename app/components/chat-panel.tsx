// Middle column: the conversation (streaming text, tool call cards, stops and errors), pending
// approvals, the manual "you are the model" composer, and the message box. The conversation follows new
// output unless the reader scrolled up (then a "new output" pill), and sending always returns to the bottom.
// For screen readers the conversation is a log (new turns are read; while a run streams it is busy, so its
// text is read once it settles, not delta by delta), and a waiting approval is announced at once.
"use client";
import { useEffect, useMemo, useRef } from "react";
import type { ApprovalAnswer, SkillView } from "../../server/protocol/index.ts";
import type { ChatTurn, ManualTurnRequest, QueuedMessage, ToolCallView } from "../state/types.ts";
import { get, type Records } from "../state/records.ts";
import { ChatList } from "./chat-list.tsx";
import { Composer } from "./composer.tsx";
import { useFollowOutput } from "./follow-output.ts";
import { ApprovalCard, Loading, ManualComposer, ReplayBanner } from "./lazy.tsx";
import type { ReplayState } from "./replay-banner.tsx";
import { formatCount } from "../../server/shared/figures.ts";
import { whenIdle } from "../lib/when-idle.ts";

const noTasks: string[] = [];

export function ChatPanel({
  sessionId,
  turns,
  toolCalls,
  pendingApprovals,
  manualTurn,
  skills,
  running,
  connected,
  highlightRequest,
  queued = [],
  demoTasks = noTasks,
  replay,
  onSend,
  onStop,
  onRemoveQueued,
  onStopAndSend,
  onAnswer,
  onManualResponse,
  onSelectRequest,
}: {
  /** The open session: another one starts at its bottom, following. */
  sessionId?: string;
  /** The conversation (records: the list renders a row per turn, virtual past a few hundred). */
  turns: Records<ChatTurn>;
  /** The session's calls by id; each turn's row selects its own, so a call's change re-renders one turn. */
  toolCalls: Records<ToolCallView>;
  pendingApprovals: string[];
  manualTurn?: ManualTurnRequest;
  skills: SkillView[];
  running: boolean;
  connected: boolean;
  highlightRequest?: number;
  /** Messages typed during the run, sent when it ends. */
  queued?: QueuedMessage[];
  /**
   * The demo's tasks that apply to this workdir, as the server sent them (server/shared/demo-tasks.ts:
   * their files exist there); none are offered elsewhere.
   */
  demoTasks?: string[];
  /** A replay's recorded messages and where it left the recording. */
  replay?: ReplayState;
  /** Sends the message, or queues it while a run is going; false when it could not (the text stays). */
  onSend: (text: string) => boolean;
  onStop: () => void;
  onRemoveQueued?: (id: string) => void;
  /** Stops the run; the queued message goes out as soon as it has stopped. */
  onStopAndSend?: () => void;
  onAnswer: (callId: string, answer: ApprovalAnswer) => void;
  onManualResponse: (
    requestIndex: number,
    text: string,
    toolCalls: { name: string; input: unknown }[],
  ) => void;
  onSelectRequest: (requestIndex: number) => void;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const primaryApproval = useRef<HTMLDivElement>(null);
  const follow = useFollowOutput(scroller, content, sessionId, turns);
  const skillNames = useMemo(() => skills.map((skill) => skill.name), [skills]);
  // The page's first formatted number loads the browser's number-format data (~20 ms): done while the page
  // is idle, not in the render that ends a run (its stop line counts the requests).
  useEffect(() => whenIdle(() => void formatCount(0)), []);
  // Sending (or queueing) always brings the conversation back to its bottom.
  const send = (text: string) => {
    const accepted = onSend(text);
    if (accepted) follow.toBottom();
    return accepted;
  };

  return (
    <div className="flex h-full flex-col" data-testid="chat-panel">
      {replay && (
        <Loading inline>
          <ReplayBanner replay={replay} running={running} onSend={send} onShowRequest={onSelectRequest} />
        </Loading>
      )}
      <div className="relative min-h-0 flex-1">
        {/* No scroll anchoring: the browser's own adjustments would look like the reader scrolling. */}
        <div
          ref={scroller}
          className="h-full overflow-y-auto p-2 [overflow-anchor:none]"
          data-testid="chat-turns"
        >
          <div
            ref={content}
            className="space-y-2"
            role="log"
            aria-label="Conversation"
            aria-relevant="additions"
            aria-busy={running}
          >
            {turns.size === 0 && !replay?.recorded.length && (
              <div className="mt-8 text-center text-sm text-slate-500">
                <p>
                  Ask something, or type <span className="font-mono">/</span> to invoke a skill directly.
                </p>
                {demoTasks.length > 0 && (
                  <p className="mt-4 text-xs uppercase tracking-wide text-slate-500">
                    or try one of the demo&apos;s tasks
                  </p>
                )}
                <div className="mt-2 flex flex-wrap justify-center gap-2">
                  {demoTasks.map((prompt) => (
                    <button
                      key={prompt}
                      type="button"
                      disabled={!connected || running}
                      onClick={() => send(prompt)}
                      className="rounded-full border border-slate-300 bg-white px-3 py-1 text-slate-700 hover:border-blue-400 hover:text-blue-700 disabled:opacity-50"
                      data-testid="demo-prompt"
                    >
                      {prompt}
                    </button>
                  ))}
                </div>
              </div>
            )}
            <ChatList
              turns={turns}
              calls={toolCalls}
              scroller={scroller}
              following={follow.following}
              skillNames={skillNames}
              highlightRequest={highlightRequest}
              manualRequest={manualTurn?.requestIndex}
              onSelectRequest={onSelectRequest}
            />
          </div>
        </div>
        {!follow.following && follow.unseen && (
          <button
            type="button"
            className="absolute bottom-2 left-1/2 -translate-x-1/2 rounded-full border border-blue-300 bg-blue-700 px-3 py-1 text-xs font-medium text-white shadow-lg hover:bg-blue-800"
            data-testid="chat-new-output"
            onClick={follow.toBottom}
          >
            ↓ New output below
          </button>
        )}
      </div>
      {/* Always in the page, so the announcement is a change a screen reader hears. */}
      <p className="sr-only" aria-live="assertive" data-testid="approval-announcement">
        {approvalAnnouncement(pendingApprovals, toolCalls)}
      </p>
      {(pendingApprovals.length > 0 || manualTurn) && (
        <div
          className="max-h-[55%] space-y-2 overflow-y-auto border-t border-amber-300 p-2"
          data-testid="chat-attention"
        >
          {pendingApprovals.map((callId, index) => {
            const call = get(toolCalls, callId);
            return call?.approval ? (
              <Loading inline key={callId}>
                <ApprovalCard
                  request={call.approval}
                  sessionId={sessionId}
                  runId={call.runId}
                  byHand={call.byHand === true}
                  primary={index === 0}
                  focusTarget={index === 0 ? primaryApproval : undefined}
                  onAnswer={(answer) => onAnswer(callId, answer)}
                />
              </Loading>
            ) : null;
          })}
          {manualTurn && (
            <Loading inline>
              <ManualComposer
                key={manualTurn.requestIndex}
                sessionId={sessionId}
                turn={manualTurn}
                onInspect={() => onSelectRequest(manualTurn.requestIndex)}
                onRespond={(text, calls) => onManualResponse(manualTurn.requestIndex, text, calls)}
              />
            </Loading>
          )}
        </div>
      )}
      <Composer
        skills={skills}
        running={running}
        // Until a session is open there is nowhere to send a message: the box waits rather than take one
        // it would have to drop (the page opens or creates the first session as it connects).
        disabled={!connected || !sessionId}
        disabledText={connected ? "Opening a session…" : "Connecting…"}
        onSend={send}
        onStop={onStop}
        queued={queued}
        onRemoveQueued={onRemoveQueued}
        onStopAndSend={onStopAndSend}
        approvalWaiting={pendingApprovals.length > 0}
        onFocusApproval={() => primaryApproval.current?.focus({ preventScroll: true })}
      />
    </div>
  );
}

/** "Approval needed: run_command (2 waiting)", or nothing when no call waits. */
export function approvalAnnouncement(pendingApprovals: string[], toolCalls: Records<ToolCallView>): string {
  const first = pendingApprovals.map((callId) => get(toolCalls, callId)?.approval).find(Boolean);
  if (!first) return "";
  const more = pendingApprovals.length > 1 ? ` (${pendingApprovals.length} waiting)` : "";
  return `Approval needed: ${first.tool}${more}. Focus the card to answer.`;
}
