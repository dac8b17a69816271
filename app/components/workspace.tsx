// The container: owns the reducer and the socket and lays out the three columns. Its behaviours live in
// hooks (./workspace-effects.ts: the first session, the queue at a run's end, downloads, Escape) and each
// column that reads much of the store has a container of its own (./catalog-column.tsx,
// ./chat-column.tsx); everything below those is presentational (props in, callbacks out).
"use client";
import { memo, useCallback, useReducer, useRef, useState } from "react";
import type {
  ApprovalAnswer,
  ClientCommand,
  RequestEdit,
  SessionConfirmation,
  SessionSettings,
} from "../../server/protocol/index.ts";
import { sessionKey, usePlaygroundSocket } from "../lib/connection.ts";
import { sandboxBadge } from "../lib/sandbox-text.ts";
import { initialUiState, uiReducer } from "../state/reducer.ts";
import { newSessionWorkdir } from "../../server/shared/demo-copy.ts";
import {
  catalogColumn,
  requestsOf,
  skillResourcesOf,
  trustToAsk,
  visibleErrors as errorsToShow,
} from "../state/selectors.ts";
import { CatalogColumn } from "./catalog-column.tsx";
import { ChatColumn, useChatHandlers } from "./chat-column.tsx";
import { Header } from "./header.tsx";
import { SessionMenu } from "./session-menu.tsx";
import {
  AddSkillContainer,
  BranchBanner,
  ConfirmationDialog,
  ExperimentsLayer,
  InspectorPanel,
  Loading,
  NewSessionDialog,
  TrustPrompt,
  WorkdirGoneBanner,
  TriggerLabContainer,
  preloadColumns,
} from "./lazy.tsx";
import { ErrorCard, PanelBoundary } from "./ui.tsx";
import { ErrorList, WrongTokenBanner } from "./error-list.tsx";
import type { CompareTarget } from "./experiments-layer.tsx";
import {
  useDownloads,
  useEscapeStops,
  useFirstSession,
  usePresenterType,
  useQueueSurvivesReload,
  useTypedForgottenWhenGone,
  useRunEnd,
} from "./workspace-effects.ts";

// Memoised with stable props: a streamed delta leaves the requests (and so the inspector) as they were.
const MemoInspectorPanel = memo(InspectorPanel);
// What shows a session starts loading as this module runs, while the page hydrates, not after it mounts:
// a reopened session's replay arrives on the early socket and would wait for the inspector's chunk.
if (typeof window !== "undefined") void preloadColumns();

/** The workdir a refused command is about: the one it names, else the open session's. */
function confirmationWorkdir(
  command: ClientCommand | undefined,
  current: string | undefined,
  serverDefault: string | undefined,
): string | undefined {
  if (command?.type === "create_session") return command.settings?.workdir ?? serverDefault;
  return current;
}

