// One conversation: its workspace (catalog, registry, active skills), history, provider, permission engine
// and approvals, one run at a time, an ordered event stream and its JSONL log. Closing a browser tab only
// drops a subscription; the session and its run go on.
import { PlaygroundError, errorMessage } from "../errors/index.ts";
import type { ChatMessage, ToolResult } from "../protocol/model.ts";
import type { ApprovalAnswer } from "../protocol/permission.ts";
import type { RequestSnapshot, RunnerEvent } from "../protocol/runner-events.ts";
import type { ProviderInfo, SessionEvent, SessionSettings, SessionSummary } from "../protocol/wire.ts";
import type { PermissionHook } from "../permission/types.ts";
import { grantsSomething, trustWorthShowing } from "../permission/trust.ts";
import { ManualProvider } from "../providers/manual.ts";
import { messageFigures } from "../prompt/segments.ts";
import type { ModelRequest, Provider } from "../providers/types.ts";
import { RequestCounter, runUserMessage } from "../runner/index.ts";
import { sandboxState, type SandboxSettings } from "../tools/sandbox.ts";
import { Approvals } from "./approvals.ts";
import { catalogDiffEvent, catalogSnapshotEvent } from "./catalog-events.ts";

import {
  EventStream,
  type EventListener,
  type SequencedEvent,
  type SerializedEvent,
} from "./event-stream.ts";
import type { SessionLogWriter } from "./session-log.ts";
import { changedSettings, restoreActiveSkills, restoredState } from "./session-restore.ts";
import { sameJson } from "./same-json.ts";
import type { PermissionEvaluator, SessionParts, SessionWorkspace } from "./session-types.ts";
import { SkillWatcher } from "./skill-watcher.ts";
import { AgentWriteGuard, HELD_RELOAD_MESSAGE } from "./agent-write-guard.ts";
import { runConsoleCall } from "./tool-console.ts";
import { RUN_IN_PROGRESS, TurnGate } from "./turn-gate.ts";

export interface SessionInit {
  id: string;
  createdAt: string;
  settings: SessionSettings;
  home: string;
  parts: SessionParts;
  writer: SessionLogWriter;
  /** Events read back from the log when a session is reopened. */
  restored?: SequencedEvent[];
  /** Watch the skill layers for live reload (off in a few tests). */
  watch?: boolean;
  /** The server's providers, for the default model when the provider changes. */
  providers?: () => ProviderInfo[];
  log: (line: string) => void;
}

export class Session {
  readonly id: string;
  readonly createdAt: string;
  private settings: SessionSettings;
  private updatedAt: string;
  private readonly history: ChatMessage[];
  private readonly approvals = new Approvals();
  private readonly stream: EventStream;
  private readonly requestCounter: RequestCounter;
  private provider: Provider | undefined;
  private permission!: PermissionEvaluator;
  private workspace!: SessionWorkspace;
  private watcher: SkillWatcher | undefined;
  /** Set from send to the run's stop; the log flush after it does not block the next message. */
  private readonly turns = new TurnGate();
  private readonly consoleCalls = new Set<AbortController>();
  private lastSnapshot: RequestSnapshot | undefined;
  private pendingManualIndex: number | undefined;
  private reloading: Promise<void> = Promise.resolve();
  private readonly agentWrites = new AgentWriteGuard();
  private closed = false;
  /** Without `restored`: the events read back are not kept once the session has started. */
  private readonly init: Omit<SessionInit, "restored">;

  private constructor(init: SessionInit) {
    const { restored = [], ...rest } = init;
    this.init = rest;
    this.id = init.id;
    this.createdAt = init.createdAt;
    this.updatedAt = init.createdAt;
    this.stream = new EventStream(init.writer, restored);
    const state = restoredState(restored, init.settings);
    this.history = state.history;
    this.settings = state.settings;
    this.requestCounter = new RequestCounter(state.lastRequestIndex);
  }

