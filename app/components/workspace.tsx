// The container: owns the reducer and the socket, decides which session to open, and lays out the three
// columns. Everything below it is presentational (props in, callbacks out).
"use client";
import { memo, useCallback, useEffect, useMemo, useReducer, useRef, useState } from "react";
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
import { queuedFor } from "../state/outbox.ts";
import { readQueued, writeQueued } from "../lib/typed-storage.ts";
import { newSessionWorkdir } from "../../server/shared/demo-copy.ts";
import {
  chatTurns,
  isRunning,
  manualTurn,
  pendingApprovalIds,
  queuedMessages,
  requestsOf,
  stageOf,
  toolCallsById,
  trustToAsk,
  visibleErrors as errorsToShow,
} from "../state/selectors.ts";
import { replayState } from "../state/replay.ts";
import { AddSkillContainer } from "./add-skill-container.tsx";
import { CatalogPanel } from "./catalog-panel.tsx";
import { ChatPanel } from "./chat-panel.tsx";
import { ConfirmationDialog } from "./confirmation-dialog.tsx";
import { Header } from "./header.tsx";
import { SessionMenu } from "./session-menu.tsx";
import { InspectorPanel } from "./inspector-panel.tsx";
import { McpPanel } from "./mcp-panel.tsx";
import { NewSessionDialog } from "./new-session-dialog.tsx";
import { SkillDetail } from "./skill-detail.tsx";
import { TrustPrompt } from "./trust-prompt.tsx";
import { TriggerLabContainer } from "./trigger-lab-container.tsx";
import { ErrorCard, PanelBoundary } from "./ui.tsx";
import { ErrorList, WrongTokenBanner } from "./error-list.tsx";
import { BranchBanner, ExperimentsLayer, type CompareTarget } from "./experiments-layer.tsx";

const MemoChatPanel = memo(ChatPanel);

