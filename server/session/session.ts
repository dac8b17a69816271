// One conversation: its workspace (catalog, registry, active skills), history, one run at a time, an
// ordered event stream and its JSONL log. The provider, the permission engine and what waits for the
// person (approvals, manual turns) live in SessionEngines; the summary is SessionSummaryFold's. Closing a
// browser tab only drops a subscription; the session and its run go on.
import { statSync } from "node:fs";
import path from "node:path";
import { PlaygroundError, errorMessage, type ErrorType } from "../errors/index.ts";
import { demoTasksFor } from "../shared/demo-tasks.ts";
import { WORKDIR_GONE_ADVICE, workdirProblem } from "./workdir-state.ts";
import type { ChatMessage } from "../protocol/model.ts";
import type { ApprovalAnswer } from "../protocol/permission.ts";
import type { RequestSnapshot, RunnerEvent } from "../protocol/runner-events.ts";
import type { TrustAnswer } from "../protocol/sandbox.ts";
import type { ProviderInfo, SessionEvent, SessionSettings, SessionSummary } from "../protocol/wire.ts";
import { grantsSomething } from "../permission/trust.ts";
import type { InputReply } from "../providers/types.ts";
import type { TokenCounter } from "../prompt/segments.ts";
import { CatalogFigures, createRequestHooks } from "./request-hooks.ts";
import { RequestCounter, runUserMessage } from "../runner/index.ts";
import { SecretScope, type SecretRedactor } from "../providers/redact.ts";
import type { ProcessRunner } from "../tools/process-runner.ts";
import type { SandboxSettings } from "../tools/sandbox.ts";
import { catalogDiffEvent, catalogSnapshotEvent } from "./catalog-events.ts";
import type { CatalogLayers } from "../skills/types.ts";

import {
  EventStream,
  type EventListener,
  type SequencedEvent,
  type SerializedEvent,
} from "./event-stream.ts";
import type { SessionLogWriter } from "./session-log.ts";
import type { StreamInput } from "./request-writer.ts";
import { changedSettings, restoreActiveSkills, restoredState } from "./session-restore.ts";
import { sameJson } from "./same-json.ts";
import { SessionCache } from "./session-cache.ts";
import type { CacheLedger } from "../cache/cache-ledger.ts";
import { RestoredCache } from "./restored-cache.ts";
import { createCacheLedger, loadCacheConfig } from "../cache/rules-file.ts";
import { SessionEngines } from "./session-engines.ts";
import { SessionSummaryFold } from "./session-summary.ts";
import type { SessionParts, SessionWorkspace } from "./session-types.ts";
import { SkillWatcher } from "./skill-watcher.ts";
import { cachedSkillAllowRules } from "./skill-allows.ts";
import type { ScopedAllowRule } from "../permission/scoped-allows.ts";
import { AgentWriteGuard, HELD_RELOAD_MESSAGE, type ToolActivity } from "./agent-write-guard.ts";
import { SessionMcp } from "./session-mcp.ts";
import { runConsoleCall } from "./tool-console.ts";
import { SessionLab, type StartLabRequest } from "./session-lab.ts";
import { SessionOptimizer, type StartOptimizerRequest } from "./session-optimizer.ts";
import type { ExperimentOptions } from "./background-experiment.ts";
import type { ClientProfileName } from "../protocol/trigger-lab.ts";
import { TurnGate } from "./turn-gate.ts";
import type { BranchOrigin } from "../protocol/branch.ts";
import { withRequestEdits } from "../runner/request-overrides.ts";
import { originDate, seedBranch, type BranchSeed } from "./session-branch.ts";
import { checkBranchRequest } from "./branch-check.ts";
import { skillFigures } from "../runner/skill-figures.ts";
import type { SkillFigures } from "../protocol/catalog.ts";
import { PLAYGROUND_VERSION } from "./workspace.ts";

export { LEDGER_RESTORE_DELAY_MS } from "./restored-cache.ts";

/** How a run differs from a plain run of a user message: a branch's first (session-branch.ts), or a plan-mode run. */
interface FirstRun {
  continues?: boolean;
  /** `cli run --plan`: this run offers read-only tools only. */
  planMode?: boolean;
  visibleTools?: readonly string[];
  environmentDate?: string;
}

