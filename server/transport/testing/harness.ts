// Real server on port 0 with temp home/workdir/scenarios, and a real `ws` client that waits for messages
// by predicate with a deadline (no fixed sleeps).
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import WebSocket from "ws";
import type { ClientCommand, ServerMessage, SessionEvent } from "../../protocol/wire.ts";
import { startServer, type RunningServer, type StartServerOptions } from "../start-server.ts";

export interface TestServer extends RunningServer {
  root: string;
  home: string;
  workdir: string;
  scenariosDir: string;
  origin: string;
  dispose(): Promise<void>;
}

export async function startTestServer(
  scenarios: Record<string, string> = {},
  overrides: Partial<StartServerOptions> = {},
): Promise<TestServer> {
  const root = await realpath(await mkdtemp(path.join(tmpdir(), "playground-server-")));
  const home = path.join(root, "home");
  const workdir = path.join(root, "work");
  const scenariosDir = path.join(root, "scenarios");
  await mkdir(home, { recursive: true });
  await mkdir(workdir, { recursive: true });
  await mkdir(scenariosDir, { recursive: true });
  await writeFile(path.join(workdir, "README.md"), "# demo\n");
  for (const [name, text] of Object.entries(scenarios)) await writeFile(path.join(scenariosDir, name), text);
  const server = await startServer({
    port: 0,
    home,
    defaultWorkdir: workdir,
    scenariosDir,
    staticDir: path.join(root, "out"),
    log: () => undefined,
    ...overrides,
  });
  return {
    ...server,
    root,
    home,
    workdir,
    scenariosDir,
    origin: `http://127.0.0.1:${server.port}`,
    async dispose() {
      await server.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A raw HTTP request with exactly the headers given (Host included). */
export function rawRequest(
  port: number,
  options: { method?: string; path?: string; headers?: Record<string, string>; body?: string },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: "127.0.0.1",
        port,
        method: options.method ?? "GET",
        path: options.path ?? "/",
        headers: options.headers ?? {},
        setHost: false,
      },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (body += chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
        );
      },
    );
    outgoing.on("error", reject);
    outgoing.end(options.body);
  });
}

/** Attempts a WebSocket upgrade; resolves with the HTTP status of a refusal, or 101 when it opened. */
export function tryUpgrade(
  port: number,
  options: { token?: string; origin?: string; host?: string; path?: string },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const query = options.token === undefined ? "" : `?token=${options.token}`;
    const socket = new WebSocket(`ws://127.0.0.1:${port}${options.path ?? "/ws"}${query}`, {
      ...(options.origin !== undefined ? { origin: options.origin } : {}),
      headers: options.host ? { Host: options.host } : {},
    });
    socket.on("unexpected-response", (_request, response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => (body += chunk.toString()));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
    });
    socket.on("open", () => {
      socket.close();
      resolve({ status: 101, body: "" });
    });
    socket.on("error", (error) => {
      if (!String(error.message).includes("Unexpected server response")) reject(error);
    });
  });
}

export type EventMessage = Extract<ServerMessage, { type: "event" }>;

export class TestClient {
  readonly messages: ServerMessage[] = [];
  private waiters: (() => void)[] = [];
  closeCode: number | undefined;

  private constructor(readonly socket: WebSocket) {
    socket.on("message", (data) => {
      this.messages.push(JSON.parse(data.toString()) as ServerMessage);
      for (const wake of this.waiters.splice(0)) wake();
    });
    socket.on("close", (code) => {
      this.closeCode = code;
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  static async connect(server: TestServer, origin = server.origin): Promise<TestClient> {
    const socket = new WebSocket(`ws://127.0.0.1:${server.port}/ws?token=${server.token}`, { origin });
    const client = new TestClient(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once("open", () => resolve());
      socket.once("error", reject);
    });
    await client.waitFor((message) => message.type === "hello", "hello");
    return client;
  }

  send(command: ClientCommand | Record<string, unknown>): void {
    this.socket.send(JSON.stringify(command));
  }

  sendRaw(text: string | Buffer): void {
    this.socket.send(text);
  }

  /** Waits for the first message (from index `from`) matching the predicate. */
  async waitFor<T extends ServerMessage = ServerMessage>(
    predicate: (message: ServerMessage) => boolean,
    what: string,
    options: { from?: number; timeoutMs?: number } = {},
  ): Promise<T> {
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
        this.waiters.push(() => {
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
  ): Promise<EventMessage & { event: Extract<SessionEvent, { type: K }> }> {
    return this.waitFor(
      (message) =>
        message.type === "event" &&
        message.event.type === type &&
        (options.sessionId === undefined || message.sessionId === options.sessionId) &&
        (options.where === undefined || options.where(message.event as Extract<SessionEvent, { type: K }>)),
      `event ${type}`,
      options,
    );
  }

  events(sessionId: string): EventMessage[] {
    return this.messages.filter(
      (message): message is EventMessage => message.type === "event" && message.sessionId === sessionId,
    );
  }

  /** Creates a session (with the confirmations given, if any) and returns its id. */
  async createSession(settings: Record<string, unknown> = {}, confirm?: string[]): Promise<string> {
    const from = this.messages.length;
    this.send({ type: "create_session", settings, ...(confirm ? { confirm } : {}) });
    const opened = await this.waitForEvent("session_opened", { from });
    return opened.sessionId;
  }

  close(): void {
    this.socket.close();
  }
}
