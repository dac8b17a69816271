// All sessions of one server: creates them, reopens them from their logs, lists, exports and deletes.
// Logs live in <home>/.PseudoClaude/playground/sessions/<id>.jsonl; ids are checked against a strict
// pattern before any path is built from them. At start the hub closes runs a crash cut off
// (interrupted-runs.ts) and narrows log modes (D7); every open, list, export and delete waits for that.
// Keys: server log lines, reopened events and exports are redacted like live events (S11).
import { randomBytes } from "node:crypto";
import { readdir, realpath, stat, unlink } from "node:fs/promises";
import path from "node:path";
import { PlaygroundError, errorMessage } from "../errors/index.ts";
import { workdirProblem } from "./workdir-state.ts";
import type { SessionConfirmation } from "../protocol/sandbox.ts";
import type { ProviderInfo, SessionSettings, SessionSummary } from "../protocol/wire.ts";
import { registerConfiguredSecrets } from "../providers/config.ts";
import { SecretRedactor } from "../providers/redact.ts";
import { closeInterruptedRuns } from "./interrupted-runs.ts";
import {
  confirmationsForCreate,
  confirmationsForModeSwitch,
  requireConfirmations,
} from "./session-confirmations.ts";
import {
  LOG_FORMAT_VERSION,
  SessionLogWriter,
  nodeLogFileSystem,
  readSessionLog,
  type LogFileSystem,
  type LogReadResult,
} from "./session-log.ts";
import { Session } from "./session.ts";
import type { SequencedEvent } from "./event-stream.ts";
import { RecentLogRead } from "./recent-log-read.ts";
import { checkImportedScenario, importScenario } from "./scenario-import.ts";
import { SessionSummaryFold, UNTITLED_SESSION } from "./session-summary.ts";
import type { SessionParts } from "./session-types.ts";
import type { ProcessRunner } from "../tools/process-runner.ts";
import { TokenCounter } from "../prompt/segments.ts";
import type { BranchKind, BranchOrigin, RequestEdit, RunDigest } from "../protocol/branch.ts";
import { branchLabel, checkEdits, editedMessages, originRequest } from "./branch-source.ts";
import { runDigests } from "./run-digest.ts";
import { ToolActivity } from "./agent-write-guard.ts";

export interface ForkRequest {
  originId: string;
  requestIndex: number;
  kind: BranchKind;
  edits: RequestEdit[];
  provider?: string;
  model?: string;
}

const SESSION_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** True for a string that may name a session log (checked before any path is built from it). */
export function isSessionId(id: string): boolean {
  return SESSION_ID.test(id);
}

export interface SessionHubOptions {
  home: string;
  defaultWorkdir: string;
  parts: SessionParts;
  providers: () => ProviderInfo[];
  log: (line: string) => void;
  /** Watch skill layers for live reload; default true. */
  watch?: boolean;
  /** The log writer's file-system seam (tests inject failures). */
  logFileSystem?: LogFileSystem;
  /** Sessions kept in memory; beyond it, idle ones (least recently used first) are closed. Default 32. */
  maxOpenSessions?: number;
  /** Starts the processes of every session's tools (the composition root's). */
  processes: ProcessRunner;
  /** The composition root's token counter, shared by every session; absent: the hub's own. */
  tokens?: TokenCounter;
  /** The composition root's provider keys, which every session redacts; absent: the hub's own. */
  secrets?: SecretRedactor;
  /**
   * Close the runs a crash cut off in the logs folder at start (default true). A `cli run --save` shares
   * the folder with a server that may be running: its live sessions are not interrupted, so only a
   * server's own start does this.
   */
  recoverInterruptedRuns?: boolean;
}

export function sessionsDirectory(home: string): string {
  return path.join(home, ".PseudoClaude", "playground", "sessions");
}

export function newSessionId(): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15).toLowerCase();
  return `${stamp}-${randomBytes(4).toString("hex")}`;
}

