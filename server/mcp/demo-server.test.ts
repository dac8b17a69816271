// The demo project's MCP server (examples/demo-workdir/.PseudoClaude/mcp/tickets-server.mjs) is plain Node
// with no SDK, so that it runs from any copy of the folder. The official SDK's own client and stdio
// transport check that it speaks the protocol: initialize, tools/list, tools/call, errors.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ListResourcesResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";

const demo = fileURLToPath(new URL("../../examples/demo-workdir/", import.meta.url));
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

async function connect(): Promise<Client> {
  client = new Client({ name: "demo-server-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [path.join(demo, ".PseudoClaude", "mcp", "tickets-server.mjs")],
      cwd: demo,
      stderr: "pipe",
    }),
  );
  return client;
}

describe("the demo's tickets MCP server", () => {
  it("initializes with the SDK client and lists two read-only tools", async () => {
    const sdk = await connect();
    expect(sdk.getServerVersion()).toEqual({ name: "acme-tickets", version: "1.0.0" });
    expect(sdk.getServerCapabilities()?.tools).toBeDefined();
    const { tools } = await sdk.listTools();
    expect(tools.map((tool) => [tool.name, tool.annotations?.readOnlyHint])).toEqual([
      ["search_tickets", true],
      ["get_ticket", true],
    ]);
  });

  it("answers tool calls, and says what was wrong with a bad one", async () => {
    const sdk = await connect();
    const found = await sdk.callTool({ name: "search_tickets", arguments: { query: "csv quoted" } });
    expect(found.content).toEqual([
      {
        type: "text",
        text: '1 ticket(s) match "csv quoted":\nACME-102 [open] Nightly report failed on a quoted product name (bug, incident, csv)',
      },
    ]);
    const missing = await sdk.callTool({ name: "get_ticket", arguments: { id: "ACME-7" } });
    expect(missing).toMatchObject({
      isError: true,
      content: [{ text: "No ticket ACME-7. Ids look like ACME-101." }],
    });
    const unknown = await sdk.callTool({ name: "delete_ticket", arguments: {} });
    expect(unknown).toMatchObject({ isError: true, content: [{ text: "unknown tool delete_ticket" }] });
    await expect(sdk.request({ method: "resources/list" }, ListResourcesResultSchema)).rejects.toThrow(
      /method not found/,
    );
  });
});
