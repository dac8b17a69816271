// S19 over HTTP: a Streamable HTTP MCP server (the SDK's server side, on a local port) whose tool answers
// with more than 10 MiB, as an event stream and as one JSON body. The SDK reads either without a limit; the
// connection's fetch counts the body as it arrives, fails the call with the limit, and stops that server.
import { ExitHooks } from "../tools/exit-hooks.ts";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { McpConnection } from "./mcp-connection.ts";

const MIB = 1024 * 1024;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** One MCP session per client; tool `big` answers with 11 MiB of text, `small` with a word. */
async function startBigServer(enableJsonResponse: boolean): Promise<string> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const servers: McpServer[] = [];
  const httpServer = http.createServer((request, response) => {
    void (async () => {
      const sessionId = request.headers["mcp-session-id"];
      let transport = typeof sessionId === "string" ? transports.get(sessionId) : undefined;
      if (!transport) {
        const created = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          enableJsonResponse,
          onsessioninitialized: (id) => void transports.set(id, created),
        });
        transport = created;
        const server = new McpServer({ name: "big-http", version: "1.0.0" });
        server.registerTool("big", { description: "11 MiB", inputSchema: {} }, async () => ({
          content: [{ type: "text", text: "b".repeat(11 * MIB) }],
        }));
        server.registerTool("small", { description: "a word", inputSchema: {} }, async () => ({
          content: [{ type: "text", text: "word" }],
        }));
        servers.push(server);
        await server.connect(transport);
      }
      await transport.handleRequest(request, response);
    })().catch((error: unknown) => {
      if (!response.headersSent) response.statusCode = 500;
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  closers.push(async () => {
    await Promise.all(servers.map((server) => server.close()));
    httpServer.closeAllConnections();
    await new Promise<void>((resolve) => httpServer.close(() => resolve()));
  });
  return `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/mcp`;
}

describe("S19: an HTTP MCP server's answer over 10 MiB", () => {
  for (const [kind, json] of [
    ["an event stream", false],
    ["a JSON body", true],
  ] as const) {
    it(`as ${kind}: the call fails with the limit and the server is stopped`, async () => {
      const url = await startBigServer(json);
      const connection = new McpConnection({
        config: { transport: "http", name: "big", url, headers: {}, configFile: "x", scope: "user" },
        workdir: "/tmp",
        sandbox: { homes: [] },
        clientVersion: "test",
        onChange: () => undefined,
        exitHooks: new ExitHooks(),
      });
      closers.push(() => connection.close());
      await connection.connect();
      expect(connection.status, connection.error).toBe("connected");
      const options = { signal: new AbortController().signal, timeoutMs: 30_000 };
      expect(await connection.callTool("small", {}, options)).toMatchObject({ content: [{ text: "word" }] });
      await expect(connection.callTool("big", {}, options)).rejects.toThrow(
        /message over 10 MiB .*the limit is 10 MiB per message, so the server was stopped/,
      );
      expect(connection.status).toBe("failed");
      expect(connection.error).toMatch(/message over 10 MiB.*reconnect to start it again/);
    }, 60_000);
  }
});
