// The one Node client of the playground's WebSocket protocol: the transport tests, the benchmarks, the
// soak script and the browser tests' helpers all drive a real server through it. It presents the
// playground's own Origin (the server refuses upgrades without one, as browsers always send it). It speaks
// over the Transport seam, so the session tests drive a ClientConnection through an in-memory pair.
import { WebSocket } from "ws";
import type {
  ApprovalAnswer,
  ChatMessage,
  ClientCommand,
  RequestRef,
  ResolvedRequest,
  RunDigest,
  ServerMessage,
  SessionConfirmation,
  SessionEvent,
  SessionSettings,
} from "../protocol/index.ts";
import { RequestReader } from "../protocol/request-model.ts";
import type { Transport } from "./transport.ts";
import { InMemoryTransport } from "./transport.ts";
import { WebSocketTransport } from "./ws-transport.ts";

export type EventMessage = Extract<ServerMessage, { type: "event" }>;
export type HelloMessage = Extract<ServerMessage, { type: "hello" }>;
export type EventOf<K extends SessionEvent["type"]> = EventMessage & {
  event: Extract<SessionEvent, { type: K }>;
};

/** The server answered a command with `{type:"error"}`. */
export class ServerError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly confirm?: SessionConfirmation[],
  ) {
    super(`server answered ${code}: ${message}`);
  }
}

export interface ConnectOptions {
  /** `ws://host:port` or `http://host:port` of the server (the path and token are added). */
  address: string;
  token: string;
  /** Default: the server's own origin. */
  origin?: string;
  /** Keep every message for `waitFor`/`events` (tests); off for long runs (soak, benchmarks). */
  keepMessages?: boolean;
  maxPayload?: number;
}

type Waiter = {
  match: (message: ServerMessage) => boolean;
  /** A waiter about one session is failed only by errors about that session (or about none). */
  sessionId?: string;
  rejectOnError: boolean;
  resolve: (message: ServerMessage) => void;
  reject: (error: Error) => void;
};

export function isEvent<K extends SessionEvent["type"]>(
  message: ServerMessage,
  type: K,
  sessionId?: string,
): message is EventOf<K> {
  return (
    message.type === "event" &&
    message.event.type === type &&
    (sessionId === undefined || message.sessionId === sessionId)
  );
}

export class ProtocolClient {
  /** Every message received, when `keepMessages` is on. */
  readonly messages: ServerMessage[] = [];
  closeCode: number | undefined;
  private readonly waiters = new Set<Waiter>();
  private readonly listeners = new Set<(message: ServerMessage, raw: string) => void>();
  private wakeups: (() => void)[] = [];
  private failure: Error | undefined;
  private helloMessage: HelloMessage | undefined;
  private readonly closedPromise: Promise<void>;

  protected constructor(
    readonly transport: Transport,
    private readonly keepMessages: boolean,
  ) {
    let markClosed: () => void = () => undefined;
    this.closedPromise = new Promise((resolve) => (markClosed = resolve));
    transport.start({
      message: (frame) => {
        if (frame.kind === "text") this.receive(frame.text);
      },
      close: (code, reason) => {
        this.closeCode = code;
        this.fail(new Error(`the server closed the WebSocket (${code}${reason.length ? ` ${reason}` : ""})`));
        markClosed();
      },
      error: (error) => this.fail(error),
    });
  }

  /** Opens the socket and waits for `hello`. */
  static async connectTo(options: ConnectOptions): Promise<ProtocolClient> {
    const client = new ProtocolClient(
      new WebSocketTransport(ProtocolClient.openSocket(options)),
      options.keepMessages ?? false,
    );
    await client.ready();
    return client;
  }

  /** Speaks over a transport already linked to a server connection (an in-memory pair); waits for `hello`. */
  static async over(transport: Transport, options: { keepMessages?: boolean } = {}): Promise<ProtocolClient> {
    const client = new ProtocolClient(transport, options.keepMessages ?? true);
    await client.ready();
    return client;
  }

  /** The WebSocket under this client (clients made by connectTo). */
  get socket(): WebSocket {
    if (!(this.transport instanceof WebSocketTransport)) throw new Error("this client has no WebSocket");
    return this.transport.socket;
  }

  protected static openSocket(options: ConnectOptions): WebSocket {
    const base = new URL(options.address);
    const host = base.host;
    return new WebSocket(`ws://${host}/ws?token=${options.token}`, {
      origin: options.origin ?? `http://${host}`,
      ...(options.maxPayload !== undefined ? { maxPayload: options.maxPayload } : {}),
    });
  }

  protected async ready(): Promise<void> {
    const hello = this.next((message) => message.type === "hello", { timeoutMs: 10_000 });
    const opened = this.transport instanceof WebSocketTransport ? this.transport.opened() : undefined;
    await Promise.all([opened, hello]);
    this.helloMessage = (await hello) as HelloMessage;
  }

  get hello(): HelloMessage {
    if (!this.helloMessage) throw new Error("not connected yet");
    return this.helloMessage;
  }

