// One browser tab's connection (a WebSocket behind the Transport seam, transport.ts): parses and validates
// every frame, dispatches commands to the session hub, and forwards the events of the sessions this tab has
// opened. Frames of one connection are handled in order (a promise chain), but nothing here waits for a
// run to finish, so a busy tab never stalls others.
import { cacheAsOffer } from "../cache/cache-as.ts";
import { detectSandbox } from "../tools/sandbox.ts";
import { PlaygroundError, errorMessage } from "../errors/index.ts";
import { parseClientCommand } from "../protocol/schemas.ts";
import type { SessionConfirmation } from "../protocol/sandbox.ts";
import type { ClientCommand, ServerMessage } from "../protocol/wire.ts";
import type { SessionHub } from "../session/session-hub.ts";
import { exportSession, readExportedSession } from "../export/index.ts";
import type { Session } from "../session/session.ts";
import type { SerializedEvent } from "../session/event-stream.ts";
import { jsonNestingDepth } from "../protocol/json-depth.ts";
import type { IncomingFrame, Transport } from "./transport.ts";
import { SkillUploads } from "./skill-uploads.ts";

/** A tab that stops reading its socket is dropped rather than buffering events without bound. */
const MAX_BUFFERED_BYTES = 64 * 1024 * 1024;
/** No command needs more; deeper frames would overflow recursive consumers (see jsonNestingDepth). */
export const MAX_FRAME_NESTING = 64;
/** JSON characters per `events` frame of a batched replay (a few frames for the longest session). */
const REPLAY_FRAME_CHARS = 4 * 1024 * 1024;
/**
 * JSON characters per `events` frame of a live burst: the page parses and applies each frame in one task
 * while the answer streams, so a burst comes in frames it takes a few milliseconds each to read.
 */
const LIVE_FRAME_CHARS = 128 * 1024;

export interface ConnectionOptions {
  serverVersion: string;
  log: (line: string) => void;
}