export function Workspace() {
  const [state, dispatch] = useReducer(uiReducer, initialUiState);
  const stateRef = useRef(state);
  stateRef.current = state;
  const resume = useCallback(
    () => ({ sessionId: stateRef.current.session?.id, lastSeq: stateRef.current.session?.lastSeq ?? 0 }),
    [],
  );
  const socketSend = usePlaygroundSocket(dispatch, resume);
  const send = useCallback(
    (command: ClientCommand) => {
      if (command.type === "create_session" || command.type === "update_session")
        confirmable.current[command.type] = command;
      socketSend(command);
    },
    [socketSend],
  );
  const [presenter, setPresenter] = useState(false);
  const [panels, setPanels] = useState({ catalog: true, inspector: true });
  const [dialogOpen, setDialogOpen] = useState(false);
  const [addSkillOpen, setAddSkillOpen] = useState(false);
  const [labOpen, setLabOpen] = useState(false);
  const [selectedSkill, setSelectedSkill] = useState<string | undefined>(undefined);
  const [selectedRequest, setSelectedRequest] = useState<number | undefined>(undefined);
  const [highlightRequest, setHighlightRequest] = useState<number | undefined>(undefined);
  const [editingRequest, setEditingRequest] = useState<number | undefined>(undefined);
  const [comparing, setComparing] = useState<CompareTarget | undefined>(undefined);
  const openRequested = useRef(false);
  // The last create_session / update_session sent: resent with `confirm` when the server asks for it.
  const confirmable = useRef<Partial<Record<string, ClientCommand>>>({});
  const consoleCounter = useRef(0);
  const session = state.session;

  useFirstSession(state, stateRef, openRequested, send);
  useQueueSurvivesReload(state.queue, dispatch);
  useTypedForgottenWhenGone(session);
  const running = session?.running ?? false;
  const clearSelection = useCallback(() => setSelectedRequest(undefined), []);
  useRunEnd(stateRef, session?.id, running, dispatch, send, socketSend, clearSelection);
  usePresenterType(presenter);
  useDownloads(state.pendingExport, dispatch);
  useEscapeStops(running && !dialogOpen && !addSkillOpen && !state.confirmation, () => {
    const id = stateRef.current.session?.id;
    if (id) send({ type: "cancel", sessionId: id });
  });

  const sessionCommand = useCallback(
    (build: (sessionId: string) => ClientCommand) => {
      const id = stateRef.current.session?.id;
      if (!id) {
        dispatch({
          type: "local_error",
          code: "no_session",
          message: "No session is open yet; create one from the session picker.",
        });
        return;
      }
      send(build(id));
    },
    [send],
  );
  /** The skill detail's token costs, counted on the server (skill_figures). */
  const needSkillFigures = useCallback(
    (name: string) => sessionCommand((sessionId) => ({ type: "skill_figures", sessionId, name })),
    [sessionCommand],
  );
  /** The tool console (a skill's tools, an MCP server's tools): one call by hand. */
  const runTool = useCallback(
    (tool: string, input: unknown) => {
      consoleCounter.current += 1;
      const requestId = `console-${Date.now()}-${consoleCounter.current}`;
      dispatch({ type: "console_started", requestId, tool, input });
      sessionCommand((sessionId) => ({ type: "run_tool", sessionId, requestId, tool, input }));
    },
    [sessionCommand],
  );
  const openAddSkill = useCallback(() => setAddSkillOpen(true), []);

  const selectRequestFromChat = useCallback((index: number) => {
    setPanels((old) => ({ ...old, inspector: true }));
    setSelectedRequest(index);
    setHighlightRequest(index);
  }, []);

  // Compare: a branch against its origin by default, else the session against itself (pick another side).
  const openCompare = useCallback(() => {
    const current = stateRef.current.session;
    if (!current) return;
    const left = current.summary.branch?.originSessionId ?? current.id;
    setComparing({ left, right: current.id });
    for (const sessionId of new Set([left, current.id])) send({ type: "get_runs", sessionId });
  }, [send]);
  const pickCompareSession = useCallback(
    (side: "left" | "right", sessionId: string) => {
      setComparing((old) => (old ? { ...old, [side]: sessionId } : old));
      send({ type: "get_runs", sessionId });
    },
    [send],
  );
  const forkRequest = useCallback(
    (requestIndex: number, kind: "edit" | "rerun", edits: RequestEdit[], provider?: string) => {
      setEditingRequest(undefined);
      setSelectedRequest(undefined);
      sessionCommand((sessionId) => ({
        type: "fork_request",
        sessionId,
        requestIndex,
        kind,
        edits,
        ...(provider ? { provider } : {}),
      }));
    },
    [sessionCommand],
  );

  const rerunRequest = useCallback((index: number) => forkRequest(index, "rerun", []), [forkRequest]);
  const chatHandlers = useChatHandlers(stateRef, dispatch, socketSend, sessionCommand, clearSelection);

  // The user confirmed what the server asked about: the same command again, with `confirm`.
  const confirmPending = useCallback(() => {
    const pending = stateRef.current.confirmation;
    dispatch({ type: "confirmation_done" });
    if (!pending) return;
    const original = confirmable.current[pending.command];
    if (original?.type !== "create_session" && original?.type !== "update_session") {
      dispatch({
        type: "local_error",
        code: "confirmation_lost",
        message: `The page no longer has the ${pending.command} command to resend; please do it again.`,
      });
      return;
    }
    const confirm: SessionConfirmation[] = [...new Set([...(original.confirm ?? []), ...pending.confirm])];
    send({ ...original, confirm });
  }, [send]);

  const visibleErrors = errorsToShow(state);

  if (state.connection === "no_token") {
    return (
      <main className="mx-auto mt-16 max-w-xl" data-testid="no-token">
        <ErrorCard
          title="This page needs the start token"
          message={
            "Open the address the server printed when it started (it ends with #token=…). " +
            "The token proves the page came from this server; without it the server refuses the connection."
          }
        />
      </main>
    );
  }

  const catalog = session?.catalog;
  const skillDetail = catalog?.skills.find((skill) => skill.name === selectedSkill);
  // The detail view (SOP, schemas, tool console) gets a wider column than the list. Widths are in px, not
  // rem, so presenter mode's larger type does not squeeze the chat: at 1280 px the side columns get at most
  // a fifth and a third of the screen.
  const columns = [
    panels.catalog ? `min(${skillDetail ? 416 : 304}px, ${skillDetail ? 30 : 22}vw)` : null,
    "minmax(0,1fr)",
    panels.inspector ? "min(464px, 36vw)" : null,
  ]
    .filter(Boolean)
    .join(" ");

  return (
    <div
      className="flex h-screen flex-col bg-white text-slate-900"
      data-testid="workspace"
      data-presenter={presenter}
    >
      <Header
        connection={state.connection}
        sessions={state.sessions}
        currentId={session?.id}
        settings={session?.settings}
        cacheAs={state.cacheAs}
        sandbox={
          session
            ? sandboxBadge(
                session.runSandbox ?? session.summary.sandbox,
                state.machineSandbox,
                session.settings.allowNetwork,
              )
            : undefined
        }
        trust={session?.summary.trust}
        onShowTrust={() => dispatch({ type: "trust_prompt", dismissed: false })}
        {...(session ? { onOpenTriggerLab: () => setLabOpen(true) } : {})}
        presenter={presenter}
        panels={panels}
        onOpenSession={(id) => {
          setSelectedRequest(undefined);
          send({ type: "open_session", sessionId: id });
        }}
        onNewSession={() => setDialogOpen(true)}
        onRefreshSessions={() => send({ type: "list_sessions" })}
        onDeleteSession={(id) => {
          // Deleting the open session: once the server confirms, open the newest remaining one (or a new one).
          if (id === session?.id) {
            openRequested.current = false;
            window.sessionStorage.removeItem(sessionKey);
            setSelectedRequest(undefined);
          }
          send({ type: "delete_session", sessionId: id });
        }}
        onExport={() => sessionCommand((sessionId) => ({ type: "export_session", sessionId }))}
        menu={
          session && (
            <SessionMenu
              onExport={(format) =>
                sessionCommand((sessionId) => ({ type: "export_session", sessionId, format }))
              }
              onImportScenario={(fileName, yaml) => {
                // The replay opens as a new session (its session_opened switches the view to it).
                setSelectedRequest(undefined);
                sessionCommand((sessionId) => ({
                  type: "import_scenario",
                  sessionId,
                  fileName,
                  yaml,
                  newSession: true,
                }));
              }}
            />
          )
        }
        onChangeSettings={(change) =>
          sessionCommand((sessionId) => ({ type: "update_session", sessionId, settings: change }))
        }
        onTogglePresenter={() => setPresenter(!presenter)}
        onTogglePanel={(panel) => setPanels({ ...panels, [panel]: !panels[panel] })}
      />
      {trustToAsk(state) && (
        <Loading>
          <TrustPrompt
            trust={trustToAsk(state)!}
            onTrust={(answer) =>
              sessionCommand((sessionId) => ({ type: "trust_folder", sessionId, ...answer }))
            }
            onKeepUntrusted={() => dispatch({ type: "trust_prompt", dismissed: true })}
          />
        </Loading>
      )}
      {state.connection === "wrong_token" && <WrongTokenBanner />}
      <ErrorList errors={visibleErrors} onDismiss={(id) => dispatch({ type: "dismiss_error", id })} />
      {session?.summary.workdirMissing && (
        <Loading>
          <WorkdirGoneBanner workdir={session.settings.workdir} onNewSession={() => setDialogOpen(true)} />
        </Loading>
      )}
      {session?.summary.branch && (
        <Loading>
          <BranchBanner
            session={session}
            onOpenOrigin={(id) => {
              setSelectedRequest(undefined);
              send({ type: "open_session", sessionId: id });
            }}
            onCompare={openCompare}
          />
        </Loading>
      )}
      {/* One definite row, and each column contained: what changes in one column (the inspector's panes)
          never makes the browser lay out the others (a long chat) again. */}
      <div
        className="grid min-h-0 flex-1"
        style={{ gridTemplateColumns: columns, gridTemplateRows: "minmax(0, 1fr)" }}
      >
        {panels.catalog && (
          <aside className="min-h-0 border-r border-slate-200 [contain:strict]" aria-label="Skill catalog">
            <PanelBoundary name="catalog">
              <CatalogColumn
                view={catalogColumn(state)}
                selectedSkill={selectedSkill}
                onSelectSkill={setSelectedSkill}
                onAddSkill={openAddSkill}
                sessionCommand={sessionCommand}
                onNeedFigures={needSkillFigures}
                onRunTool={runTool}
              />
            </PanelBoundary>
          </aside>
        )}
        <main className="min-h-0 [contain:strict]" aria-label="Chat">
          <PanelBoundary name="chat">
            <ChatColumn
              state={state}
              handlers={chatHandlers}
              highlightRequest={highlightRequest}
              onSelectRequest={selectRequestFromChat}
            />
          </PanelBoundary>
        </main>
        {panels.inspector && (
          <aside className="min-h-0 border-l border-slate-200 [contain:strict]" aria-label="Prompt inspector">
            <PanelBoundary name="inspector">
              <Loading inline>
                <MemoInspectorPanel
                  requests={requestsOf(state)}
                  sessionId={session?.id}
                  replayed={!session || session.lastSeq >= session.openedSeq}
                  selectedIndex={selectedRequest}
                  onSelect={setSelectedRequest}
                  onShowTurn={setHighlightRequest}
                  skillResources={skillResourcesOf(state)}
                  onEditResend={setEditingRequest}
                  onRerun={rerunRequest}
                  onCompare={openCompare}
                  {...(session?.cacheStats ? { cacheStats: session.cacheStats } : {})}
                />
              </Loading>
            </PanelBoundary>
          </aside>
        )}
      </div>
      {dialogOpen && (
        <Loading>
          <NewSessionDialog
            providers={state.providers}
            defaults={{
              ...session?.settings,
              workdir: newSessionWorkdir(
                session?.summary.workdirMissing ? undefined : session?.settings.workdir,
                state.defaultWorkdir,
              ),
            }}
            onCancel={() => setDialogOpen(false)}
            onCreate={(settings: Partial<SessionSettings>, confirm: SessionConfirmation[]) => {
              setDialogOpen(false);
              setSelectedRequest(undefined);
              send({ type: "create_session", settings, ...(confirm.length ? { confirm } : {}) });
            }}
          />
        </Loading>
      )}
      {addSkillOpen && session && (
        <Loading>
          <AddSkillContainer
            sessionId={session.id}
            workdir={session.settings.workdir}
            answer={state.skillInstall}
            send={send}
            onClose={() => {
              setAddSkillOpen(false);
              dispatch({ type: "skill_install_clear" });
            }}
          />
        </Loading>
      )}
      {labOpen && session && (
        <Loading>
          <TriggerLabContainer session={session} send={send} onClose={() => setLabOpen(false)} />
        </Loading>
      )}
      {(editingRequest !== undefined || comparing) && (
        <Loading>
          <ExperimentsLayer
            session={session}
            sessions={state.sessions}
            providers={state.providers}
            runs={state.runs}
            editing={editingRequest}
            comparing={comparing}
            onResend={(index, edits, provider) => forkRequest(index, "edit", edits, provider)}
            onCancelEdit={() => setEditingRequest(undefined)}
            onPickCompareSession={pickCompareSession}
            onCloseCompare={() => setComparing(undefined)}
          />
        </Loading>
      )}
      {state.confirmation && (
        <Loading>
          <ConfirmationDialog
            confirmation={state.confirmation}
            workdir={confirmationWorkdir(
              confirmable.current[state.confirmation.command],
              session?.settings.workdir,
              state.defaultWorkdir,
            )}
            onConfirm={confirmPending}
            onCancel={() => dispatch({ type: "confirmation_done" })}
          />
        </Loading>
      )}
    </div>
  );
}
