// A Streamable HTTP MCP server written with the SDK's server side (McpServer + StreamableHTTPServerTransport)
// on a local port, for tests and the benchmark: `echo`, `slow` (waits until cancelled, and records the
// cancellation), `picture` (an image), `links` (a resource link + structured content), `fail` (isError).
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

export const TINY_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

export interface TestHttpMcpServer {
  url: string;
  /** Request ids the server saw cancelled (notifications/cancelled), with the reason. */
  cancellations: { requestId: string; reason?: string }[];
  /** Headers of the last request. */
  lastHeaders: http.IncomingHttpHeaders;
  /** Requests received so far (of any kind). */
  requests: number;
  close(): Promise<void>;
}

function buildServer(record: TestHttpMcpServer): McpServer {
  const server = new McpServer({ name: "test-http", version: "1.0.0" });
  server.registerTool(
    "echo",
    {
      description: "Echoes the message back",
      inputSchema: { message: z.string() },
      annotations: { readOnlyHint: true, title: "Echo" },
    },
    async ({ message }) => ({ content: [{ type: "text", text: `Echo: ${message}` }] }),
  );
  server.registerTool(
    "slow",
    { description: "Waits until cancelled (or 30 s)", inputSchema: {} },
    async (_args, extra) =>
      new Promise((resolve) => {
        const timer = setTimeout(() => resolve({ content: [{ type: "text", text: "done" }] }), 30_000);
        extra.signal.addEventListener("abort", () => {
          clearTimeout(timer);
          record.cancellations.push({
            requestId: String(extra.requestId),
            ...(typeof extra.signal.reason === "string" ? { reason: extra.signal.reason } : {}),
          });
          resolve({ content: [{ type: "text", text: "cancelled" }] });
        });
      }),
  );
  server.registerTool("picture", { description: "A 1x1 image", inputSchema: {} }, async () => ({
    content: [
      { type: "text", text: "Here is a picture:" },
      { type: "image", data: TINY_PNG, mimeType: "image/png" },
    ],
  }));
  server.registerTool(
    "links",
    {
      description: "A resource link and structured content",
      inputSchema: {},
      outputSchema: { total: z.number() },
    },
    async () => ({
      content: [
        {
          type: "resource_link",
          uri: "file:///data/report.csv",
          name: "report.csv",
          mimeType: "text/csv",
          description: "the report",
        },
      ],
      structuredContent: { total: 42 },
    }),
  );
  server.registerTool("fail", { description: "Always fails", inputSchema: {} }, async () => ({
    content: [{ type: "text", text: "it went wrong" }],
    isError: true,
  }));
  return server;
}

/** Starts the server on `host` (default 127.0.0.1; a free port); one MCP session per client (stateful). */
export async function startHttpMcpServer(host = "127.0.0.1"): Promise<TestHttpMcpServer> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const servers: McpServer[] = [];
  const record: TestHttpMcpServer = {
    url: "",
    cancellations: [],
    lastHeaders: {},
    requests: 0,
    close: async () => undefined,
  };
  const httpServer = http.createServer((request, response) => {
    record.requests++;
    record.lastHeaders = request.headers;
    void (async () => {
      const sessionId = request.headers["mcp-session-id"];
      let transport = typeof sessionId === "string" ? transports.get(sessionId) : undefined;
      if (!transport) {
        transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => {
            transports.set(id, transport!);
          },
        });
        const server = buildServer(record);
        servers.push(server);
        await server.connect(transport);
      }
      await transport.handleRequest(request, response);
    })().catch((error: unknown) => {
      response.statusCode = 500;
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => httpServer.listen(0, host, resolve));
  const { port } = httpServer.address() as AddressInfo;
  record.url = `http://${host.includes(":") ? `[${host}]` : host}:${port}/mcp`;
  record.close = async () => {
    await Promise.all(servers.map((server) => server.close()));
    httpServer.closeAllConnections();
    await new Promise<void>((resolve) => httpServer.close(() => resolve()));
  };
  return record;
}