export class ClientConnection {
  private readonly subscriptions = new Map<string, () => void>();
  private readonly skillUploads = new SkillUploads();
  private queue: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly transport: Transport,
    private readonly hub: SessionHub,
    private readonly options: ConnectionOptions,
  ) {
    transport.start({
      message: (frame) => this.receive(frame),
      close: () => this.dispose(),
      error: (error) => this.options.log(`websocket error: ${error.message}`),
    });
  }

  private receive(frame: IncomingFrame): void {
    if (frame.kind === "binary") {
      this.send({
        type: "error",
        code: "invalid_frame",
        message: "binary frames are not accepted; send JSON text",
      });
      return;
    }
    const text = frame.text;
    if (jsonNestingDepth(text, MAX_FRAME_NESTING) > MAX_FRAME_NESTING) {
      this.send({
        type: "error",
        code: "invalid_frame",
        message: `frame is nested deeper than ${MAX_FRAME_NESTING} levels of arrays and objects`,
      });
      return;
    }
    const parsed = parseClientCommand(text);
    if (!parsed.ok) {
      this.send({ type: "error", code: "invalid_frame", message: parsed.message });
      return;
    }
    this.queue = this.queue.then(() => this.handle(parsed.command));
  }

  async start(): Promise<void> {
    this.send({
      type: "hello",
      serverVersion: this.options.serverVersion,
      providers: this.hub.providers(),
      defaultWorkdir: this.hub.defaultWorkdir,
      sandbox: machineSandbox(),
      cacheAs: cacheAsOffer(this.hub.home),
    });
  }

  send(message: ServerMessage): void {
    this.flushLive();
    this.sendText(JSON.stringify(message));
  }

  private sendText(text: string): void {
    if (this.closed || !this.transport.isOpen) return;
    if (this.transport.bufferedBytes > MAX_BUFFERED_BYTES) {
      this.options.log("closing a WebSocket whose client stopped reading (over 64 MiB buffered)");
      this.transport.close(1008, "client is not reading its messages");
      return;
    }
    this.transport.send(text);
  }

  private dispose(): void {
    this.closed = true;
    this.skillUploads.dispose();
    // Closing a tab leaves its sessions (and their runs) alone: only the subscription goes.
    for (const unsubscribe of this.subscriptions.values()) unsubscribe();
    this.subscriptions.clear();
  }

  private async handle(command: ClientCommand): Promise<void> {
    try {
      await this.dispatch(command);
    } catch (error) {
      const code = error instanceof PlaygroundError ? error.code : "internal";
      if (code === "internal") this.options.log(`command ${command.type} failed: ${errorMessage(error)}`);
      const confirm = error instanceof PlaygroundError ? error.details?.confirm : undefined;
      this.send({
        type: "error",
        code,
        message: errorMessage(error),
        command: command.type,
        ...("sessionId" in command ? { sessionId: command.sessionId } : {}),
        ...(Array.isArray(confirm) ? { confirm: confirm as SessionConfirmation[] } : {}),
      });
    }
  }

  /** Sends one stored event; its JSON was serialized once by the session. */
  /** The start of every event frame of a session, made once per session (a stream sends thousands). */
  private readonly eventPrefixes = new Map<string, string>();

  private sendEvent(sessionId: string, seq: number, eventJson: string): void {
    let prefix = this.eventPrefixes.get(sessionId);
    if (prefix === undefined) {
      prefix = `{"type":"event","sessionId":${JSON.stringify(sessionId)},"seq":`;
      this.eventPrefixes.set(sessionId, prefix);
    }
    this.sendText(`${prefix}${seq},"event":${eventJson}}`);
  }

  /**
   * Events as `events` frames of about `frameChars` each (a replay's: REPLAY_FRAME_CHARS), built from the
   * stored JSON texts (no event is parsed or serialized again): a 500-request session is one or two frames,
   * not thousands, so neither side pays a per-frame cost thousands of times.
   */
  private sendEventBatches(
    sessionId: string,
    replay: SerializedEvent[],
    frameChars = REPLAY_FRAME_CHARS,
  ): void {
    const prefix = `{"type":"events","sessionId":${JSON.stringify(sessionId)},"events":[`;
    let parts: string[] = [];
    let chars = 0;
    const flush = () => {
      if (parts.length > 0) this.sendText(`${prefix}${parts.join(",")}]}`);
      parts = [];
      chars = 0;
    };
    for (const entry of replay) {
      const part = `{"seq":${entry.seq},"event":${entry.json}}`;
      if (chars > 0 && chars + part.length > frameChars) flush();
      parts.push(part);
      chars += part.length;
    }
    flush();
  }

  /** Live events held until the end of this turn of the event loop, in the order they happened. */
  private live: SerializedEvent[] = [];
  private liveSession = "";

  /**
   * Holds a live event of a session opened with `batchLive` until the server has done what it is doing
   * now: the events one turn of the event loop produced (a provider's burst of text deltas, 10,000 of
   * them when it streams unpaced) travel as one `events` frame, not one frame each, so neither side pays
   * a frame's cost per delta. None waits for a timer: a provider that streams one delta a turn still
   * sends one `event` frame a delta, as soon as it arrives.
   */
  private queueLive(sessionId: string, seq: number, json: string): void {
    if (this.live.length > 0 && this.liveSession !== sessionId) this.flushLive();
    if (this.live.length === 0) setImmediate(() => this.flushLive());
    this.liveSession = sessionId;
    this.live.push({ seq, json });
  }

  /** Sends the held live events; every other frame calls this first, so frames keep their order. */
  private flushLive(): void {
    if (this.live.length === 0) return;
    const held = this.live;
    this.live = [];
    if (held.length === 1) this.sendEvent(this.liveSession, held[0].seq, held[0].json);
    else this.sendEventBatches(this.liveSession, held, LIVE_FRAME_CHARS);
  }

  /**
   * Subscribes this connection to a session: the snapshot, then the stored events after `lastSeq`, then
   * live events (`batch.replay`: the replay as `events` frames; `batch.live`: see queueLive). Live events
   * that arrive while the replay is read are held back and sent after it, once.
   */
  private async attach(
    session: Session,
    lastSeq: number | undefined,
    batch: { replay?: boolean; live?: boolean } = {},
  ): Promise<void> {
    this.subscriptions.get(session.id)?.();
    const heldBack: { seq: number; json: string }[] = [];
    let replaying = true;
    let sentUpTo = 0;
    const unsubscribe = session.subscribe((seq, _event, json) => {
      if (replaying) heldBack.push({ seq, json });
      else if (batch.live) this.queueLive(session.id, seq, json);
      else {
        this.flushLive();
        this.sendEvent(session.id, seq, json);
      }
    });
    this.subscriptions.set(session.id, unsubscribe);
    this.flushLive();
    const opened = session.openedSnapshot(lastSeq ?? 0);
    this.send({ type: "event", sessionId: session.id, seq: opened.seq, event: opened.event });
    try {
      const replay = await session.eventsAfter(lastSeq ?? 0);
      if (batch.replay) this.sendEventBatches(session.id, replay);
      else for (const entry of replay) this.sendEvent(session.id, entry.seq, entry.json);
      sentUpTo = replay.at(-1)?.seq ?? 0;
    } finally {
      replaying = false;
      this.flushLive();
      for (const entry of heldBack)
        if (entry.seq > sentUpTo) this.sendEvent(session.id, entry.seq, entry.json);
    }
  }

  private async dispatch(command: ClientCommand): Promise<void> {
    switch (command.type) {
      case "list_providers":
        this.send({ type: "providers", providers: this.hub.providers() });
        return;
      case "list_sessions":
        this.send({ type: "session_list", sessions: await this.hub.list() });
        return;
      case "create_session": {
        const session = await this.hub.create(command.settings ?? {}, command.confirm);
        await this.attach(session, undefined, { live: command.batchLive === true });
        return;
      }
      case "open_session": {
        const session = await this.hub.open(command.sessionId);
        await this.attach(session, command.lastSeq, {
          replay: command.batchReplay === true,
          live: command.batchLive === true,
        });
        return;
      }
      case "delete_session":
        this.subscriptions.get(command.sessionId)?.();
        this.subscriptions.delete(command.sessionId);
        await this.hub.delete(command.sessionId);
        this.send({ type: "session_deleted", sessionId: command.sessionId });
        return;
      case "fork_request": {
        const session = await this.hub.fork({
          originId: command.sessionId,
          requestIndex: command.requestIndex,
          kind: command.kind,
          edits: command.edits,
          ...(command.provider !== undefined ? { provider: command.provider } : {}),
          ...(command.model !== undefined ? { model: command.model } : {}),
        });
        await this.attach(session, undefined, { live: command.batchLive === true });
        return;
      }
      case "get_runs":
        this.send({
          type: "session_runs",
          sessionId: command.sessionId,
          runs: await this.hub.runs(command.sessionId),
        });
        return;
      case "export_session": {
        await this.hub.flushLog(command.sessionId);
        const session = await readExportedSession(this.hub.home, command.sessionId, this.hub.secrets);
        if (command.format === "html" || command.format === "scenario" || command.format === "otlp") {
          const file = exportSession(session, command.format);
          this.send({ type: "session_file", sessionId: command.sessionId, format: command.format, ...file });
          return;
        }
        const { fileName, text } = exportSession(session, "jsonl");
        this.send({ type: "session_export", sessionId: command.sessionId, fileName, jsonl: text });
        return;
      }
      default:
        return this.dispatchToSession(command);
    }
  }

  private async dispatchToSession(
    command: Exclude<
      ClientCommand,
      {
        type:
          | "list_providers"
          | "list_sessions"
          | "create_session"
          | "open_session"
          | "delete_session"
          | "export_session"
          | "fork_request"
          | "get_runs";
      }
    >,
  ): Promise<void> {
    const session = await this.hub.open(command.sessionId);
    if (!this.subscriptions.has(session.id)) await this.attach(session, session.lastSeq);
    switch (command.type) {
      case "update_session":
        this.hub.checkUpdate(session, command.settings, command.confirm);
        await session.updateSettings(command.settings);
        return;
      case "send_message":
        session.sendMessage(command.text, command.planMode ? { planMode: true } : {});
        return;
      case "cancel":
        session.cancel();
        return;
      case "approval_answer":
        session.answerApproval(command.callId, command.answer);
        return;
      case "reload_catalog":
        await session.reloadCatalog("manual");
        return;
      case "run_tool":
        session.runTool(command.requestId, command.tool, command.input);
        return;
      case "mcp_reconnect":
        await session.reconnectMcp(command.server);
        return;
      case "trust_folder":
        await session.trustFolder(command.remember, {
          ...(command.digest !== undefined ? { digest: command.digest } : {}),
          ...(command.networkServers ? { networkServers: command.networkServers } : {}),
        });
        return;
      case "manual_response":
        session.manualResponse(command.requestIndex, { text: command.text, toolCalls: command.toolCalls });
        return;
      case "skill_upload":
        this.skillUploads.receive(command);
        return;
      case "install_skill": {
        const outcome = await this.skillUploads.install(session, command);
        this.send({
          type: "skill_install",
          sessionId: session.id,
          uploadId: command.uploadId,
          dryRun: command.dryRun,
          outcome,
        });
        return;
      }
      case "start_trigger_lab":
        session.startTriggerLab({
          ...(command.evalPath ? { evalPath: command.evalPath } : {}),
          runs: command.runs,
          ...(command.concurrency ? { concurrency: command.concurrency } : {}),
          ...(command.ablation ? { ablation: command.ablation } : {}),
          ...(command.skill ? { skill: command.skill } : {}),
          ...(command.withoutSkills ? { withoutSkills: true } : {}),
          ...(command.maxCalls !== undefined ? { maxCalls: command.maxCalls } : {}),
          ...(command.maxUsd !== undefined ? { maxUsd: command.maxUsd } : {}),
          ...(command.estimateOnly ? { estimateOnly: true } : {}),
        });
        return;
      case "cancel_trigger_lab":
        session.cancelTriggerLab();
        return;
      case "start_optimizer": {
        const { type: _type, sessionId: _id, ...request } = command;
        session.startOptimizer(request);
        return;
      }
      case "optimizer_proposal":
        session.optimizer().propose(command.description);
        return;
      case "cancel_optimizer":
        session.optimizer().cancel();
        return;
      case "apply_description":
        await session.optimizer().apply(command.skill, command.description);
        return;
      case "catalog_budget":
        session.catalogBudget(command.profile, command.contextWindow);
        return;
      case "skill_figures":
        this.send({
          type: "skill_figures",
          sessionId: session.id,
          figures: await session.skillFigures(command.name),
        });
        return;
      case "import_scenario":
        if (command.newSession) {
          const replay = await this.hub.importScenarioAsSession(session, command.fileName, command.yaml);
          await this.attach(replay, undefined);
          return;
        }
        await this.hub.importScenario(session, command.fileName, command.yaml);
        return;
      default: {
        const unexpected: never = command;
        throw new PlaygroundError(
          "invalid_frame",
          `unhandled command ${(unexpected as { type: string }).type}`,
        );
      }
    }
  }
}

/** Whether this machine can sandbox tool processes (probed once), for the header before any session. */
function machineSandbox(): { available: boolean; reason?: string } {
  const probe = detectSandbox();
  return probe.available ? { available: true } : { available: false, reason: probe.reason ?? "unavailable" };
}