export interface SessionInit {
  id: string;
  createdAt: string;
  settings: SessionSettings;
  /** The log header's title (the first user message replaces the untitled one). */
  title?: string;
  home: string;
  parts: SessionParts;
  writer: SessionLogWriter;
  /** Events read back from the log when a session is reopened. */
  restored?: SequencedEvent[];
  /** Watch the skill layers for live reload (off in a few tests). */
  watch?: boolean;
  /** The server's providers, for the default model when the provider changes. */
  providers?: () => ProviderInfo[];
  /** Starts (and at shutdown ends) the processes this session's tools run: the composition root's. */
  processes: ProcessRunner;
  /** The composition root's token counter: every figure this session shows. */
  tokens: TokenCounter;
  /** The composition root's provider keys (this session's SecretScope starts from them). */
  redactor: SecretRedactor;
  /** Set on a branch (its log header's): its edits apply to every request it sends. */
  branch?: BranchOrigin;
  log: (line: string) => void;
  /** The server's tool calls, shared by every session's guard (agent-write-guard.ts, the shared-folder rule). */
  toolActivity?: ToolActivity;
}

export class Session {
  readonly id: string;
  readonly createdAt: string;
  private settings: SessionSettings;
  private readonly history: ChatMessage[];
  private readonly summaryFold: SessionSummaryFold;
  private readonly stream: EventStream;
  /** Provider keys and the credentials of this session's workdir configuration (no other session's). */
  private readonly secrets: SecretScope;
  private readonly requestCounter: RequestCounter;
  private engines!: SessionEngines;
  private workspace!: SessionWorkspace;
  private watcher: SkillWatcher | undefined;
  /** Set from send to the run's stop; the log flush after it does not block the next message. */
  private readonly turns = new TurnGate();
  private readonly consoleCalls = new Set<AbortController>();
  private lastSnapshot: RequestSnapshot | undefined;
  private reloading: Promise<void> = Promise.resolve();
  private readonly agentWrites: AgentWriteGuard;
  private lab: SessionLab | undefined;
  private optimizerPart: SessionOptimizer | undefined;
  private mcp: SessionMcp | undefined;
  /** The cache's requests and the ledger, restored from the log when first used (restored-cache.ts). */
  private readonly restoredCache: RestoredCache;
  private closed = false;
  /** Without `restored`: the events read back are not kept once the session has started. */
  private readonly init: Omit<SessionInit, "restored">;

  private constructor(init: SessionInit) {
    const { restored = [], ...rest } = init;
    this.init = rest;
    this.id = init.id;
    this.createdAt = init.createdAt;
    this.agentWrites = new AgentWriteGuard(init.toolActivity);
    this.secrets = new SecretScope(init.redactor);
    this.stream = new EventStream(init.writer, restored, this.secrets, init.tokens);
    this.summaryFold = new SessionSummaryFold({
      id: init.id,
      createdAt: init.createdAt,
      settings: init.settings,
      ...(init.title !== undefined ? { title: init.title } : {}),
      ...(init.branch ? { branch: init.branch } : {}),
    });
    for (const { event } of restored) this.summaryFold.observe(event);
    const state = restoredState(restored, init.settings);
    this.history = state.history;
    this.settings = state.settings;
    // A branch numbers on from the request it forks: a fork of #7 sends #8 first.
    this.requestCounter = new RequestCounter(
      state.lastRequestIndex > 0 ? state.lastRequestIndex : (init.branch?.requestIndex ?? 0),
    );
    this.restoredCache = new RestoredCache(
      new SessionCache(
        init.id,
        init.home,
        (message) => this.emitError("io_error", message),
        init.parts.cacheAsForAnyProvider === true,
      ),
      createCacheLedger(loadCacheConfig({ home: init.home })),
      restored,
      {
        observeRestored: () => this.stream.observeRestored(),
        tokens: init.tokens,
        reportDamaged: (message) => this.emitError("log_damaged", message, { replay: true }),
      },
    );
  }

  /** The requests shown so far, as the cache predicts the next one from (restored-cache.ts). */
  private get cache(): SessionCache {
    return this.restoredCache.cache;
  }

  /** The cache ledger, with every logged event folded in first (restored-cache.ts). */
  private get ledger(): CacheLedger {
    return this.restoredCache.ledger;
  }

