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
import type { SkillResourceView } from "./skill-resources.ts";
import { errorsFor, queuedFor } from "./outbox.ts";
import { emptyRecords, get, toArray, type Records } from "./records.ts";
import type {
  ChatTurn,
  ConsoleResult,
  ManualTurnRequest,
  QueuedMessage,
  RequestView,
  SessionView,
  ToolCallView,
  UiError,
  UiState,
} from "./types.ts";

const noTurnRecords: Records<ChatTurn> = emptyRecords((turn) => turn.id);
const noCallRecords: Records<ToolCallView> = emptyRecords((call) => call.id);
const noIds: string[] = [];
const noRequests: RequestView[] = [];

/** The conversation of the open session as records (what the chat's virtual list reads, row by row). */
export function turnRecords(state: UiState): Records<ChatTurn> {
  return state.session?.turns ?? noTurnRecords;
}

/** The tool calls of the open session as records by call id. */
export function callRecords(state: UiState): Records<ToolCallView> {
  return state.session?.toolCalls ?? noCallRecords;
}

/** A session view's turns in order, as one array (made once per version of the turns). */
export function turnsOf(view: Pick<SessionView, "turns">): ChatTurn[] {
  return toArray(view.turns);
}

const callObjects = new WeakMap<Records<ToolCallView>, Record<string, ToolCallView>>();

/** A session view's tool calls by call id, as one object (made once per version of the calls). */
export function callsOf(view: Pick<SessionView, "toolCalls">): Record<string, ToolCallView> {
  let known = callObjects.get(view.toolCalls);
  if (!known) {
    known = Object.fromEntries(toArray(view.toolCalls).map((call) => [call.id, call]));
    callObjects.set(view.toolCalls, known);
  }
  return known;
}

/** The conversation of the open session, in order. */
export function chatTurns(state: UiState): ChatTurn[] {
  return toArray(turnRecords(state));
}

/** The tool calls of the open session by call id (a turn names its calls by id). */
export function toolCallsById(state: UiState): Record<string, ToolCallView> {
  return callsOf({ toolCalls: callRecords(state) });
}

const noCalls: ToolCallView[] = [];
const turnCalls = new WeakMap<ChatTurn, ToolCallView[]>();

/**
 * The calls one turn shows, in its order. The same array while none of them changed, so a memoised
 * turn does not re-render when another turn's call changes (or a delta streams into another turn).
 */
export function callsOfTurn(calls: Records<ToolCallView>, turn: ChatTurn): ToolCallView[] {
  if (turn.kind !== "assistant" || turn.toolCallIds.length === 0) return noCalls;
  const current = turn.toolCallIds.flatMap((id) => {
    const call = get(calls, id);
    return call ? [call] : [];
  });
  const previous = turnCalls.get(turn);
  if (previous && previous.length === current.length && previous.every((call, i) => call === current[i]))
    return previous;
  turnCalls.set(turn, current);
  return current;
}

/** Call ids waiting for the user's approval, oldest first. */
export function pendingApprovalIds(state: UiState): string[] {
  return state.session?.pendingApprovals ?? noIds;
}

/** The approval requests waiting, oldest first (what the approval cards show). */
export function waitingApprovals(state: UiState): ApprovalRequest[] {
  const calls = callRecords(state);
  return pendingApprovalIds(state).flatMap((id) => {
    const approval = get(calls, id)?.approval;
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

/**
 * A selector that remembers its last answer: the same object while every part it is made from is the
 * same (by identity). The columns' views are made this way, so a text delta, which changes the session
 * but none of the parts a column reads, leaves that column's memoised container alone.
 */
function lastOne<A extends readonly unknown[], R>(build: (...parts: A) => R): (...parts: A) => R {
  let lastParts: A | undefined;
  let last: R;
  return (...parts: A) => {
    if (lastParts && parts.every((part, index) => part === lastParts![index])) return last;
    lastParts = parts;
    last = build(...parts);
    return last;
  };
}

const consoleValues = lastOne((record: Record<string, ConsoleResult> | undefined) =>
  Object.values(record ?? {}),
);
const resourceValues = lastOne((record: Record<string, SkillResourceView> | undefined) =>
  Object.values(record ?? {}),
);

const noFeed: SessionView["reloadFeed"] = [];

const catalogColumnOf = lastOne(
  (
    open: boolean,
    catalog: SessionView["catalog"],
    settings: SessionView["settings"] | undefined,
    reloadFeed: SessionView["reloadFeed"] | undefined,
    skillResources: SessionView["skillResources"],
    consoleResults: SessionView["consoleResults"] | undefined,
    registeredTools: string[] | undefined,
    activeSkills: string[] | undefined,
    visibleTools: string[] | undefined,
    requests: RequestView[] | undefined,
    mcp: SessionView["mcp"],
    skillFigures: SessionView["skillFigures"],
  ) => {
    const stages = {
      activeSkills: activeSkills ?? noIds,
      registeredTools: registeredTools ?? noIds,
      visibleTools: visibleTools ?? noIds,
      requests: requests ?? noRequests,
    };
    return {
      open,
      catalog,
      settings,
      reloadFeed: reloadFeed ?? noFeed,
      skillResources: resourceValues(skillResources),
      consoleResults: consoleValues(consoleResults),
      registeredTools: stages.registeredTools,
      mcp,
      skillFigures,
      /** How far a skill has come in the open session (what stageOf says, from these parts only). */
      stageOf: (skill: SkillView): SkillStage => (open ? skillStage(skill, stages) : "listed"),
    };
  },
);

/** What the catalog column shows: the catalog, the skills' stages and resources, MCP and the tool console. */
export type CatalogColumnView = ReturnType<typeof catalogColumnOf>;

/** The catalog column's view: the same object while none of its parts changed (a delta changes none). */
export function catalogColumn(state: UiState): CatalogColumnView {
  const session = state.session;
  return catalogColumnOf(
    !!session,
    session?.catalog,
    session?.settings,
    session?.reloadFeed,
    session?.skillResources,
    session?.consoleResults,
    session?.registeredTools,
    session?.activeSkills,
    session?.visibleTools,
    session?.requests,
    session?.mcp,
    session?.skillFigures,
  );
}

/** The loaded skills' files and their reads (the inspector's lane), the same array while they did not change. */
export function skillResourcesOf(state: UiState): SkillResourceView[] {
  return resourceValues(state.session?.skillResources);
}
