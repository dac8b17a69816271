// Real server on port 0 with temp home/workdir/scenarios, and the protocol client (every message kept,
// waits by predicate with a deadline, no fixed sleeps).
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import WebSocket from "ws";
import type { ClientCommand } from "../../protocol/wire.ts";
import { ProtocolClient } from "../protocol-client.ts";
import { startServer, type RunningServer, type StartServerOptions } from "../start-server.ts";
import { WebSocketTransport } from "../ws-transport.ts";

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

export type { EventMessage } from "../protocol-client.ts";

/** The protocol client with every message kept, connected to a test server. */
export class TestClient extends ProtocolClient {
  static async connect(server: TestServer, origin = server.origin): Promise<TestClient> {
    const socket = ProtocolClient.openSocket({
      address: `http://127.0.0.1:${server.port}`,
      token: server.token,
      origin,
    });
    const client = new TestClient(new WebSocketTransport(socket), true);
    await client.ready();
    return client;
  }

  /** Also takes frames that are not valid commands (the invalid-frame tests). */
  override send(command: ClientCommand | Record<string, unknown>): void {
    this.transport.send(JSON.stringify(command));
  }
}