  /** Builds the workspace, restores active skills from the log, and emits a fresh catalog snapshot. */
  static async start(init: SessionInit): Promise<Session> {
    const session = new Session(init);
    session.workspace = await init.parts.createWorkspace({
      workdir: init.settings.workdir,
      home: init.home,
      secrets: session.secrets,
      exitHooks: init.processes.exitHooks,
      tokens: init.tokens,
      // A reopened session whose folder is gone still opens: its log is readable, it refuses to run.
      missingOk: init.restored !== undefined,
    });
    if (session.settings.lintProfile) session.workspace.catalog.setProfile(session.settings.lintProfile);
    session.engines = await SessionEngines.create(
      {
        parts: init.parts,
        home: init.home,
        workdir: session.workspace.workdir,
        emit: (event) => session.emit(event),
        currentRequest: () => session.lastSnapshot,
        scopedAllows: () => session.skillAllows(),
      },
      session.settings,
    );
    for (const problem of session.engines.loadProblems)
      session.emitError("permission_settings", problem, { replay: true });
    // The trust prompt's input: sent when the folder grants something, or when it differs from the log's.
    const trust = session.engines.trust;
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
    // The catalog as the log last announced it: a reopen whose catalog is unchanged logs no second copy
    // (a snapshot is tens of KB; one per page load grew a log by that much each reload).
    session.lastCatalogEvent = init.restored?.findLast(
      (entry) => entry.event.type === "catalog_snapshot",
    )?.event;
    session.emitCatalogSnapshot({ onlyIfChanged: true });
    // MCP servers start in the background; the workdir's own only once the folder is trusted.
    session.mcp = new SessionMcp({
      workspace: session.workspace,
      emit: (event) => session.emit(event),
      emitError: (code, message) => session.emitError(code, message, { replay: true }),
      catalogChanged: () => session.emitCatalogSnapshot({ onlyIfChanged: true }),
    });
    session.mcp.start(trust ?? false, session.settings.allowNetwork === true);
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

  private readonly allowRules = cachedSkillAllowRules();

  /** The loaded skills' allowed-tools as allow rules, when this session honours them (skill-allows.ts). */
  private skillAllows(): readonly ScopedAllowRule[] {
    return this.allowRules({
      honour: this.settings.honourAllowedTools === true,
      trusted: this.engines?.trust?.trusted === true,
      ...(this.settings.mcpSkillGrants ? { mcpGrants: this.settings.mcpSkillGrants } : {}),
      active: this.workspace.activeSkills.list(),
      catalog: this.workspace.catalog,
    });
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
      this.engines.waitingForPerson === 0 &&
      this.stream.subscriberCount === 0
    );
  }

  get workdir(): string {
    return this.workspace.workdir;
  }

  /** The folders of the three skill layers this session's catalog scans (where an install goes). */
  get skillLayers(): CatalogLayers {
    return { ...this.workspace.layers };
  }

  summary(): SessionSummary {
    return this.summaryFold.summary({
      running: this.isRunning,
      ...(this.engines?.trust ? { trust: this.engines.trust } : {}),
    });
  }