export class SessionHub {
  private readonly sessions = new Map<string, Session>();
  private readonly opening = new Map<string, Promise<Session>>();
  readonly directory: string;
  /** Settles once interrupted runs are closed; never rejects (a failure is logged). */
  private readonly started: Promise<void>;
  /** Every session's token counter (the composition root's, or the hub's own). */
  private readonly tokens: TokenCounter;
  /** Every session's tool calls, which every session's live reload reads (the shared-folder rule). */
  private readonly toolActivity = new ToolActivity();
  /** The provider keys every session, log line and replay is redacted of. */
  readonly secrets: SecretRedactor;

  constructor(private readonly options: SessionHubOptions) {
    this.directory = sessionsDirectory(options.home);
    this.tokens = options.tokens ?? new TokenCounter();
    const secrets = (this.secrets = options.secrets ?? new SecretRedactor());
    // Server log lines may quote tool output or file contents: no key in them either.
    this.options = { ...options, log: (line) => options.log(secrets.redact(line)) };
    this.started = this.startUp();
  }

  private async startUp(): Promise<void> {
    try {
      // Keys in providers.json are redacted from the first event on, even before any provider is built.
      registerConfiguredSecrets({ home: this.options.home, secrets: this.secrets });
      if (this.options.recoverInterruptedRuns === false) return;
      await closeInterruptedRuns({
        directory: this.directory,
        isSessionId: (id) => SESSION_ID.test(id),
        isLive: (id) => this.sessions.has(id),
        log: this.options.log,
        fileSystem: this.options.logFileSystem,
      });
    } catch (error) {
      this.options.log(`checking session logs for interrupted runs failed: ${errorMessage(error)}`);
    }
  }

  /** Resolves once the start-up work on the session logs is done (tests wait for it). */
  ready(): Promise<void> {
    return this.started;
  }

  get defaultWorkdir(): string {
    return this.options.defaultWorkdir;
  }

  providers(): ProviderInfo[] {
    return this.options.providers();
  }

  private logPath(id: string): string {
    if (!SESSION_ID.test(id))
      throw new PlaygroundError("invalid_arguments", `"${id.slice(0, 80)}" is not a session id`);
    return path.join(this.directory, `${id}.jsonl`);
  }

  private writerFor(id: string, sessionRef: { current?: Session }): SessionLogWriter {
    return new SessionLogWriter(this.logPath(id), this.options.logFileSystem ?? nodeLogFileSystem, {
      onWriteError: (error) =>
        sessionRef.current?.emitError(
          "io_error",
          `cannot write the session log ${this.logPath(id)} (${error.code ?? error.message}); ` +
            "events are kept and written as soon as the disk accepts them again",
        ),
      onRecovered: () =>
        sessionRef.current?.emitError("log_recovered", "the session log is being written again"),
    });
  }

  private async checkWorkdir(workdir: string): Promise<string> {
    const problem = workdirProblem(workdir);
    if (problem) throw new PlaygroundError("not_found", problem);
    return path.resolve(workdir);
  }

  /** Refuses a provider name the server does not know, naming the ones it does. */
  checkSettings(settings: Partial<SessionSettings>): void {
    if (settings.provider === undefined) return;
    const names = this.providers().map((info) => info.name);
    if (!names.includes(settings.provider)) {
      throw new PlaygroundError(
        "invalid_arguments",
        `unknown provider "${settings.provider}": use one of ${names.join(", ")}`,
      );
    }
  }

  /**
   * update_session: switching to bypassPermissions needs `bypass_permissions` in `confirm`
   * (refused with `confirmation_required` otherwise).
   */
  checkUpdate(
    session: Session,
    changes: Partial<SessionSettings>,
    confirm: readonly SessionConfirmation[] | undefined,
  ): void {
    this.checkSettings(changes);
    const current = session.summary().settings.permissionMode;
    requireConfirmations(
      confirmationsForModeSwitch(current, changes.permissionMode),
      confirm,
      "update_session",
    );
  }

