// A real session without a socket: the server's SessionHub and one ClientConnection on one end of an
// in-memory transport pair, the protocol client on the other — the same session, commands and event
// stream a browser tab gets. `cli run` drives it; the session writes its own log (kept only for --save).
import { PlaygroundError, type ErrorType } from "../errors/index.ts";
import type { McpServerView } from "../protocol/mcp.ts";
import type { ApprovalAnswer } from "../protocol/permission.ts";
import type { RunnerEvent } from "../protocol/runner-events.ts";
import type { SessionConfirmation } from "../protocol/sandbox.ts";
import type {
  ClientCommand,
  ProviderInfo,
  SessionEvent,
  SessionSettings,
  SessionSummary,
} from "../protocol/wire.ts";
import type { ServerMessage } from "../protocol/index.ts";
import { SessionHub, sessionsDirectory } from "../session/session-hub.ts";
import type { LogFileSystem } from "../session/session-log.ts";
import type { SessionParts } from "../session/session-types.ts";
import { PLAYGROUND_VERSION } from "../session/workspace.ts";
import type { TokenCounter } from "../prompt/segments.ts";
import type { SecretRedactor } from "../providers/redact.ts";
import type { ProcessRunner } from "../tools/process-runner.ts";
import { ClientConnection } from "../transport/connection.ts";
import { ProtocolClient } from "../transport/protocol-client.ts";
import { InMemoryTransport } from "../transport/transport.ts";
import path from "node:path";

type StopEvent = Extract<RunnerEvent, { type: "stop" }>;

/** Without --save the session's log goes nowhere: no folder is made, nothing is written. */
const NO_LOG: LogFileSystem = {
  openForAppend: async () => ({
    tail: async () => ({ size: 0, endsWithNewline: false }),
    write: async () => undefined,
    sync: async () => undefined,
    close: async () => undefined,
  }),
};

export interface HeadlessSessionOptions {
  home: string;
  settings: Partial<SessionSettings> & Pick<SessionSettings, "workdir" | "provider">;
  /** What the user confirmed on the command line (a broad workdir, bypassPermissions). */
  confirm: SessionConfirmation[];
  parts: SessionParts;
  /** The one provider this command offers (`hello` and the hub's provider check). */
  provider: ProviderInfo;
  /** Keep the session log where the server keeps them (`run --save`). */
  save: boolean;
  processes: ProcessRunner;
  /** The command's token counter. */
  tokens: TokenCounter;
  /** The command's provider keys. */
  secrets: SecretRedactor;
  /** Every event of the session, in order, as a tab receives it. */
  onEvent(event: SessionEvent): void;
  /** A command the session refused outside a turn (e.g. a late approval answer). */
  onRefused(code: string, message: string): void;
}

interface Waiting<T> {
  resolve(value: T): void;
  reject(error: Error): void;
}

export class HeadlessSession {
  private turn: (Waiting<StopEvent> & { runId?: string }) | undefined;
  private opening: Waiting<SessionSummary> | undefined;
  private pings: (() => void)[] = [];
  private sessionId = "";
  private mcp: McpServerView[] = [];

  private constructor(
    private readonly hub: SessionHub,
    private readonly client: ProtocolClient,
    private readonly options: HeadlessSessionOptions,
  ) {}

  /** Creates the session (refused as the page's create is: unknown provider, unconfirmed broad workdir). */
  static async open(
    options: HeadlessSessionOptions,
  ): Promise<{ session: HeadlessSession; summary: SessionSummary }> {
    const hub = new SessionHub({
      home: options.home,
      defaultWorkdir: options.settings.workdir,
      parts: options.parts,
      providers: () => [options.provider],
      log: (line) => options.onRefused("internal", line),
      watch: false,
      ...(options.save ? {} : { logFileSystem: NO_LOG }),
      processes: options.processes,
      tokens: options.tokens,
      secrets: options.secrets,
      recoverInterruptedRuns: false,
    });
    const [serverEnd, clientEnd] = InMemoryTransport.createLinkedPair();
    const connection = new ClientConnection(serverEnd, hub, {
      serverVersion: PLAYGROUND_VERSION,
      log: (line) => options.onRefused("internal", line),
    });
    void connection.start();
    const client = await ProtocolClient.over(clientEnd, { keepMessages: false });
    const session = new HeadlessSession(hub, client, options);
    client.onMessage((message) => session.receive(message));
    try {
      const summary = await new Promise<SessionSummary>((resolve, reject) => {
        session.opening = { resolve, reject };
        session.send({ type: "create_session", settings: options.settings, confirm: options.confirm });
      });
      return { session, summary };
    } catch (error) {
      await session.close();
      throw error;
    }
  }