  /** Builds the workspace, restores active skills from the log, and emits a fresh catalog snapshot. */
  static async start(init: SessionInit): Promise<Session> {
    const session = new Session(init);
    session.workspace = await init.parts.createWorkspace({ workdir: init.settings.workdir, home: init.home });
    session.permission = await init.parts.createPermission({
      mode: init.settings.permissionMode,
      workdir: session.workspace.workdir,
      home: init.home,
      allowNetwork: session.settings.allowNetwork === true,
    });
    session.applySandbox();
    for (const problem of session.permission.loadProblems ?? [])
      session.emitError("permission_settings", problem, { replay: true });
    // The trust prompt's input: sent when the folder grants something, or when it differs from the log's.
    const trust = session.permission.trust;
    const logged = init.restored?.findLast((entry) => entry.event.type === "trust_state")?.event;
    if (
      trust &&
      (grantsSomething(trust.grants) || logged) &&
      !sameJson(logged, { type: "trust_state", trust })
    )
      session.emit({ type: "trust_state", trust });
    await restoreActiveSkills(session.workspace, init.restored ?? [], (problem) =>
      session.emitError("restore_failed", problem, { replay: true }),
    );
    session.emitCatalogSnapshot();
    if (init.watch !== false) {
      const { builtin, user, project } = session.workspace.layers;
      session.watcher = new SkillWatcher(
        [builtin, user, project],
        () => session.onSkillFilesChanged(),
        init.log,
      );
    }
    return session;
  }

  get lastSeq(): number {
    return this.stream.lastSeq;
  }

  get isRunning(): boolean {
    return this.turns.isRunning;
  }

  /** Nothing would be lost by closing it now: no run, no tool, no approval, nobody watching. */
  get isIdle(): boolean {
    return (
      !this.isRunning &&
      this.consoleCalls.size === 0 &&
      this.approvals.size === 0 &&
      this.stream.subscriberCount === 0
    );
  }

  get workdir(): string {
    return this.workspace.workdir;
  }

  summary(): SessionSummary {
    const firstUser = this.history.find((message) => message.role === "user");
    return {
      id: this.id,
      title: firstUser ? firstUser.content.slice(0, 80) : "New session",
      createdAt: this.createdAt,
      updatedAt: this.updatedAt,
      settings: { ...this.settings },
      messageCount: this.history.length,
      running: this.isRunning,
      ...(trustWorthShowing(this.permission?.trust) ? { trust: this.permission.trust } : {}),
      sandbox: sandboxState(this.settings.allowNetwork === true),
    };
  }

  /** The sandbox for this session's processes, from the settings as they are when a run (or call) starts. */
  private sandboxSettings(): SandboxSettings {
    return { network: this.settings.allowNetwork === true, homes: [this.init.home] };
  }

  /** Tells the permission engine the sandbox state (part of every exec trace). */
  private applySandbox(): void {
    this.permission.setSandbox?.(sandboxState(this.settings.allowNetwork === true));
  }

  /**
   * The session_opened snapshot for a client whose replay starts after `replayAfterSeq`. A replay from
   * the start carries every history_appended event, so the snapshot then leaves the history out
   * (`historyLength` still counts it); a client resuming after seq > 0 gets the history here.
   */
  openedSnapshot(replayAfterSeq = 0): SequencedEvent {
    const withHistory = replayAfterSeq > 0;
    return {
      seq: this.stream.lastSeq,
      event: {
        type: "session_opened",
        session: this.summary(),
        ...(withHistory
          ? {
              history: structuredClone(this.history),
              historyFigures: this.history.map((message) => messageFigures(message)),
            }
          : {}),
        historyLength: this.history.length,
        activeSkills: this.workspace.activeSkills.names(),
      },
    };
  }

  /**
   * Stored events with seq > afterSeq, as JSON text: from memory, and from the log for older ones the
   * bounded memory buffer no longer holds (text deltas are not in the log).
   */
  eventsAfter(afterSeq: number): Promise<SerializedEvent[]> {
    return this.stream.replay(afterSeq);
  }

  subscribe(listener: EventListener): () => void {
    return this.stream.subscribe(listener);
  }

  private emit(event: SessionEvent): void {
    if (this.closed) return;
    this.updatedAt = new Date().toISOString();
    this.agentWrites.observe(event);
    this.stream.emit(event);
  }

