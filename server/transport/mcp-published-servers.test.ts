// A published npm MCP server whose tool schemas are JSON Schema 2020-12 (the MCP default dialect; built
// on the SDK v2), configured in the user's settings the way its README says and started by a real
// session: every tool it lists is registered, the panel (mcp_state) counts those, no warning.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { McpServerView } from "../protocol/mcp.ts";
import type { ServerMessage } from "../protocol/wire.ts";
import { TestClient, startTestServer, type TestServer } from "./testing/harness.ts";

/** The package's bin (`mcp-system-monitor-server`), next to its main module. */
const SYSTEM_MONITOR = path.join(
  path.dirname(fileURLToPath(import.meta.resolve("@modelcontextprotocol/server-system-monitor"))),
  "index.js",
);

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer({}, { watch: false });
  await mkdir(path.join(server.home, ".PseudoClaude"), { recursive: true });
  await writeFile(
    path.join(server.home, ".PseudoClaude", "settings.json"),
    JSON.stringify({
      mcpServers: { monitor: { command: process.execPath, args: [SYSTEM_MONITOR, "--stdio"] } },
    }),
  );
});
afterEach(async () => {
  await server.dispose();
});

function connectedView(message: ServerMessage): McpServerView | undefined {
  if (message.type !== "event" || message.event.type !== "mcp_state") return undefined;
  return message.event.servers.find(
    (entry) => entry.name === "monitor" && ["connected", "failed", "crashed"].includes(entry.status),
  );
}

describe("a published 2020-12 MCP server", () => {
  it("@modelcontextprotocol/server-system-monitor registers every tool it lists", async () => {
    const client = await TestClient.connect(server);
    const sessionId = await client.createSession();
    const state = await client.waitFor(
      (message) => connectedView(message) !== undefined,
      "the monitor's state",
      {
        timeoutMs: 20_000,
      },
    );
    const view = connectedView(state)!;
    expect(view.status, view.error).toBe("connected");
    expect(view.tools.map((tool) => tool.tool).sort()).toEqual(["get-system-info", "poll-system-stats"]);
    expect(
      view.tools.every((tool) => tool.inputSchema.$schema === "https://json-schema.org/draft/2020-12/schema"),
    ).toBe(true);
    expect(view.tools.filter((tool) => tool.inputValidationOff !== undefined)).toEqual([]);
    expect(view.warnings ?? []).toEqual([]);
    const names = view.tools.map((tool) => tool.name);
    const snapshot = await client.waitForEvent("catalog_snapshot", {
      sessionId,
      where: (event) => names.every((name) => event.registeredTools.includes(name)),
    });
    expect(snapshot.event.registeredTools).toEqual(expect.arrayContaining(names));
  }, 60_000);
});
