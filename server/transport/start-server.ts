// The playground server: one process, one origin. node:http serves the static pages (out/) and upgrades
// /ws to a WebSocket; every request passes the Host check first, upgrades also Origin and token.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { Socket, type AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { WebSocketServer } from "ws";
import { errorMessage } from "../errors/index.ts";
import { listProviders, loadProvidersConfig } from "../providers/config.ts";
import { SessionHub } from "../session/session-hub.ts";
import type { LogFileSystem } from "../session/session-log.ts";
import type { SessionParts } from "../session/session-types.ts";
import { ProcessRunner } from "../tools/process-runner.ts";
import type { TokenCounter } from "../prompt/segments.ts";
import { SecretRedactor } from "../providers/redact.ts";
import { ClientConnection } from "./connection.ts";
import { WebSocketTransport } from "./ws-transport.ts";
import {
  buildPolicy,
  checkHost,
  checkOrigin,
  checkToken,
  checkUpgrade,
  generateToken,
  tokenFromRequest,
} from "./handshake.ts";
import { checkListenAddress, exposedHostNames } from "./listen-address.ts";
import { StaticFiles, sendText, securityHeaders } from "./static-files.ts";
import { defaultSessionParts } from "../session/default-parts.ts";
import { PLAYGROUND_VERSION } from "../session/workspace.ts";
import { logRecordSample, logRecordValidators } from "../session/log-schema.ts";
import { compileSoon } from "../protocol/validator.ts";

export const MAX_FRAME_BYTES = 1024 * 1024;
/** Runs of each log validator on a sample while the server waits for its first page (compileSoon). */
const LOG_VALIDATOR_WARM_RUNS = 500;
const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));

export interface StartServerOptions {
  host?: string;
  /** 0 picks a free port. Default 3000. */
  port?: number;
  unsafeExpose?: boolean;
  /** Holds .PseudoClaude/ (user skills, settings, session logs). */
  home: string;
  defaultWorkdir: string;
  /** Scenario folder for the scripted provider; default the repo's scenarios/. */
  scenariosDir?: string;
  /** The static export; default the repo's out/. */
  staticDir?: string;
  /** Fixed token (tests of "token of an earlier start" use a fresh one anyway). Default: random. */
  token?: string;
  serverVersion?: string;
  log?: (line: string) => void;
  parts?: SessionParts;
  watch?: boolean;
  logFileSystem?: LogFileSystem;
  /** Idle sessions beyond this many are closed (their logs stay; opening restores them). */
  maxOpenSessions?: number;
  /** A request whose headers are not complete by then gets 408 (slowloris). Default 10 s. */
  headersTimeoutMs?: number;
  /** Starts every tool process of this server; `close` ends what is still running. Default: a new one. */
  processes?: ProcessRunner;
  /** The token counter of every session's figures (the composition root's); default the server's own. */
  tokens?: TokenCounter;
  /** The provider keys every session and log is redacted of (the composition root's); default its own. */
  secrets?: SecretRedactor;
}

export interface RunningServer {
  /** The URL that opens the playground already authorised (token in the fragment). */
  url: string;
  host: string;
  port: number;
  token: string;
  hub: SessionHub;
  close(): Promise<void>;
}

function rejectUpgrade(socket: Socket, status: number, reason: string): void {
  const statusText =
    status === 401
      ? "Unauthorized"
      : status === 403
        ? "Forbidden"
        : status === 404
          ? "Not Found"
          : "Bad Request";
  const body = `${reason}\n`;
  socket.end(
    `HTTP/1.1 ${status} ${statusText}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\n\r\n${body}`,
    () => socket.destroy(),
  );
}