  /** The watcher saw a change: reload live, unless this session's own tool calls may have made it (P10). */
  private onSkillFilesChanged(): void {
    const verdict = this.agentWrites.onWatchChange();
    if (verdict === "reload") void this.reloadCatalog("watch");
    else if (verdict === "hold_and_tell")
      this.emitError("catalog_reload_held", HELD_RELOAD_MESSAGE, { replay: true });
  }

  /**
   * Errors the user must see but that are not part of the conversation (never stored in the log).
   * `replay: true` keeps them for clients that open the session later (problems found while starting).
   */
  emitError(code: string, message: string, options: { replay?: boolean } = {}): void {
    if (this.closed) return;
    this.stream.emit({ type: "session_error", code, message }, { keep: options.replay ? "memory" : "none" });
  }

  private permissionHook(): PermissionHook {
    return {
      evaluate: (check) => this.permission.evaluate(check),
      ask: (request, signal) => this.approvals.ask(request, signal),
      rememberSessionAllow: (check) => this.permission.rememberSessionAllow(check),
    };
  }

  private onManualRequest(_request: ModelRequest): void {
    const snapshot = this.lastSnapshot;
    if (!snapshot) return;
    this.pendingManualIndex = snapshot.requestIndex;
    this.emit({
      type: "manual_turn_requested",
      runId: snapshot.runId,
      requestIndex: snapshot.requestIndex,
      snapshot,
    });
  }

  private async currentProvider(): Promise<Provider> {
    if (!this.provider) {
      this.provider = await this.init.parts.createProvider({
        settings: this.settings,
        onManualRequest: (request) => this.onManualRequest(request),
      });
    }
    return this.provider;
  }

  private onRunnerEvent(event: RunnerEvent): void {
    if (event.type === "request") this.lastSnapshot = event.snapshot;
    if (event.type === "stop") this.pendingManualIndex = undefined;
    this.turns.observe(event);
    this.emit(event);
  }

  sendMessage(text: string): void {
    if (this.closed) throw new PlaygroundError("not_found", `session ${this.id} is closed`);
    this.turns.start((signal) => this.execute(text, signal));
  }

  /** Resolves when the current run (if any) has ended and its log records are written. */
  async idle(): Promise<void> {
    await this.turns.idle();
  }

  private async execute(text: string, signal: AbortSignal): Promise<void> {
    try {
      const provider = await this.currentProvider();
      const { workspace } = this;
      // A changed "allow network" setting takes effect here, from the next run on.
      this.applySandbox();
      await runUserMessage(
        text,
        {
          provider,
          registry: workspace.registry,
          permission: this.permissionHook(),
          prompt: workspace.prompt,
          workdir: workspace.workdir,
          history: this.history,
          onEvent: (event) => this.onRunnerEvent(event),
          disclosure: this.settings.disclosure,
          requestCounter: this.requestCounter,
          skills: workspace.catalog,
          sandbox: this.sandboxSettings(),
        },
        { signal, refreshToolsEachIteration: this.settings.refreshToolsEachIteration === true },
      );
    } catch (error) {
      const code = error instanceof PlaygroundError ? error.code : "internal";
      this.emitError(code, `the run could not start or failed: ${errorMessage(error)}`);
    }
    await this.flushLog();
  }

  /** fsync at the end of each turn; a failure is shown, and the writer keeps retrying. */
  private async flushLog(): Promise<void> {
    try {
      await this.init.writer.flush();
    } catch (error) {
      this.emitError("io_error", `the session log is not fully written yet: ${errorMessage(error)}`);
    }
  }

  async flushForExport(): Promise<void> {
    await this.flushLog();
  }

  cancel(): void {
    this.turns.cancel();
    for (const controller of this.consoleCalls) controller.abort();
  }

  answerApproval(callId: string, answer: ApprovalAnswer): void {
    this.approvals.answer(callId, answer);
  }

