// The store's read side: what each view shows, from the UI state. The container reads the state only
// through these (and the panels get what they return), so the state's own layout can change — records
// by id, append-only arrays — without the views or their tests noticing: a new store keeps these
// signatures. Empty results are shared constants, so a memoised panel sees the same props while nothing
// changed.
import type {
  ApprovalRequest,
  CatalogSnapshot,
  FolderTrust,
  SkillView,
} from "../../server/protocol/index.ts";
import { skillStage, trustPromptOpen, type SkillStage } from "./derive.ts";
import { errorsFor, queuedFor } from "./outbox.ts";
import type {
  ChatTurn,
  ManualTurnRequest,
  QueuedMessage,
  RequestView,
  ToolCallView,
  UiError,
  UiState,
} from "./types.ts";

const noTurns: ChatTurn[] = [];
const noCalls: Record<string, ToolCallView> = {};
const noIds: string[] = [];
const noRequests: RequestView[] = [];

/** The conversation of the open session, in order. */
export function chatTurns(state: UiState): ChatTurn[] {
  return state.session?.turns ?? noTurns;
}

/** The tool calls of the open session by call id (a turn names its calls by id). */
export function toolCallsById(state: UiState): Record<string, ToolCallView> {
  return state.session?.toolCalls ?? noCalls;
}

/** Call ids waiting for the user's approval, oldest first. */
export function pendingApprovalIds(state: UiState): string[] {
  return state.session?.pendingApprovals ?? noIds;
}

/** The approval requests waiting, oldest first (what the approval cards show). */
export function waitingApprovals(state: UiState): ApprovalRequest[] {
  const calls = toolCallsById(state);
  return pendingApprovalIds(state).flatMap((id) => {
    const approval = calls[id]?.approval;
    return approval ? [approval] : [];
  });
}

/** A request waiting for the person playing the model (manual provider). */
export function manualTurn(state: UiState): ManualTurnRequest | undefined {
  return state.session?.manualTurn;
}

export function isRunning(state: UiState): boolean {
  return state.session?.running ?? false;
}

/** Messages typed during the open session's run, sent when it ends. */
export function queuedMessages(state: UiState): QueuedMessage[] {
  return queuedFor(state.queue, state.session?.id);
}

/** The errors to show: the open session's and the connection's own. */
export function visibleErrors(state: UiState): UiError[] {
  const errors = errorsFor(state.errors, state.session?.id);
  // "Cannot reach the server" stops being true once it answers: connected, or refusing this tab's token
  // of an earlier start (whose own banner says what to do).
  const answered =
    state.connection === "open" || state.connection === "wrong_token" || state.connection === "no_token";
  return answered ? errors.filter((error) => error.code !== "disconnected") : errors;
}

/** The model requests of the open session, oldest first (the inspector's timeline). */
export function requestsOf(state: UiState): RequestView[] {
  return state.session?.requests ?? noRequests;
}

export function catalogOf(state: UiState): CatalogSnapshot | undefined {
  return state.session?.catalog;
}

/** How far a skill has come in the open session: listed, loaded, its tools registered, visible. */
export function stageOf(state: UiState, skill: SkillView): SkillStage {
  return state.session ? skillStage(skill, state.session) : "listed";
}

/** The folder's trust, when its prompt should be on screen. */
export function trustToAsk(state: UiState): FolderTrust | undefined {
  const session = state.session;
  return session && trustPromptOpen(session) ? session.summary.trust : undefined;
}