  get id(): string {
    return this.sessionId;
  }

  /** Where the log is (written only with --save). */
  get logFile(): string {
    return path.join(sessionsDirectory(this.options.home), `${this.sessionId}.jsonl`);
  }

  private send(command: ClientCommand): void {
    this.client.send(command);
  }

  private receive(message: ServerMessage): void {
    if (message.type === "event") {
      if (message.event.type === "session_opened" && this.opening) {
        this.sessionId = message.sessionId;
        this.opening.resolve(message.event.session);
        this.opening = undefined;
        return;
      }
      if (message.sessionId !== this.sessionId) return;
      if (message.event.type === "mcp_state") this.mcp = message.event.servers;
      this.observeTurn(message.event);
      this.options.onEvent(message.event);
      return;
    }
    if (message.type === "providers") {
      this.pings.shift()?.();
      return;
    }
    if (message.type !== "error") return;
    const refusal = new PlaygroundError(message.code as ErrorType, message.message);
    // A frame refused before it was parsed names no command: it is the one this client is waiting on.
    const about = (command: ClientCommand["type"]) =>
      message.command === command || message.command === undefined;
    if (this.opening && about("create_session")) {
      this.opening.reject(refusal);
      this.opening = undefined;
    } else if (this.turn && about("send_message")) {
      this.turn.reject(refusal);
      this.turn = undefined;
    } else this.options.onRefused(message.code, message.message);
  }

  /** A turn ends with the stop of its first run, or a session error that says no stop follows. */
  private observeTurn(event: SessionEvent): void {
    const turn = this.turn;
    if (!turn) return;
    if (event.type === "run_started" && turn.runId === undefined) turn.runId = event.runId;
    else if (event.type === "stop" && event.runId === turn.runId) {
      this.turn = undefined;
      turn.resolve(event);
    } else if (event.type === "session_error" && event.runFailed) {
      this.turn = undefined;
      turn.reject(new PlaygroundError(event.code as ErrorType, event.message));
    }
  }

  /** Sends one user message; resolves with the stop of its run. */
  sendMessage(text: string, options: { planMode?: boolean } = {}): Promise<StopEvent> {
    if (this.turn) throw new Error("a message is already running");
    return new Promise<StopEvent>((resolve, reject) => {
      this.turn = { resolve, reject };
      this.send({ type: "send_message", sessionId: this.sessionId, text, ...options });
    });
  }

  /** Resolves once every event sent before now has arrived (a round trip through the connection). */
  private settled(): Promise<void> {
    return new Promise((resolve) => {
      this.pings.push(resolve);
      this.send({ type: "list_providers" });
    });
  }

  /** Resolves once the MCP servers have each connected or failed, and their state has arrived. */
  async mcpStarted(): Promise<void> {
    await (await this.hub.open(this.sessionId)).mcpStarted();
    await this.settled();
  }

  /** The MCP servers as the session last reported them. */
  mcpServers(): readonly McpServerView[] {
    return this.mcp;
  }

  answerApproval(callId: string, answer: ApprovalAnswer): void {
    this.send({ type: "approval_answer", sessionId: this.sessionId, callId, answer });
  }

  /** Stop, as the page's Stop button: the run ends `canceled` and its processes are killed. */
  cancel(): void {
    this.send({ type: "cancel", sessionId: this.sessionId });
  }

  /** Ends the session (its MCP servers, its processes) and writes out its log. */
  async close(): Promise<void> {
    await this.client.close();
    await this.hub.shutdown();
    await this.options.processes.killAll();
  }
}