  /** The sandbox for this session's processes, from the settings as they are when a run (or call) starts. */
  private sandboxSettings(): SandboxSettings {
    return { network: this.settings.allowNetwork === true, homes: [this.init.home] };
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
        // The demo tasks only here: they are read from the workdir as it is now, not from the log.
        session: {
          ...this.summary(),
          demoTasks: demoTasksFor((relative) => isFileIn(this.settings.workdir, relative)),
          ...(workdirProblem(this.settings.workdir) ? { workdirMissing: true as const } : {}),
        },
        ...(withHistory
          ? {
              history: structuredClone(this.history),
              historyFigures: this.history.map((message) => this.init.tokens.messageFigures(message)),
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
    const unsubscribe = this.stream.subscribe(listener);
    return () => {
      unsubscribe();
      this.releaseIfIdle();
    };
  }

  /** A session nobody watches and nothing runs in keeps no replay buffer: its log has the events. */
  private releaseIfIdle(): void {
    if (!this.closed && this.isIdle) this.stream.releaseMemory();
  }

  private emit(event: StreamInput): void {
    if (this.closed) return;
    // A streamed answer's deltas do not move the summary's time: its message, appended next, does.
    this.summaryFold.observe(event, event.type === "text_delta" ? undefined : new Date().toISOString());
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
  emitError(code: ErrorType, message: string, options: { replay?: boolean; runFailed?: boolean } = {}): void {
    if (this.closed) return;
    this.stream.emit(
      { type: "session_error", code, message, ...(options.runFailed ? { runFailed: true as const } : {}) },
      { keep: options.replay ? "memory" : "none" },
    );
  }

  private onRunnerEvent(event: RunnerEvent): void {
    if (event.type === "request") {
      this.lastSnapshot = event.snapshot;
      this.cache.record(event.snapshot);
    }
    // The server refused the diagnostics parameter: the session stops asking (the notice says so).
    if (event.type === "provider_notice" && event.code === "cache_diagnostics_rejected") {
      this.settings = { ...this.settings, cacheDiagnostics: false };
      this.emit(event);
      this.emit({ type: "settings_changed", settings: { ...this.settings } });
      return;
    }
    // A branch's first request, checked against the origin's before the stream sees it.
    const check =
      event.type === "request" && this.pendingBranchCheck
        ? checkBranchRequest({
            ...this.pendingBranchCheck,
            branch: { ...event.snapshot, messages: event.snapshot.messages ?? this.history.slice() },
            tokens: this.init.tokens,
          })
        : undefined;
    if (check) this.pendingBranchCheck = undefined;
    if (event.type === "stop") this.engines.runStopped();
    this.turns.observe(event);
    this.emit(event);
    if (check) this.emit({ type: "branch_checked", check });
  }

  /** `planMode`: this run offers read-only tools only. */
  sendMessage(text: string, options: { planMode?: boolean } = {}): void {
    if (this.closed) throw new PlaygroundError("not_found", `session ${this.id} is closed`);
    // Refused up front, as create_session refuses the folder: a run there would only see each tool fail.
    const problem = workdirProblem(this.settings.workdir);
    if (problem) throw new PlaygroundError("not_found", `${problem}: ${WORKDIR_GONE_ADVICE}`);
    this.turns.start((signal) => this.execute(text, signal, { planMode: options.planMode === true }));
    this.releaseWhenIdle();
  }

  /** Once the turn has ended (its records written), a session nobody watches lets go of its buffer. */
  private releaseWhenIdle(): void {
    const release = () => this.releaseIfIdle();
    void this.turns.idle().then(release, release);
  }

  /** Resolves when the current run (if any) has ended and its log records are written. */
  async idle(): Promise<void> {
    await this.turns.idle();
  }

  /** Set from a branch's start to its first request: what that request is checked against. */
  private pendingBranchCheck: Omit<Parameters<typeof checkBranchRequest>[0], "branch" | "tokens"> | undefined;

  /**
   * A new branch: its copied conversation and active skills, then its first run: request #N again, sent
   * as it was — the tool list of #N's run (once the MCP servers have started), the date of #N's
   * environment — and checked against #N segment by segment (branch-check.ts).
   */
  async startBranch(seed: BranchSeed): Promise<void> {
    const problems = await seedBranch(
      seed,
      this.workspace,
      this.history,
      (event) => this.emit(event),
      this.init.tokens,
    );
    for (const problem of problems) this.emitError("restore_failed", problem, { replay: true });
    const pinnedDate = originDate(seed.origin);
    this.pendingBranchCheck = {
      origin: seed.origin,
      edits: seed.edits,
      ...(pinnedDate ? { pinnedDate } : {}),
    };
    const first: FirstRun = {
      continues: true,
      visibleTools: seed.origin.tools.map((tool) => tool.name),
      ...(pinnedDate ? { environmentDate: pinnedDate } : {}),
    };
    this.turns.start(async (signal) => {
      // An MCP server's tools were in #N's list: the run waits until each server connected or failed.
      await this.mcpStarted();
      await this.execute("", signal, first);
      // A run that failed before its first request has nothing to check; later runs are not resends.
      this.pendingBranchCheck = undefined;
    });
    this.releaseWhenIdle();
  }

  /** The catalog's figures the request hooks keep across this session's runs (request-hooks.ts). */
  private catalogFigures: CatalogFigures | undefined;

  private async execute(text: string, signal: AbortSignal, first: FirstRun = {}): Promise<void> {
    try {
      const provider = await this.engines.providerFor(this.settings);
      const { workspace } = this;
      // A changed "allow network" setting takes effect here, from the next run on.
      this.engines.applySandbox(this.settings);
      const prompt = this.init.branch
        ? withRequestEdits(workspace.prompt, this.init.branch.edits)
        : workspace.prompt;
      const sandbox = this.sandboxSettings();
      const { skillPlacement, cache } = this.cacheDependencies(provider);
      await runUserMessage(
        text,
        {
          provider,
          registry: workspace.registry,
          permission: this.engines.permissionHook(),
          prompt,
          workdir: workspace.workdir,
          history: this.history,
          onEvent: (event) => this.onRunnerEvent(event),
          disclosure: this.settings.disclosure,
          ...(this.settings.catalogBudget ? { listingBudget: this.settings.catalogBudget } : {}),
          requestCounter: this.requestCounter,
          skills: workspace.catalog,
          skillRoots: () => workspace.activeSkills.resourceRoots(),
          sandbox,
          processes: this.init.processes,
          tokens: this.init.tokens,
          secrets: this.secrets,
          skillPlacement,
          // What the session shows beside each request: figures, eager comparison, cache prediction and
          // ledger, registered-not-visible, the sandbox stamp (request-hooks.ts).
          hooks: createRequestHooks({
            tokens: this.init.tokens,
            registry: workspace.registry,
            eagerBodies: prompt.eagerBodies,
            figures: (this.catalogFigures ??= new CatalogFigures(this.init.tokens)),
            sandbox,
            cache: {
              ...cache,
              ledger: this.ledger,
              diagnostics: this.settings.cacheDiagnostics !== false,
            },
          }),
        },
        {
          signal,
          refreshToolsEachIteration: this.settings.refreshToolsEachIteration === true,
          ...(first.planMode ? { planMode: true } : {}),
          ...(first.continues ? { continueConversation: true } : {}),
          ...(first.visibleTools ? { visibleTools: first.visibleTools } : {}),
          ...(first.environmentDate ? { environmentDate: first.environmentDate } : {}),
        },
      );
    } catch (error) {
      const code = error instanceof PlaygroundError ? error.code : "internal";
      this.emitError(code, `the run could not start or failed: ${errorMessage(error)}`, { runFailed: true });
    }
    await this.flushLog();
  }

  private cacheDependencies(provider: Parameters<SessionCache["dependencies"]>[1]) {
    return this.cache.dependencies(this.settings, provider);
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
    this.engines.answerApproval(callId, answer);
  }

  /** The person's answer to the model turn a provider is waiting for (the manual provider). */
  manualResponse(requestIndex: number, response: InputReply): void {
    this.engines.replyToTurn(requestIndex, response);
  }

  /** The catalog's tool console: one call through the same permission path as the model's calls. */
  runTool(requestId: string, tool: string, input: unknown): void {
    const controller = new AbortController();
    this.consoleCalls.add(controller);
    const call = async () => {
      if (!this.isRunning) this.engines.applySandbox(this.settings);
      await runConsoleCall({
        requestId,
        tool,
        input,
        registry: this.workspace.registry,
        permission: this.engines.permissionHook(),
        workdir: this.workspace.workdir,
        signal: controller.signal,
        sandbox: this.sandboxSettings(),
        processes: this.init.processes,
        tokens: this.init.tokens,
        secrets: this.secrets,
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

  /** The trigger lab (issue 14): its events are live or in memory only, never in the log. */
  private triggerLab(): SessionLab {
    this.lab ??= new SessionLab(this.experimentOptions());
    return this.lab;
  }

  /** What the lab and the optimizer are given: this session's parts, workspace, settings and stream. */
  private experimentOptions(): ExperimentOptions {
    return {
      parts: this.init.parts,
      home: this.init.home,
      workspace: () => this.workspace,
      tokens: this.init.tokens,
      settings: () => this.settings,
      emit: (event, keep) => {
        if (!this.closed) this.stream.emit(event, { keep });
      },
      log: this.init.log,
    };
  }

  startTriggerLab(request: StartLabRequest): void {
    this.triggerLab().start(request);
  }

  cancelTriggerLab(): void {
    this.lab?.cancel();
  }

  /** The description optimizer (issue 25): like the lab, live or in memory only, never in the log. */
  optimizer(): SessionOptimizer {
    this.optimizerPart ??= new SessionOptimizer({
      ...this.experimentOptions(),
      reloadCatalog: () => this.reloadCatalog("manual"),
    });
    return this.optimizerPart;
  }

  startOptimizer(request: StartOptimizerRequest): void {
    this.optimizer().start(request);
  }

  catalogBudget(profile: ClientProfileName, contextWindow?: number): void {
    const report = this.triggerLab().budget(profile, contextWindow);
    if (!this.closed) this.stream.emit({ type: "catalog_budget_report", report }, { keep: "none" });
  }

  /** What listing and loading one skill cost, counted as the requests' segments are (the skill detail). */
  skillFigures(name: string): Promise<SkillFigures> {
    return skillFigures({
      tokens: this.init.tokens,
      catalog: this.workspace.catalog,
      workdir: this.workspace.workdir,
      version: PLAYGROUND_VERSION,
      name,
      ...(this.settings.catalogBudget ? { listingBudget: this.settings.catalogBudget } : {}),
    });
  }

  /** The last catalog_snapshot sent, so a server's state change that leaves the catalog as it was sends none. */
  private lastCatalogEvent: SessionEvent | undefined;

  private emitCatalogSnapshot(options: { onlyIfChanged?: boolean } = {}): void {
    const running = this.isRunning ? this.lastSnapshot : undefined;
    const event = catalogSnapshotEvent(
      this.workspace,
      running?.tools.map((tool) => tool.name),
      this.settings.catalogBudget ?? undefined,
    );
    if (options.onlyIfChanged && this.lastCatalogEvent && sameJson(this.lastCatalogEvent, event)) return;
    this.lastCatalogEvent = event;
    this.emit(event);
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
  async trustFolder(remember: boolean, answer?: TrustAnswer): Promise<void> {
    const { trust, problems } = await this.engines.trustFolder(remember, answer);
    for (const problem of problems) this.emitError("permission_settings", problem);
    this.emit({ type: "trust_state", trust });
    // The folder's own MCP servers start now, as they were trusted (those already running are kept).
    if (trust.trusted) this.mcp?.start(trust);
    await this.flushLog();
  }

  async updateSettings(changes: Partial<Omit<SessionSettings, "workdir">>): Promise<void> {
    const previous = this.settings;
    const next = changedSettings(
      previous,
      changes,
      (provider) => this.init.providers?.().find((info) => info.name === provider)?.defaultModel,
    );
    await this.engines.applySettings(previous, next, this.isRunning);
    this.settings = next;
    // Diagnostics turned on again after a server refused them: ask again.
    if (previous.cacheDiagnostics === false && next.cacheDiagnostics !== false)
      this.ledger.allowDiagnostics();
    // An HTTP MCP server on another machine is reached only while the session allows network.
    if (previous.allowNetwork !== next.allowNetwork) this.mcp?.setSessionNetwork(next.allowNetwork === true);
    this.emit({ type: "settings_changed", settings: { ...next } });
    // The lint profile and the listing budget change which skills are offered, and why not.
    if ((next.lintProfile ?? "lenient") !== (previous.lintProfile ?? "lenient")) {
      this.workspace.catalog.setProfile(next.lintProfile ?? "lenient");
    }
    this.emitCatalogSnapshot({ onlyIfChanged: true });
    // A new "cache as" model: every request shown is predicted again under its rules.
    if (previous.cacheAs !== next.cacheAs) {
      const { model, requests } = this.cache.repredict(next, next.model);
      if (requests.length > 0) {
        // The ledger's figures follow, and each new prediction keeps its request's diagnostics.
        this.emit({ type: "cache_repredicted", model, requests: this.ledger.repredicted(requests) });
        const runId = this.lastSnapshot?.runId;
        if (runId)
          this.emit({ type: "cache_stats", runId, stats: this.ledger.stats(new Date().toISOString()) });
      }
    }
    await this.flushLog();
  }

  /** Ends the MCP server of this name and starts it again. */
  reconnectMcp(server: string): Promise<void> {
    if (!this.mcp) throw new PlaygroundError("not_found", `session ${this.id} has no MCP servers`);
    return this.mcp.reconnect(server);
  }

  /** Resolves once the MCP servers have each connected or failed (tests, the CLI). */
  mcpStarted(): Promise<void> {
    return this.mcp?.whenStarted() ?? Promise.resolve();
  }

  /** Stops the run and its tools, ends its MCP servers, stops watching, and writes out the log. */
  async close(): Promise<void> {
    this.restoredCache.dispose();
    this.cancel();
    this.lab?.cancel();
    await this.idle();
    await this.mcp?.close();
    this.closed = true;
    this.watcher?.close();
    this.agentWrites.close();
    await this.init.writer.close();
  }
}

/** Whether `relative` is a file in `workdir` now (the demo tasks' rule, server/shared/demo-tasks.ts). */
function isFileIn(workdir: string, relative: string): boolean {
  try {
    return statSync(path.join(workdir, relative)).isFile();
  } catch {
    return false;
  }
}