  /** A workdir that is / or contains the home, and bypassPermissions, need their confirmation in `confirm`. */
  async create(
    requested: Partial<SessionSettings>,
    confirm?: readonly SessionConfirmation[],
  ): Promise<Session> {
    this.checkSettings(requested);
    const providers = this.providers();
    const providerName = requested.provider ?? "scripted";
    const provider = providers.find((info) => info.name === providerName);
    const workdir = await this.checkWorkdir(requested.workdir ?? this.options.defaultWorkdir);
    const needed = await confirmationsForCreate({
      workdir: await realpath(workdir),
      permissionMode: requested.permissionMode ?? "default",
      homes: [this.options.home],
    });
    requireConfirmations(needed, confirm, "create_session");
    const settings: SessionSettings = {
      workdir,
      provider: providerName,
      model: requested.model ?? provider?.defaultModel ?? "",
      permissionMode: requested.permissionMode ?? "default",
      disclosure: requested.disclosure ?? "progressive",
      ...(requested.scenario !== undefined ? { scenario: requested.scenario } : {}),
      ...(requested.refreshToolsEachIteration !== undefined
        ? { refreshToolsEachIteration: requested.refreshToolsEachIteration }
        : {}),
      ...(requested.allowNetwork !== undefined ? { allowNetwork: requested.allowNetwork } : {}),
      ...(requested.catalogBudget ? { catalogBudget: requested.catalogBudget } : {}),
      ...(requested.replayOf !== undefined ? { replayOf: requested.replayOf } : {}),
      ...(requested.cacheBreakpoints ? { cacheBreakpoints: requested.cacheBreakpoints } : {}),
      ...(requested.cacheAs ? { cacheAs: requested.cacheAs } : {}),
      ...(requested.skillPlacement ? { skillPlacement: requested.skillPlacement } : {}),
      ...(requested.cacheDiagnostics === false ? { cacheDiagnostics: false } : {}),
      ...(requested.honourAllowedTools ? { honourAllowedTools: true } : {}),
      ...(requested.lintProfile ? { lintProfile: requested.lintProfile } : {}),
    };
    return this.startNew(settings);
  }

  /** A new session's log header and session; a branch's header names its origin and title. */
  private async startNew(settings: SessionSettings, branch?: BranchOrigin): Promise<Session> {
    const id = newSessionId();
    const createdAt = new Date().toISOString();
    const ref: { current?: Session } = {};
    const writer = this.writerFor(id, ref);
    const title = branch ? branch.label : UNTITLED_SESSION;
    writer.append({
      kind: "header",
      version: LOG_FORMAT_VERSION,
      id,
      createdAt,
      title,
      settings,
      ...(branch ? { branch } : {}),
    });
    const session = await Session.start({
      id,
      createdAt,
      settings,
      ...(branch ? { title, branch } : {}),
      home: this.options.home,
      parts: this.options.parts,
      writer,
      watch: this.options.watch,
      providers: this.options.providers,
      processes: this.options.processes,
      tokens: this.tokens,
      toolActivity: this.toolActivity,
      redactor: this.secrets,
      log: this.options.log,
    });
    ref.current = session;
    this.sessions.set(id, session);
    await writer.flush();
    await this.closeIdleSessions(session);
    return session;
  }

  /** The live session, or the one reopened from its log (history, active skills, events restored). */
  async open(id: string): Promise<Session> {
    const live = this.sessions.get(id);
    if (live) {
      // Most recently used last, for closeIdleSessions.
      this.sessions.delete(id);
      this.sessions.set(id, live);
      return live;
    }
    const pending = this.opening.get(id);
    if (pending) return pending;
    const opening = this.reopen(id).finally(() => this.opening.delete(id));
    this.opening.set(id, opening);
    return opening;
  }

  private async readLog(id: string): Promise<LogReadResult> {
    const file = this.logPath(id);
    try {
      return await readSessionLog(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") {
        throw new PlaygroundError("not_found", `no session "${id}" (no log at ${file})`);
      }
      throw error;
    }
  }

