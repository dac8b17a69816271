// The shared core of the fake API servers: a real node:http server on 127.0.0.1:0 that answers each
// POST with the next scripted response (SSE stream, JSON error, raw bytes, or a stream cut mid-way) and
// records every request so tests can assert on exactly what the SDK sent.
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface SseEvent {
  /** The `event:` line; omitted for OpenAI-style data-only streams. */
  event?: string;
  /** The `data:` payload, already serialized. */
  data: string;
}

export type FakeResponse =
  /**
   * An SSE stream. With `cutAfter`, only that many events are sent and then the socket is destroyed;
   * with `holdAfter`, only that many are sent and the connection stays open (a model still thinking).
   */
  | {
      kind: "sse";
      events: SseEvent[];
      cutAfter?: number;
      holdAfter?: number;
      headers?: Record<string, string>;
    }
  /** A JSON answer with a status, e.g. an API error body. */
  | { kind: "json"; status: number; body: unknown; headers?: Record<string, string> }
  /** Exact bytes with a content type, e.g. a malformed SSE stream. */
  | { kind: "raw"; status?: number; contentType: string; body: string };

/** What both fakes' scripted turns share. */
export interface FakeTurnBase {
  /** Text, or its deltas in order. */
  text?: string | string[];
  model?: string;
}

/** The text deltas of a turn, in order (none when it has no text). */
export function textDeltasOf(turn: FakeTurnBase): string[] {
  if (turn.text === undefined) return [];
  return Array.isArray(turn.text) ? turn.text : [turn.text];
}

/** An SSE answer; with `cutAfter`, the stream is cut after that many events. */
export function sseResponse(events: SseEvent[], cutAfter?: number): FakeResponse {
  return { kind: "sse", events, cutAfter };
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

export interface FakeServer {
  /** http://127.0.0.1:PORT (no trailing slash, no /v1). */
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Queue responses; each POST takes the next one. */
  enqueue(...responses: FakeResponse[]): void;
  /** Responses still queued (a test can check that everything it scripted was used). */
  remaining(): number;
  close(): Promise<void>;
}

export function formatSse(event: SseEvent): string {
  return `${event.event ? `event: ${event.event}\n` : ""}data: ${event.data}\n\n`;
}

function readBody(request: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

function parseJsonOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function sendSse(
  response: http.ServerResponse,
  scripted: Extract<FakeResponse, { kind: "sse" }>,
  extraHeaders: Record<string, string>,
): void {
  response.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache",
    ...extraHeaders,
    ...scripted.headers,
  });
  const limit = scripted.cutAfter ?? scripted.holdAfter;
  const text = (limit === undefined ? scripted.events : scripted.events.slice(0, limit))
    .map(formatSse)
    .join("");
  if (limit === undefined) {
    response.end(text);
    return;
  }
  if (scripted.holdAfter !== undefined) {
    response.write(text); // close() ends it (closeAllConnections), or the client aborts
    return;
  }
  // Flush what was sent, then drop the connection without the chunked terminator: a cut stream.
  response.flushHeaders();
  response.write(text, () => response.socket?.destroy());
}

/**
 * Starts a fake on 127.0.0.1:0 answering POSTs to `paths` (with the API's usual `responseHeaders`);
 * any other path gets a 404 in `notFoundBody`'s shape.
 */
export async function startFakeHttpServer(options: {
  paths: string[];
  responseHeaders: Record<string, string>;
  notFoundBody: (path: string) => unknown;
}): Promise<FakeServer> {
  const queue: FakeResponse[] = [];
  const requests: RecordedRequest[] = [];
  const server = http.createServer((request, response) => {
    void (async () => {
      const text = await readBody(request);
      const path = (request.url ?? "").split("?")[0];
      requests.push({
        method: request.method ?? "",
        path,
        headers: request.headers,
        body: parseJsonOrText(text),
      });
      if (request.method !== "POST" || !options.paths.includes(path)) {
        response.writeHead(404, { "content-type": "application/json" });
        response.end(JSON.stringify(options.notFoundBody(path)));
        return;
      }
      const scripted = queue.shift();
      if (!scripted) {
        response.writeHead(500, { "content-type": "application/json" });
        response.end(
          JSON.stringify({
            error: { type: "fake_server_error", message: "fake server: no scripted response left" },
          }),
        );
        return;
      }
      if (scripted.kind === "sse") return sendSse(response, scripted, options.responseHeaders);
      if (scripted.kind === "json") {
        response.writeHead(scripted.status, {
          "content-type": "application/json",
          ...options.responseHeaders,
          ...scripted.headers,
        });
        response.end(JSON.stringify(scripted.body));
        return;
      }
      response.writeHead(scripted.status ?? 200, {
        "content-type": scripted.contentType,
        ...options.responseHeaders,
      });
      response.end(scripted.body);
    })().catch((error: unknown) => {
      response.destroy(error instanceof Error ? error : new Error(String(error)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    enqueue: (...responses) => queue.push(...responses),
    remaining: () => queue.length,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** A URL on 127.0.0.1 where nothing listens: a port that was just bound and released. */
export async function refusedUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  return `http://127.0.0.1:${port}`;
}

/** Splits `text` into `count` nearly equal pieces (at least one character each). */
export function splitText(text: string, count: number): string[] {
  const pieces = Math.max(1, Math.min(count, text.length));
  const size = Math.ceil(text.length / pieces);
  const result: string[] = [];
  for (let start = 0; start < text.length; start += size) result.push(text.slice(start, start + size));
  return result.length > 0 ? result : [""];
}
