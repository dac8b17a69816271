// A minimal Node client of the playground's WebSocket protocol, for driving a real server from the
// benchmarks: connect with the start token, create sessions, send messages and wait for each run's stop.
import { once } from "node:events";
import { WebSocket } from "ws";
import type {
  ClientCommand,
  ServerMessage,
  SessionEvent,
  SessionSettings,
} from "../server/protocol/index.ts";

type Waiter = {
  match: (message: ServerMessage) => boolean;
  /** A waiter about one session is failed only by errors about that session (or about none). */
  sessionId?: string;
  resolve: (message: ServerMessage) => void;
  reject: (error: Error) => void;
};

/** The session refuses a message until its previous run has fully finished (log flushed after `stop`). */
const RUN_IN_PROGRESS = /run is in progress/;

export class ServerError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(`server answered ${code}: ${message}`);
  }
}

export class PlaygroundClient {
  private readonly waiters = new Set<Waiter>();
  private readonly listeners = new Set<(message: ServerMessage, raw: string) => void>();
  private failure: Error | undefined;

  private constructor(private readonly socket: WebSocket) {
    socket.on("message", (data) => {
      const raw = String(data);
      const message = JSON.parse(raw) as ServerMessage;
      for (const listener of this.listeners) listener(message, raw);
      for (const waiter of [...this.waiters]) {
        if (message.type === "error") {
          if (
            message.sessionId !== undefined &&
            waiter.sessionId !== undefined &&
            message.sessionId !== waiter.sessionId
          )
            continue;
          this.waiters.delete(waiter);
          waiter.reject(new ServerError(message.code, message.message));
          continue;
        }
        if (waiter.match(message)) {
          this.waiters.delete(waiter);
          waiter.resolve(message);
        }
      }
    });
    socket.on("close", (code, reason) =>
      this.fail(new Error(`the server closed the WebSocket (${code} ${String(reason)})`)),
    );
    socket.on("error", (error) => this.fail(error));
  }

  static async connect(port: number, token: string): Promise<PlaygroundClient> {
    // The server refuses upgrades without an Origin (SECURITY: browsers always send one), so this client
    // presents the playground's own origin, as the pages do.
    const socket = new WebSocket(`ws://127.0.0.1:${port}/ws?token=${token}`, {
      maxPayload: 256 * 1024 * 1024,
      origin: `http://127.0.0.1:${port}`,
    });
    const client = new PlaygroundClient(socket);
    const hello = client.next((message) => message.type === "hello");
    await Promise.all([once(socket, "open"), hello]);
    return client;
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const waiter of this.waiters) waiter.reject(error);
    this.waiters.clear();
  }

  /** Resolves with the next message that matches (registered before the command that causes it). */
  next(
    match: (message: ServerMessage) => boolean,
    timeoutMs = 120_000,
    sessionId?: string,
  ): Promise<ServerMessage> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`no matching server message within ${timeoutMs} ms`));
      }, timeoutMs);
      const waiter: Waiter = {
        match,
        ...(sessionId !== undefined ? { sessionId } : {}),
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

  /** Sees every server message (parsed, and the frame text as received). Returns the unsubscribe. */
  onMessage(listener: (message: ServerMessage, raw: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  send(command: ClientCommand): void {
    this.socket.send(JSON.stringify(command));
  }

  async createSession(settings: Partial<SessionSettings>): Promise<string> {
    const opened = this.next((message) => isEvent(message, "session_opened"));
    this.send({ type: "create_session", settings });
    const message = await opened;
    if (message.type !== "event") throw new Error("unreachable");
    return message.sessionId;
  }

  /**
   * Sends one user message and resolves with the run's stop event. The previous run's `stop` arrives just
   * before the session accepts a new message, so a "run is in progress" answer is retried (polled, with
   * a deadline) rather than treated as a failure.
   */
  async sendMessage(
    sessionId: string,
    text: string,
    timeoutMs = 120_000,
  ): Promise<SessionEvent & { type: "stop" }> {
    const deadline = Date.now() + 5_000;
    let message: ServerMessage;
    for (;;) {
      const stopped = this.next(
        (candidate) =>
          isEvent(candidate, "stop", sessionId) || isEvent(candidate, "session_error", sessionId),
        timeoutMs,
        sessionId,
      );
      this.send({ type: "send_message", sessionId, text });
      try {
        message = await stopped;
        break;
      } catch (error) {
        if (!(error instanceof ServerError) || !RUN_IN_PROGRESS.test(error.message) || Date.now() > deadline)
          throw error;
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    }
    if (message.type !== "event") throw new Error("unreachable");
    if (message.event.type === "session_error")
      throw new Error(`session ${sessionId}: ${message.event.code}: ${message.event.message}`);
    return message.event as SessionEvent & { type: "stop" };
  }

  async close(): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return;
    const closed = once(this.socket, "close");
    this.socket.close();
    await closed;
  }
}

export function isEvent(message: ServerMessage, type: SessionEvent["type"], sessionId?: string): boolean {
  return (
    message.type === "event" &&
    message.event.type === type &&
    (sessionId === undefined || message.sessionId === sessionId)
  );
}