  private async reopen(id: string): Promise<Session> {
    await this.started;
    const loaded = (await this.listedLog.take(id, this.logPath(id))) ?? (await this.readLog(id));
    if (!loaded.header)
      throw new PlaygroundError("io_error", `${this.logPath(id)} has no readable header record`);
    for (const warning of loaded.warnings) this.options.log(`session log: ${warning}`);
    const ref: { current?: Session } = {};
    const session = await Session.start({
      id,
      createdAt: loaded.header.createdAt,
      settings: loaded.header.settings,
      title: loaded.header.title,
      ...(loaded.header.branch ? { branch: loaded.header.branch } : {}),
      home: this.options.home,
      parts: this.options.parts,
      writer: this.writerFor(id, ref),
      restored: loaded.events.map((record) => this.restoredEvent(record)),
      watch: this.options.watch,
      providers: this.options.providers,
      processes: this.options.processes,
      tokens: this.tokens,
      toolActivity: this.toolActivity,
      redactor: this.secrets,
      log: this.options.log,
    });
    ref.current = session;
    for (const warning of loaded.warnings) session.emitError("log_damaged", warning, { replay: true });
    this.sessions.set(id, session);
    await this.closeIdleSessions(session);
    return session;
  }

  /**
   * A logged event as a reopened session starts from. A log written before a key was configured may
   * hold it: not in the history, not in a replay. One regex pass over the event's JSON text tells whether
   * it may (the detector holds each key's JSON-escaped form, and the key shapes JSON leaves as they are:
   * SecretRedactor.mayContain); only such an event is walked and redacted. A clean event keeps that text,
   * which the session's stream reuses instead of serializing it again.
   */
  private restoredEvent(record: { seq: number; event: SequencedEvent["event"] }): SequencedEvent {
    const json = JSON.stringify(record.event);
    if (!this.secrets.mayContain(json)) return { seq: record.seq, event: record.event, json };
    return { seq: record.seq, event: this.secrets.redact(record.event) };
  }

  /**
   * Keeps memory bounded on a long-lived server: an idle session (no run, no pending approval, no tab
   * subscribed) is closed when too many are open. Its log stays on disk, so `open` restores it.
   */
  private async closeIdleSessions(keep: Session): Promise<void> {
    const limit = this.options.maxOpenSessions ?? 32;
    if (this.sessions.size <= limit) return;
    // Map order is insertion order and open() re-inserts, so the first entries are the least recent.
    for (const session of [...this.sessions.values()]) {
      if (this.sessions.size <= limit) break;
      if (session === keep || !session.isIdle) continue;
      this.sessions.delete(session.id);
      await session.close();
    }
  }