function urlHost(host: string): string {
  if (host === "0.0.0.0" || host === "::") return "127.0.0.1";
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const host = options.host ?? "127.0.0.1";
  checkListenAddress(host, options.unsafeExpose === true);
  const log = options.log ?? ((line: string) => console.log(line));
  const token = options.token ?? generateToken();
  const scenariosDir = options.scenariosDir ?? `${REPO_ROOT}scenarios`;
  const staticFiles = new StaticFiles(options.staticDir ?? `${REPO_ROOT}out`);
  const processes = options.processes ?? new ProcessRunner();
  const secrets = options.secrets ?? new SecretRedactor();
  const hub = new SessionHub({
    home: options.home,
    defaultWorkdir: options.defaultWorkdir,
    parts: options.parts ?? defaultSessionParts({ scenariosDir, home: options.home, secrets }),
    providers: () => listProviders(loadProvidersConfig({ home: options.home, secrets })),
    log,
    watch: options.watch,
    logFileSystem: options.logFileSystem,
    maxOpenSessions: options.maxOpenSessions,
    processes,
    ...(options.tokens ? { tokens: options.tokens } : {}),
    secrets,
  });
  // The policy needs the real port, known only after listen(); requests cannot arrive before that.
  let policy = buildPolicy(options.port ?? 3000, token);

  const handleRequest = (request: IncomingMessage, response: ServerResponse) => {
    const hostCheck = checkHost(request, policy);
    if (!hostCheck.ok) return sendText(response, hostCheck.status, hostCheck.reason);
    const requestHost = request.headers.host ?? "";
    const headers = securityHeaders(requestHost);
    if (request.method !== "GET" && request.method !== "HEAD") {
      // No route changes state over plain HTTP; a cross-site form POST is refused either way (N9).
      const originCheck = checkOrigin(request, policy);
      if (!originCheck.ok) return sendText(response, originCheck.status, originCheck.reason, headers);
      return sendText(response, 405, "method not allowed: the playground talks over its WebSocket", {
        ...headers,
        Allow: "GET, HEAD",
      });
    }
    const pathname = new URL(request.url ?? "/", "http://placeholder").pathname;
    if (pathname === "/ws") {
      // A page whose socket was refused asks here why: the same checks as an upgrade, in plain HTTP, so it
      // can tell "no token" and "a token of an earlier start" apart from "the server is not there".
      const refused = [
        checkOrigin(request, policy),
        checkToken(tokenFromRequest(request), policy.token),
      ].find((check) => !check.ok);
      if (refused && !refused.ok) return sendText(response, refused.status, refused.reason, headers);
      return sendText(response, 426, "upgrade to a WebSocket here", { ...headers, Upgrade: "websocket" });
    }
    staticFiles.serve(request, response, requestHost).catch((error: unknown) => {
      log(`static file error: ${errorMessage(error)}`);
      if (!response.headersSent) sendText(response, 500, "internal error", headers);
      else response.destroy();
    });
  };

  // Node's defaults let a half-sent request hold a socket for 60 s, checked every 30 s; a local page needs
  // neither. The WebSocket lives on after its upgrade request completed, so these do not touch it.
  const headersTimeout = options.headersTimeoutMs ?? 10_000;
  const server = createServer(
    {
      headersTimeout,
      requestTimeout: Math.max(headersTimeout, 30_000),
      connectionsCheckingInterval: Math.min(1_000, headersTimeout),
    },
    handleRequest,
  );
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  const serverVersion = options.serverVersion ?? PLAYGROUND_VERSION;

  server.on("upgrade", (request: IncomingMessage, socket: Socket, head: Buffer) => {
    // A client that goes away mid-handshake (ECONNRESET) is routine; anything else is worth a line.
    const onSocketError = (error: NodeJS.ErrnoException) => {
      if (error.code !== "ECONNRESET" && error.code !== "EPIPE")
        log(`upgrade socket error: ${error.message}`);
    };
    socket.on("error", onSocketError);
    const check = checkUpgrade(request, policy);
    if (!check.ok) return rejectUpgrade(socket, check.status, check.reason);
    const pathname = new URL(request.url ?? "/", "http://placeholder").pathname;
    if (pathname !== "/ws") return rejectUpgrade(socket, 404, "the WebSocket endpoint is /ws");
    sockets.handleUpgrade(request, socket, head, (webSocket) => {
      socket.off("error", onSocketError);
      const connection = new ClientConnection(new WebSocketTransport(webSocket, socket), hub, {
        serverVersion,
        log,
      });
      void connection.start();
    });
  });
  server.on("clientError", (error: NodeJS.ErrnoException, socket) => {
    const status =
      error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? "408 Request Timeout"
        : error.code === "HPE_HEADER_OVERFLOW"
          ? "431 Request Header Fields Too Large"
          : "400 Bad Request";
    if (socket.writable) socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\n\r\n`);
    // A connection that timed out without sending a byte is a browser's spare one (Chromium opens them
    // ahead of need), not a client error: closed like the others, but not reported in the terminal.
    const idle =
      error.code === "ERR_HTTP_REQUEST_TIMEOUT" && socket instanceof Socket && socket.bytesRead === 0;
    if (!idle) log(`client error: ${error.message}`);
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 3000, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  policy = buildPolicy(port, token, exposedHostNames(host));
  // Made ready now rather than inside a page's first load, which reopens the session the page showed: the
  // build's chunks are read into memory (served in one turn, not queued behind the reopen), and the log
  // records' schemas compile one per turn (the reopen would compile them before its replay).
  let stopped = false;
  staticFiles
    .keepBuildFiles(() => stopped)
    .catch((error: unknown) => {
      log(`static files: served from disk (could not read the build into memory: ${errorMessage(error)})`);
    });
  const warming = compileSoon(logRecordValidators(), {
    warm: { runs: LOG_VALIDATOR_WARM_RUNS, sample: logRecordSample },
  });

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      stopped = true;
      warming.stop();
      for (const client of sockets.clients) client.close(1001, "server shutting down");
      await hub.shutdown();
      await processes.killAll();
      sockets.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    })();
    return closing;
  };

  return { url: `http://${urlHost(host)}:${port}/#token=${token}`, host, port, token, hub, close };
}