/** The workdir a refused command is about: the one it names, else the open session's. */
function confirmationWorkdir(
  command: ClientCommand | undefined,
  current: string | undefined,
  serverDefault: string | undefined,
): string | undefined {
  if (command?.type === "create_session") return command.settings?.workdir ?? serverDefault;
  return current;
}
const noSkills: never[] = [];

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

  // First session of this connection: the one this tab showed before a reload, else the newest, else a new one.
  useEffect(() => {
    if (state.connection !== "open" || !state.sessionListLoaded || session || openRequested.current) return;
    openRequested.current = true;
    const stored = window.sessionStorage.getItem(sessionKey);
    const known = state.sessions.find((item) => item.id === stored);
    const newest = [...state.sessions].sort((left, right) =>
      right.updatedAt.localeCompare(left.updatedAt),
    )[0];
    const target = known ?? newest;
    send(target ? { type: "open_session", sessionId: target.id } : { type: "create_session" });
  }, [state.connection, state.sessionListLoaded, state.sessions, session, send]);

  useEffect(() => {
    if (state.connection !== "open") openRequested.current = !!stateRef.current.session;
  }, [state.connection]);

  useEffect(() => {
    if (session?.id) window.sessionStorage.setItem(sessionKey, session.id);
  }, [session?.id]);

  // Messages queued during a run survive a reload of the tab (lib/typed-storage.ts): restored once, then
  // kept in step with the queue; each still goes out when its session's run ends.
  const queueRestored = useRef(false);
  useEffect(() => {
    if (!queueRestored.current) {
      queueRestored.current = true;
      for (const item of readQueued())
        dispatch({ type: "queue_message", sessionId: item.sessionId, text: item.text });
      return;
    }
    writeQueued(state.queue);
  }, [state.queue]);

  // Session titles and message counts change with each run: refresh the list when a run ends.
  const running = session?.running ?? false;
  useEffect(() => {
    if (!running && stateRef.current.connection === "open" && stateRef.current.session)
      send({ type: "list_sessions" });
  }, [running, send]);

  // When this session's run ends, the first message queued for it goes out (the next waits for the run
  // that one starts). A refusal puts it back at the head of the queue (state/outbox.ts).
  const lastRun = useRef<{ sessionId?: string; running: boolean }>({ running: false });
  useEffect(() => {
    const previous = lastRun.current;
    lastRun.current = { sessionId: session?.id, running };
    if (!session?.id || previous.sessionId !== session.id || !previous.running || running) return;
    const next = queuedFor(stateRef.current.queue, session.id)[0];
    if (!next) return;
    setSelectedRequest(undefined);
    if (socketSend({ type: "send_message", sessionId: session.id, text: next.text }))
      dispatch({ type: "message_sent", sessionId: session.id, text: next.text, queuedId: next.id });
  }, [running, session?.id, socketSend]);

  useEffect(() => {
    document.documentElement.style.fontSize = presenter ? "20px" : "";
  }, [presenter]);

  // Escape stops the running turn from anywhere, so a presenter never needs the mouse for it. Menus and
  // dialogs that close on Escape call preventDefault first, and window listeners run after theirs.
  useEffect(() => {
    if (!running || dialogOpen || addSkillOpen || state.confirmation) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || event.defaultPrevented) return;
      event.preventDefault();
      const id = stateRef.current.session?.id;
      if (id) send({ type: "cancel", sessionId: id });
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [running, dialogOpen, addSkillOpen, state.confirmation, send]);

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
  const runTool = (tool: string, input: unknown) => {
    consoleCounter.current += 1;
    const requestId = `console-${Date.now()}-${consoleCounter.current}`;
    dispatch({ type: "console_started", requestId, tool, input });
    sessionCommand((sessionId) => ({ type: "run_tool", sessionId, requestId, tool, input }));
  };

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

  // Stable callbacks, so selecting a request in the inspector does not re-render a long chat (memo).
  const chatHandlers = useMemo(
    () => ({
      /** Sends, or queues while the session's run is going; false (the text stays in the box) if neither. */
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
        setSelectedRequest(undefined);
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
    [sessionCommand, socketSend],
  );

  // The server answers export_session with the JSONL log; hand it to the browser as a download.
  useEffect(() => {
    const exported = state.pendingExport;
    if (!exported) return;
    const link = document.createElement("a");
    link.href = URL.createObjectURL(
      new Blob([exported.jsonl], { type: exported.mimeType ?? "application/x-ndjson" }),
    );
    link.download = exported.fileName;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    dispatch({ type: "export_done" });
  }, [state.pendingExport]);

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
  // Memoized so the memoized chat re-renders only when its own parts change.
  // The queue and the open session are all it reads.
  const queued = useMemo(() => queuedMessages(state), [state.queue, session?.id]);
  const replaySettings = session?.settings;
  const replayTurns = session?.turns;
  const replayRequests = session?.requests;
  const replay = useMemo(
    () =>
      replaySettings && replayTurns && replayRequests
        ? replayState({ settings: replaySettings, turns: replayTurns, requests: replayRequests })
        : undefined,
    [replaySettings, replayTurns, replayRequests],
  );

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
        <TrustPrompt
          trust={trustToAsk(state)!}
          onTrust={(answer) =>
            sessionCommand((sessionId) => ({ type: "trust_folder", sessionId, ...answer }))
          }
          onKeepUntrusted={() => dispatch({ type: "trust_prompt", dismissed: true })}
        />
      )}
      {state.connection === "wrong_token" && <WrongTokenBanner />}
      <ErrorList errors={visibleErrors} onDismiss={(id) => dispatch({ type: "dismiss_error", id })} />
      {session && (
        <BranchBanner
          session={session}
          onOpenOrigin={(id) => {
            setSelectedRequest(undefined);
            send({ type: "open_session", sessionId: id });
          }}
          onCompare={openCompare}
        />
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
              {skillDetail && session ? (
                <SkillDetail
                  skill={skillDetail}
                  figures={session.skillFigures?.[skillDetail.name]}
                  onNeedFigures={needSkillFigures}
                  consoleResults={Object.values(session.consoleResults)}
                  registeredTools={session.registeredTools}
                  lint={catalog?.lint.filter((note) => note.path === skillDetail.entryPath) ?? []}
                  honourAllowedTools={session.settings.honourAllowedTools === true}
                  mcpSkillGrants={session.settings.mcpSkillGrants ?? noSkills}
                  onGrantAllowedTools={(key, granted) => {
                    const grants = (session.settings.mcpSkillGrants ?? []).filter((entry) => entry !== key);
                    const settings = { mcpSkillGrants: granted ? [...grants, key] : grants };
                    sessionCommand((sessionId) => ({ type: "update_session", sessionId, settings }));
                  }}
                  onClose={() => setSelectedSkill(undefined)}
                  onRunTool={runTool}
                />
              ) : (
                <div className="flex h-full min-h-0 flex-col">
                  {/* Clipped: the catalog's list scrolls inside its own box, never over the MCP panel. */}
                  <div className="min-h-0 flex-1 overflow-hidden">
                    <CatalogPanel
                      catalog={catalog}
                      workdir={session?.settings.workdir}
                      stageOf={(skill) => stageOf(state, skill)}
                      reloadFeed={session?.reloadFeed ?? []}
                      selectedSkill={selectedSkill}
                      onSelectSkill={setSelectedSkill}
                      skillResources={Object.values(session?.skillResources ?? {})}
                      onReload={() => sessionCommand((sessionId) => ({ type: "reload_catalog", sessionId }))}
                      onAddSkill={session ? () => setAddSkillOpen(true) : undefined}
                    />
                  </div>
                  {session && (
                    <div className="max-h-[50%] shrink-0 overflow-auto border-t border-slate-200">
                      <McpPanel
                        servers={session.mcp?.servers ?? []}
                        warnings={session.mcp?.warnings ?? []}
                        consoleResults={Object.values(session.consoleResults)}
                        onReconnect={(server) =>
                          sessionCommand((sessionId) => ({ type: "mcp_reconnect", sessionId, server }))
                        }
                        onRunTool={runTool}
                      />
                    </div>
                  )}
                </div>
              )}
            </PanelBoundary>
          </aside>
        )}
        <main className="min-h-0 [contain:strict]" aria-label="Chat">
          <PanelBoundary name="chat">
            <MemoChatPanel
              sessionId={session?.id}
              queued={queued}
              replay={replay}
              onRemoveQueued={chatHandlers.onRemoveQueued}
              onStopAndSend={chatHandlers.onStop}
              turns={chatTurns(state)}
              toolCalls={toolCallsById(state)}
              pendingApprovals={pendingApprovalIds(state)}
              manualTurn={manualTurn(state)}
              skills={catalog?.skills ?? noSkills}
              running={isRunning(state)}
              connected={state.connection === "open" && !!session}
              highlightRequest={highlightRequest}
              onSend={chatHandlers.onSend}
              onStop={chatHandlers.onStop}
              onAnswer={chatHandlers.onAnswer}
              onManualResponse={chatHandlers.onManualResponse}
              onSelectRequest={selectRequestFromChat}
            />
          </PanelBoundary>
        </main>
        {panels.inspector && (
          <aside className="min-h-0 border-l border-slate-200 [contain:strict]" aria-label="Prompt inspector">
            <PanelBoundary name="inspector">
              <InspectorPanel
                requests={requestsOf(state)}
                selectedIndex={selectedRequest}
                onSelect={setSelectedRequest}
                onShowTurn={setHighlightRequest}
                skillResources={Object.values(session?.skillResources ?? {})}
                onEditResend={setEditingRequest}
                onRerun={(index) => forkRequest(index, "rerun", [])}
                onCompare={openCompare}
                {...(session?.cacheStats ? { cacheStats: session.cacheStats } : {})}
              />
            </PanelBoundary>
          </aside>
        )}
      </div>
      {dialogOpen && (
        <NewSessionDialog
          providers={state.providers}
          defaults={{
            ...session?.settings,
            workdir: newSessionWorkdir(session?.settings.workdir, state.defaultWorkdir),
          }}
          onCancel={() => setDialogOpen(false)}
          onCreate={(settings: Partial<SessionSettings>, confirm: SessionConfirmation[]) => {
            setDialogOpen(false);
            setSelectedRequest(undefined);
            send({ type: "create_session", settings, ...(confirm.length ? { confirm } : {}) });
          }}
        />
      )}
      {addSkillOpen && session && (
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
      )}
      {labOpen && session && (
        <TriggerLabContainer session={session} send={send} onClose={() => setLabOpen(false)} />
      )}
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
      {state.confirmation && (
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
      )}
    </div>
  );
}
