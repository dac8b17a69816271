// The middle column's container: what the chat reads from the store (by selector, so its memoised panel
// sees the same props while its parts did not change) and the stable handlers it sends with.
"use client";
import { memo, useMemo, type Dispatch, type RefObject } from "react";
import type { ApprovalAnswer, ClientCommand } from "../../server/protocol/index.ts";
import { replayState } from "../state/replay.ts";
import {
  callRecords,
  isRunning,
  manualTurn,
  pendingApprovalIds,
  queuedMessages,
  turnRecords,
  turnsOf,
} from "../state/selectors.ts";
import type { UiAction, UiState } from "../state/types.ts";
import { ChatPanel } from "./chat-panel.tsx";

const MemoChatPanel = memo(ChatPanel);
const noSkills: never[] = [];

export interface ChatHandlers {
  /** Sends, or queues while the session's run is going; false (the text stays in the box) if neither. */
  onSend: (text: string) => boolean;
  onRemoveQueued: (id: string) => void;
  onStop: () => void;
  onAnswer: (callId: string, answer: ApprovalAnswer) => void;
  onManualResponse: (
    requestIndex: number,
    text: string,
    toolCalls: { name: string; input: unknown }[],
  ) => void;
}

/**
 * Stable callbacks, so selecting a request in the inspector does not re-render a long chat (memo). They
 * read the state through `stateRef`, never from a render's closure.
 */
export function useChatHandlers(
  stateRef: RefObject<UiState>,
  dispatch: Dispatch<UiAction>,
  socketSend: (command: ClientCommand) => boolean,
  sessionCommand: (build: (sessionId: string) => ClientCommand) => void,
  onNewMessage: () => void,
): ChatHandlers {
  return useMemo(
    () => ({
      onSend: (text: string): boolean => {
        const current = stateRef.current.session;
        if (!current) {
          dispatch({
            type: "local_error",
            code: "no_session",
            message: "No session is open yet; create one from the session picker.",
          });
          return false;
        }
        if (current.running) {
          dispatch({ type: "queue_message", sessionId: current.id, text });
          return true;
        }
        // A new message: the inspector follows the newest request again.
        onNewMessage();
        if (!socketSend({ type: "send_message", sessionId: current.id, text })) return false;
        dispatch({ type: "message_sent", sessionId: current.id, text });
        return true;
      },
      onRemoveQueued: (id: string) => dispatch({ type: "unqueue_message", id }),
      onStop: () => sessionCommand((sessionId) => ({ type: "cancel", sessionId })),
      onAnswer: (callId: string, answer: ApprovalAnswer) =>
        sessionCommand((sessionId) => ({ type: "approval_answer", sessionId, callId, answer })),
      onManualResponse: (requestIndex: number, text: string, toolCalls: { name: string; input: unknown }[]) =>
        sessionCommand((sessionId) => ({
          type: "manual_response",
          sessionId,
          requestIndex,
          text,
          toolCalls,
        })),
    }),
    [stateRef, dispatch, socketSend, sessionCommand, onNewMessage],
  );
}

export function ChatColumn({
  state,
  handlers,
  highlightRequest,
  onSelectRequest,
}: {
  state: UiState;
  handlers: ChatHandlers;
  highlightRequest?: number;
  onSelectRequest: (requestIndex: number) => void;
}) {
  const session = state.session;
  const queued = useMemo(() => queuedMessages(state), [state.queue, session?.id]);
  // A replay session's progress: only sessions that are replays walk their turns for it.
  const replayOf = session?.settings.replayOf;
  const settings = session?.settings;
  const turns = session?.turns;
  const requests = session?.requests;
  const replay = useMemo(
    () =>
      replayOf !== undefined && settings && turns && requests
        ? replayState({ settings, turns: turnsOf({ turns }), requests })
        : undefined,
    [replayOf, settings, turns, requests],
  );
  return (
    <MemoChatPanel
      sessionId={session?.id}
      queued={queued}
      demoTasks={session?.summary.demoTasks}
      replay={replay}
      onRemoveQueued={handlers.onRemoveQueued}
      onStopAndSend={handlers.onStop}
      turns={turnRecords(state)}
      toolCalls={callRecords(state)}
      pendingApprovals={pendingApprovalIds(state)}
      manualTurn={manualTurn(state)}
      skills={session?.catalog?.skills ?? noSkills}
      running={isRunning(state)}
      connected={state.connection === "open" && !!session}
      highlightRequest={highlightRequest}
      onSend={handlers.onSend}
      onStop={handlers.onStop}
      onAnswer={handlers.onAnswer}
      onManualResponse={handlers.onManualResponse}
      onSelectRequest={onSelectRequest}
    />
  );
}