  manualResponse(
    requestIndex: number,
    response: { text: string; toolCalls: { name: string; input: unknown }[] },
  ): void {
    const provider = this.provider;
    if (!(provider instanceof ManualProvider)) {
      throw new PlaygroundError("invalid_arguments", "this session does not use the manual provider");
    }
    if (this.pendingManualIndex !== requestIndex) {
      throw new PlaygroundError(
        "invalid_arguments",
        `no manual turn is waiting for request #${requestIndex}` +
          (this.pendingManualIndex ? ` (request #${this.pendingManualIndex} is waiting)` : ""),
      );
    }
    const outcome = provider.respond(response);
    if (!outcome.ok) throw new PlaygroundError("invalid_arguments", outcome.error);
    this.pendingManualIndex = undefined;
  }

  /** The catalog's tool console: one call through the same permission path as the model's calls. */
  runTool(requestId: string, tool: string, input: unknown): void {
    const controller = new AbortController();
    this.consoleCalls.add(controller);
    const call = async () => {
      if (!this.isRunning) this.applySandbox();
      await runConsoleCall({
        requestId,
        tool,
        input,
        registry: this.workspace.registry,
        permission: this.permissionHook(),
        workdir: this.workspace.workdir,
        signal: controller.signal,
        sandbox: this.sandboxSettings(),
        emit: (event) => this.emit(event),
        emitError: (code, message) => this.emitError(code, message),
      });
      await this.flushLog();
    };
    // Detached from the frame that asked for it, so a failure here must end as a log line, not as an
    // unhandled rejection that would take the whole server down.
    call()
      .catch((error: unknown) =>
        this.init.log(`tool console call ${tool} in session ${this.id} failed: ${errorMessage(error)}`),
      )
      .finally(() => this.consoleCalls.delete(controller));
  }

  private emitCatalogSnapshot(): void {
    const running = this.isRunning ? this.lastSnapshot : undefined;
    this.emit(
      catalogSnapshotEvent(
        this.workspace,
        running?.tools.map((tool) => tool.name),
      ),
    );
  }

  /** Rescans the three layers; pushes the diff (with warnings new since the last scan) and a snapshot. */
  reloadCatalog(trigger: "watch" | "manual"): Promise<void> {
    if (trigger === "manual") this.agentWrites.userReloaded();
    const next = this.reloading.then(async () => {
      if (this.closed) return;
      try {
        this.emit(await catalogDiffEvent(this.workspace, trigger));
        this.emitCatalogSnapshot();
      } catch (error) {
        this.emitError("io_error", `catalog reload failed: ${errorMessage(error)}`);
      }
    });
    this.reloading = next;
    return next;
  }

  /** Trusts the workdir: its own allow rules apply from the next tool call (server/permission/trust.ts). */
  async trustFolder(remember: boolean): Promise<void> {
    if (!this.permission.trustFolder)
      throw new PlaygroundError("invalid_arguments", "this session's permission engine has no folder trust");
    const { trust, problems } = await this.permission.trustFolder(remember);
    for (const problem of problems) this.emitError("permission_settings", problem);
    this.emit({ type: "trust_state", trust });
    await this.flushLog();
  }

  async updateSettings(changes: Partial<Omit<SessionSettings, "workdir">>): Promise<void> {
    const previous = this.settings;
    const next = changedSettings(
      previous,
      changes,
      (provider) => this.init.providers?.().find((info) => info.name === provider)?.defaultModel,
    );
    if (
      next.provider !== previous.provider ||
      next.model !== previous.model ||
      next.scenario !== previous.scenario
    ) {
      if (this.isRunning)
        throw new PlaygroundError("run_in_progress", `${RUN_IN_PROGRESS} before changing the model`);
      this.provider = undefined;
    }
    if (next.permissionMode !== previous.permissionMode && this.permission.setMode) {
      this.permission.setMode(next.permissionMode);
    } else if (next.permissionMode !== previous.permissionMode) {
      this.permission = await this.init.parts.createPermission({
        mode: next.permissionMode,
        workdir: this.workspace.workdir,
        home: this.init.home,
      });
      this.applySandbox();
    }
    this.settings = next;
    this.emit({ type: "settings_changed", settings: { ...next } });
    await this.flushLog();
  }

  /** Stops the run and its tools, stops watching, and writes out the log. */
  async close(): Promise<void> {
    this.cancel();
    await this.idle();
    this.closed = true;
    this.watcher?.close();
    await this.init.writer.close();
  }
}
