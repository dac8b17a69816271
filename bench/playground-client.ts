// A minimal Node client of the playground's WebSocket protocol, for driving a real server from the
// benchmarks: connect with the start token, create sessions, send messages and wait for each run's stop.
import { once } from "node:events";
import { WebSocket } from "ws";
import type { ClientCommand, ServerMessage, SessionEvent, SessionSettings } from "../server/protocol/index.ts";

type Waiter = { match: (message: ServerMessage) => boolean; resolve: (message: ServerMessage) => void; reject: (error: Error) => void };

export class PlaygroundClient {
  private readonly waiters = new Set<Waiter>();
  private failure: Error | undefined;

  private constructor(private readonly socket: WebSocket) {
    socket.on("message", (data) => {
      const message = JSON.parse(String(data)) as ServerMessage;
      for (const waiter of [...this.waiters]) {
        if (message.type === "error" && waiter.match !== acceptAll) {
          this.waiters.delete(waiter);
          waiter.reject(new Error(`server answered ${message.code}: ${message.message}`));
          continue;
        }
        if (waiter.match(message)) {
          this.waiters.delete(waiter);
          waiter.resolve(message);
        }
      }
    });
    socket.on("close", (code, reason) => this.fail(new Error(`the server closed the WebSocket (${code} ${String(reason)})`)));
    socket.on("error", (error) => this.fail(error));
  }

  static async connect(port: number, token: string): Promise<PlaygroundClient> {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/ws?token=${token}`, { maxPayload: 256 * 1024 * 1024 });
    const client = new PlaygroundClient(socket);
    const hello = client.next((message) => message.type === "hello");
    await once(socket, "open");
    await hello;
    return client;
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const waiter of this.waiters) waiter.reject(error);
    this.waiters.clear();
  }

  /** Resolves with the next message that matches (registered before the command that causes it). */
  next(match: (message: ServerMessage) => boolean, timeoutMs = 120_000): Promise<ServerMessage> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`no matching server message within ${timeoutMs} ms`));
      }, timeoutMs);
      const waiter: Waiter = {
        match,
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

  /** Sends one user message and resolves with the run's stop event. */
  async sendMessage(sessionId: string, text: string, timeoutMs = 120_000): Promise<SessionEvent & { type: "stop" }> {
    const stopped = this.next((message) => isEvent(message, "stop", sessionId) || isEvent(message, "session_error", sessionId), timeoutMs);
    this.send({ type: "send_message", sessionId, text });
    const message = await stopped;
    if (message.type !== "event") throw new Error("unreachable");
    if (message.event.type === "session_error") throw new Error(`session ${sessionId}: ${message.event.code}: ${message.event.message}`);
    return message.event as SessionEvent & { type: "stop" };
  }

  async close(): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return;
    const closed = once(this.socket, "close");
    this.socket.close();
    await closed;
  }
}

const acceptAll = () => true;

export function isEvent(message: ServerMessage, type: SessionEvent["type"], sessionId?: string): boolean {
  return message.type === "event" && message.event.type === type && (sessionId === undefined || message.sessionId === sessionId);
}