  async list(): Promise<SessionSummary[]> {
    await this.started;
    const summaries = new Map<string, SessionSummary>();
    for (const session of this.sessions.values()) summaries.set(session.id, session.summary());
    let files: string[] = [];
    try {
      files = await readdir(this.directory);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    let newestRead: { summary: SessionSummary; keep: () => void } | undefined;
    for (const file of files) {
      const id = file.replace(/\.jsonl$/, "");
      if (!file.endsWith(".jsonl") || summaries.has(id) || !SESSION_ID.test(id)) continue;
      const { summary, keep } = await this.summaryFromDisk(id);
      if (!summary) continue;
      summaries.set(id, summary);
      if (keep && (!newestRead || summary.updatedAt > newestRead.summary.updatedAt))
        newestRead = { summary, keep };
    }
    // The page opens the session it showed or the newest next: the newest log read here is kept for it.
    newestRead?.keep();
    // Checked now, not cached with the summary: a folder can go (or come back) while a log does not change.
    return [...summaries.values()]
      .map((summary) =>
        workdirProblem(summary.settings.workdir) ? { ...summary, workdirMissing: true as const } : summary,
      )
      .sort((left, right) => right.updatedAt.localeCompare(left.updatedAt));
  }

  /** The log the last list read in full (recent-log-read.ts), for the open that follows it. */
  private readonly listedLog = new RecentLogRead();

  /** Summaries of closed sessions, keyed by id, valid while the log's size and mtime are unchanged. */
  private readonly diskSummaries = new Map<
    string,
    { size: number; mtimeMs: number; summary: SessionSummary }
  >();

  /** `keep`, when the log was read just now: keeps that read for an open that follows. */
  private async summaryFromDisk(id: string): Promise<{ summary?: SessionSummary; keep?: () => void }> {
    try {
      const { size, mtimeMs } = await stat(this.logPath(id));
      const cached = this.diskSummaries.get(id);
      if (cached && cached.size === size && cached.mtimeMs === mtimeMs) return { summary: cached.summary };
      const loaded = await this.readLog(id);
      const summary = summaryOfLog(id, loaded);
      if (!summary) return {};
      this.diskSummaries.set(id, { size, mtimeMs, summary });
      return { summary, keep: () => this.listedLog.keep(id, { size, mtimeMs }, loaded) };
    } catch (error) {
      this.options.log(`cannot list session ${id}: ${errorMessage(error)}`);
      return {};
    }
  }

  /**
   * Edit & resend / Rerun from here: a new branch session from request #requestIndex of `originId`
   * (session-branch.ts), already running its first request. The origin's settings were confirmed when it
   * was created, so a branch needs no confirmation of its own. A branch is exact: what request #N
   * depended on is taken from the origin's log as it was then — the settings (disclosure, placement,
   * cache breakpoints, allowed-tools honouring, lint profile, listing budget, mode), the provider and
   * model its environment names, the active skills' arguments — and what cannot be taken from the log
   * (files on disk, MCP servers) is compared after the first request and said on the branch.
   */
  async fork(request: ForkRequest): Promise<Session> {
    await this.started;
    const origin = await this.open(request.originId);
    await origin.flushForExport();
    const log = await this.readLog(origin.id);
    if (!log.header)
      throw new PlaygroundError("io_error", `${this.logPath(origin.id)} has no readable header record`);
    const at = originRequest(log.events, request.requestIndex, log.header.settings);
    const { snapshot } = at;
    // Edits are stored in the log header, which the event stream's redaction does not see: no key in them.
    const edits = request.kind === "rerun" ? [] : this.secrets.redact(request.edits);
    checkEdits(snapshot, edits);
    const messages = editedMessages(snapshot.messages, edits);
    this.checkSettings(request.provider !== undefined ? { provider: request.provider } : {});
    // The request's own provider and model unless another is picked (its environment names them); a
    // provider this server does not know any more falls back to the session's (the check then says so).
    const providers = this.providers();
    const requestProvider = providers.some((info) => info.name === snapshot.provider)
      ? snapshot.provider
      : at.settings.provider;
    const provider = request.provider ?? requestProvider;
    const model =
      request.model ??
      (provider === snapshot.provider
        ? snapshot.model
        : provider === at.settings.provider
          ? at.settings.model
          : (providers.find((info) => info.name === provider)?.defaultModel ?? ""));
    const settings: SessionSettings = { ...at.settings, provider, model, disclosure: snapshot.disclosure };
    // A branch of a branch keeps its origin's edits (its requests were sent with them); message edits are
    // already in the copied conversation.
    const inherited = (origin.summary().branch?.edits ?? []).filter((edit) => edit.kind !== "message");
    const branch: BranchOrigin = {
      originSessionId: origin.id,
      requestIndex: request.requestIndex,
      kind: request.kind,
      edits: [...inherited, ...edits],
      label: branchLabel(request.requestIndex, request.kind, edits),
    };
    const session = await this.startNew(settings, branch);
    await this.inheritSessionTrust(origin, session);
    await session.startBranch({
      branch,
      messages,
      activeSkills: at.activeSkills,
      origin: snapshot,
      edits,
    });
    return session;
  }

  /**
   * The origin's folder trusted for that session only (the trust prompt's "this session"): the branch,
   * which continues that conversation, is trusted the same way, bound to the same digest — a folder
   * whose grants changed since is not trusted and asks again. Remembered trust applies by itself.
   */
  private async inheritSessionTrust(origin: Session, branch: Session): Promise<void> {
    const trust = origin.summary().trust;
    if (!trust?.trusted || trust.via !== "session" || branch.summary().trust?.trusted) return;
    await branch.trustFolder(false, {
      ...(trust.grants.digest ? { digest: trust.grants.digest } : {}),
      ...(trust.networkServers ? { networkServers: trust.networkServers } : {}),
    });
  }

  /** The session's runs for the compare view, from its log (written out first when it is open). */
  async runs(id: string): Promise<RunDigest[]> {
    await this.started;
    const live = this.sessions.get(id);
    if (live) await live.flushForExport();
    const loaded = await this.readLog(id);
    return this.secrets.redact(runDigests(id, loaded.events));
  }

  get home(): string {
    return this.options.home;
  }

  /** Writes out a live session's log before it is read for an export (a closed one is on disk already). */
  async flushLog(id: string): Promise<void> {
    await this.started;
    await this.sessions.get(id)?.flushForExport();
  }

  /** Stores a scenario YAML for the session and makes its scripted model play it (scenario-import.ts). */
  async importScenario(session: Session, fileName: string, yaml: string): Promise<void> {
    const changes = await importScenario(this.options.home, session.id, fileName, yaml);
    this.checkSettings(changes);
    await session.updateSettings(changes);
  }

  /**
   * A replay of its own: a new session on the same workdir, with the same disclosure and cache settings,
   * whose scripted model plays the file. The file is checked before anything is created. The workdir was
   * confirmed when `from` was created, so it is not asked about again; bypassPermissions is not carried
   * over (a replay starts in default mode, and switching asks as always).
   */
  async importScenarioAsSession(from: Session, fileName: string, yaml: string): Promise<Session> {
    checkImportedScenario(fileName, yaml);
    const current = from.summary().settings;
    const session = await this.create(
      {
        workdir: current.workdir,
        provider: "scripted",
        permissionMode: current.permissionMode === "bypassPermissions" ? "default" : current.permissionMode,
        disclosure: current.disclosure,
        ...(current.cacheBreakpoints ? { cacheBreakpoints: current.cacheBreakpoints } : {}),
        ...(current.cacheAs ? { cacheAs: current.cacheAs } : {}),
        ...(current.skillPlacement ? { skillPlacement: current.skillPlacement } : {}),
      },
      ["broad_workdir"],
    );
    await this.importScenario(session, fileName, yaml);
    return session;
  }

  async delete(id: string): Promise<void> {
    await this.started;
    const file = this.logPath(id);
    const live = this.sessions.get(id);
    this.diskSummaries.delete(id);
    this.listedLog.clear();
    if (live) {
      this.sessions.delete(id);
      await live.close();
    }
    try {
      await unlink(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT" && live) return;
      throw new PlaygroundError("not_found", `no session "${id}" to delete: ${errorMessage(error)}`);
    }
  }

  get openSessions(): Session[] {
    return [...this.sessions.values()];
  }

  /** Cancels every run (killing its tools) and writes out every log. */
  async shutdown(): Promise<void> {
    await this.started;
    const sessions = [...this.sessions.values()];
    this.sessions.clear();
    this.listedLog.clear();
    await Promise.all(
      sessions.map((session) =>
        session
          .close()
          .catch((error: unknown) =>
            this.options.log(`closing session ${session.id}: ${errorMessage(error)}`),
          ),
      ),
    );
  }
}

/** A closed session's list entry: a fold over its logged events (none without a readable header). */
function summaryOfLog(id: string, loaded: LogReadResult): SessionSummary | undefined {
  if (!loaded.header) return undefined;
  const { createdAt, settings, title, branch } = loaded.header;
  const fold = new SessionSummaryFold({ id, createdAt, settings, title, ...(branch ? { branch } : {}) });
  for (const record of loaded.events) fold.observe(record.event, record.at);
  return fold.summary();
}