  private receive(raw: string): void {
    const message = JSON.parse(raw) as ServerMessage;
    if (this.keepMessages) this.messages.push(message);
    for (const listener of this.listeners) listener(message, raw);
    for (const waiter of [...this.waiters]) {
      if (message.type === "error" && waiter.rejectOnError) {
        const other =
          message.sessionId !== undefined &&
          waiter.sessionId !== undefined &&
          message.sessionId !== waiter.sessionId;
        if (other) continue;
        this.waiters.delete(waiter);
        waiter.reject(new ServerError(message.code, message.message, message.confirm));
        continue;
      }
      if (waiter.match(message)) {
        this.waiters.delete(waiter);
        waiter.resolve(message);
      }
    }
    for (const wake of this.wakeups.splice(0)) wake();
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const waiter of this.waiters) waiter.reject(error);
    this.waiters.clear();
    for (const wake of this.wakeups.splice(0)) wake();
  }

  send(command: ClientCommand): void {
    this.transport.send(JSON.stringify(command));
  }

  /** A frame as given (tests of invalid and oversize frames); a Buffer goes as a binary frame. */
  sendRaw(text: string | Buffer): void {
    if (this.transport instanceof WebSocketTransport) this.transport.sendRaw(text);
    else if (typeof text === "string") this.transport.send(text);
    else if (this.transport instanceof InMemoryTransport) this.transport.sendBinary(text);
    else throw new Error("this transport sends text frames only");
  }

  /** Sees every server message (parsed, and the frame text as received). Returns the unsubscribe. */
  onMessage(listener: (message: ServerMessage, raw: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Resolves with the next message that matches (register it before sending the command that causes it).
   * An error about the same session (or about none) rejects it with a ServerError, unless `rejectOnError`
   * is false; so does the socket closing.
   */
  next(
    match: (message: ServerMessage) => boolean,
    options: { timeoutMs?: number; sessionId?: string; rejectOnError?: boolean } = {},
  ): Promise<ServerMessage> {
    if (this.failure) return Promise.reject(this.failure);
    const timeoutMs = options.timeoutMs ?? 120_000;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`no matching server message within ${timeoutMs} ms`));
      }, timeoutMs);
      const waiter: Waiter = {
        match,
        ...(options.sessionId !== undefined ? { sessionId: options.sessionId } : {}),
        rejectOnError: options.rejectOnError ?? true,
        resolve: (message) => {
          clearTimeout(timer);
          resolve(message);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      this.waiters.add(waiter);
    });
  }

  /** The first kept message from index `from` that matches, waiting for it if needed (needs keepMessages). */
  async waitFor<T extends ServerMessage = ServerMessage>(
    predicate: (message: ServerMessage) => boolean,
    what: string,
    options: { from?: number; timeoutMs?: number } = {},
  ): Promise<T> {
    if (!this.keepMessages) throw new Error("waitFor needs a client made with keepMessages");
    const deadline = Date.now() + (options.timeoutMs ?? 10_000);
    for (;;) {
      const found = this.messages.slice(options.from ?? 0).find(predicate);
      if (found) return found as T;
      if (this.closeCode !== undefined)
        throw new Error(`socket closed (${this.closeCode}) while waiting for ${what}`);
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        const seen = this.messages.map((message) =>
          message.type === "event" ? `event:${message.event.type}` : message.type,
        );
        throw new Error(`timed out waiting for ${what}; saw ${seen.slice(-30).join(", ")}`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, remaining);
        this.wakeups.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  waitForEvent<K extends SessionEvent["type"]>(
    type: K,
    options: {
      sessionId?: string;
      from?: number;
      timeoutMs?: number;
      where?: (event: Extract<SessionEvent, { type: K }>) => boolean;
    } = {},
  ): Promise<EventOf<K>> {
    return this.waitFor(
      (message) =>
        isEvent(message, type, options.sessionId) &&
        (options.where === undefined || options.where(message.event as Extract<SessionEvent, { type: K }>)),
      `event ${type}`,
      options,
    );
  }

  /**
   * The conversation a `session_opened` stands for: its `history` when it carries one, else (a replay
   * from the start carries the turns) the replayed history_appended messages, once they have all arrived.
   */
  async openedConversation(opened: EventOf<"session_opened">): Promise<ChatMessage[]> {
    if (opened.event.history) return opened.event.history;
    const count = opened.event.historyLength ?? 0;
    const replayed = () =>
      this.events(opened.sessionId).filter(
        (message) => message.seq <= opened.seq && message.event.type === "history_appended",
      );
    await this.waitFor(() => replayed().length >= count, `the replay of ${count} conversation messages`);
    return replayed()
      .slice(0, count)
      .flatMap((message) => (message.event.type === "history_appended" ? [message.event.message] : []));
  }

  /**
   * A request this client received, in full: resolved from the blobs and the conversation the session's
   * events carried up to it (server/protocol/request-model.ts).
   */
  resolveRequest(sessionId: string, ref: RequestRef): ResolvedRequest {
    const reader = new RequestReader();
    for (const message of this.events(sessionId)) {
      const event = message.event;
      if (event.type === "session_opened")
        for (const [index, appended] of (event.history ?? []).entries()) {
          const figures = event.historyFigures?.[index];
          const restored: SessionEvent = {
            type: "history_appended",
            runId: "",
            message: appended,
            ...(figures ? { figures } : {}),
          };
          reader.observe(restored);
        }
      else reader.observe(event);
      if (event.type === "request" && event.snapshot === ref) break;
    }
    return reader.resolve(ref);
  }

  /** The session's requests this client received, in full, in order. */
  requests(sessionId: string): ResolvedRequest[] {
    return this.events(sessionId).flatMap((message) =>
      message.event.type === "request" ? [this.resolveRequest(sessionId, message.event.snapshot)] : [],
    );
  }

  /** The messages a request was sent with (a shorthand for `resolveRequest(…).messages`). */
  snapshotMessages(sessionId: string, ref: RequestRef): ChatMessage[] {
    return this.resolveRequest(sessionId, ref).messages;
  }

  /** The provider payloads this client received, as sent, by request index. */
  payloads(sessionId: string): Map<number, unknown> {
    const reader = new RequestReader();
    const payloads = new Map<number, unknown>();
    for (const { event } of this.events(sessionId)) {
      reader.observe(event);
      if (event.type === "provider_payload") payloads.set(event.requestIndex, reader.payload(event.hash));
    }
    return payloads;
  }

  /**
   * Waits for the session's next approval request (from kept message `from` on) and answers it; returns
   * the request event. Tests that play the user approving a call use this.
   */
  async answerNextApproval(
    sessionId: string,
    answer: ApprovalAnswer = { kind: "allow_once" },
    options: { from?: number; timeoutMs?: number } = {},
  ): Promise<EventOf<"permission_request">> {
    const asked = await this.waitForEvent("permission_request", { sessionId, ...options });
    this.send({ type: "approval_answer", sessionId, callId: asked.event.request.callId, answer });
    return asked;
  }

  /** Kept events of one session, in order. */
  events(sessionId: string): EventMessage[] {
    return this.messages.filter(
      (message): message is EventMessage => message.type === "event" && message.sessionId === sessionId,
    );
  }

  /** Creates a session and returns its id; a refusal (e.g. confirmation_required) is a ServerError. */
  async createSession(
    settings: Partial<SessionSettings> = {},
    confirm?: SessionConfirmation[],
  ): Promise<string> {
    const opened = this.next((message) => isEvent(message, "session_opened"));
    this.send({ type: "create_session", settings, ...(confirm ? { confirm } : {}) });
    return ((await opened) as EventMessage).sessionId;
  }

  /**
   * Sends one user message and resolves with the run's stop event. The previous run's `stop` arrives just
   * before the session accepts a new message, so a `run_in_progress` answer is retried (with a deadline).
   */
  async sendMessage(sessionId: string, text: string, timeoutMs = 120_000): Promise<EventOf<"stop">["event"]> {
    const deadline = Date.now() + 5_000;
    for (;;) {
      const stopped = this.next(
        (candidate) =>
          isEvent(candidate, "stop", sessionId) || isEvent(candidate, "session_error", sessionId),
        { timeoutMs, sessionId },
      );
      this.send({ type: "send_message", sessionId, text });
      let message: ServerMessage;
      try {
        message = await stopped;
      } catch (error) {
        if (!(error instanceof ServerError) || error.code !== "run_in_progress" || Date.now() > deadline)
          throw error;
        await new Promise((resolve) => setTimeout(resolve, 1));
        continue;
      }
      const event = (message as EventMessage).event;
      if (event.type === "session_error")
        throw new Error(`session ${sessionId}: ${event.code}: ${event.message}`);
      return event as EventOf<"stop">["event"];
    }
  }

  /**
   * Edit & resend / Rerun from here (fork_request): resolves with the branch session's id once it is
   * opened on this connection (its first run is then under way). A refusal is a ServerError.
   */
  async forkRequest(
    command: Omit<Extract<ClientCommand, { type: "fork_request" }>, "type">,
  ): Promise<string> {
    const opened = this.next(
      (message) => isEvent(message, "session_opened") && message.event.session.branch !== undefined,
      { sessionId: command.sessionId },
    );
    this.send({ type: "fork_request", ...command });
    return ((await opened) as EventMessage).sessionId;
  }

  /** The session's runs as the compare view shows them (get_runs). */
  async runs(sessionId: string): Promise<RunDigest[]> {
    const answer = this.next(
      (message) => message.type === "session_runs" && message.sessionId === sessionId,
      {
        sessionId,
      },
    );
    this.send({ type: "get_runs", sessionId });
    return ((await answer) as Extract<ServerMessage, { type: "session_runs" }>).runs;
  }

  async close(): Promise<void> {
    if (this.closeCode !== undefined) return;
    this.transport.close();
    await this.closedPromise;
  }
}
