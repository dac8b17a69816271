// A session's MCP servers through the in-memory transport: withheld in an untrusted folder, started when
// the folder is trusted (mid-run: registered, not visible until the next run), the tool console calling
// echo through an approval that shows the server's annotations, reconnect, and no process left after
// shutdown. The server is the reference server-everything under real bubblewrap.
import { randomBytes } from "node:crypto";
import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  EVERYTHING_SERVER,
  killProcessesWithArgument,
  processesWithArgument,
} from "../mcp/testing/processes.ts";
import { ProcessRunner } from "../tools/process-runner.ts";
import type { ProtocolClient } from "../transport/protocol-client.ts";
import type { SessionHub } from "./session-hub.ts";
import { connectClient, hubFolders, startHub } from "./testing/hub-harness.ts";

let root: string;
let workdir: string;
let hub: SessionHub;
let processes: ProcessRunner;
const clients: ProtocolClient[] = [];
const marker = `session-mcp-${randomBytes(6).toString("hex")}`;

beforeEach(async () => {
  const folders = await hubFolders("session-mcp-");
  root = folders.root;
  workdir = folders.workdir;
  await writeFile(
    path.join(workdir, ".mcp.json"),
    JSON.stringify({
      mcpServers: { everything: { command: "node", args: [EVERYTHING_SERVER, "stdio", marker] } },
    }),
  );
  processes = new ProcessRunner();
  hub = await startHub(folders, processes);
});

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  await hub.shutdown();
  await processes.killAll();
  await rm(root, { recursive: true, force: true });
});

async function connect(): Promise<ProtocolClient> {
  const client = await connectClient(hub);
  clients.push(client);
  return client;
}

describe("a session's MCP servers", () => {
  it("are withheld until the folder is trusted; trusted mid-run they are registered but not visible until the next run", async () => {
    const client = await connect();
    const sessionId = await client.createSession();
    const withheld = await client.waitForEvent("mcp_state", { sessionId });
    expect(withheld.event.servers).toEqual([
      expect.objectContaining({ name: "everything", status: "withheld" }),
    ]);
    expect(processesWithArgument(marker)).toEqual([]);

    // A run waits for an approval; meanwhile the folder is trusted and the server comes up.
    client.send({ type: "send_message", sessionId, text: "write a note" });
    const asked = await client.waitForEvent("permission_request", { sessionId });
    const from = client.messages.length;
    client.send({ type: "trust_folder", sessionId, remember: false });
    await client.waitForEvent("mcp_state", {
      sessionId,
      from,
      where: (event) => event.servers[0]?.status === "connected",
      timeoutMs: 20_000,
    });
    const snapshot = await client.waitForEvent("catalog_snapshot", {
      sessionId,
      from,
      where: (event) => event.registeredTools.includes("mcp__everything__echo"),
    });
    expect(snapshot.event.visibleTools).not.toContain("mcp__everything__echo");
    client.send({
      type: "approval_answer",
      sessionId,
      callId: asked.event.request.callId,
      answer: { kind: "allow_once" },
    });
    const second = await client.waitForEvent("request", {
      sessionId,
      where: (event) => event.snapshot.requestIndex === 2,
    });
    expect(second.event.snapshot.registeredNotVisible).toContain("mcp__everything__echo");
    expect(
      client.resolveRequest(sessionId, second.event.snapshot).tools.map((tool) => tool.name),
    ).not.toContain("mcp__everything__echo");
    await client.waitForEvent("stop", { sessionId });

    // The next run's snapshot has them.
    const next = client.messages.length;
    client.send({ type: "send_message", sessionId, text: "hello" });
    const request = await client.waitForEvent("request", { sessionId, from: next });
    const tools = client.resolveRequest(sessionId, request.event.snapshot).tools;
    expect(tools.find((tool) => tool.name === "mcp__everything__echo")).toMatchObject({
      origin: "main",
      mcpServer: "everything",
    });
    await client.waitForEvent("stop", { sessionId, from: next });

    await hub.shutdown();
    expect(processesWithArgument(marker)).toEqual([]);
  });

  it("the tool console calls echo through an approval that names the server and its hints; reconnect restarts it", async () => {
    const client = await connect();
    const sessionId = await client.createSession();
    await client.waitForEvent("mcp_state", { sessionId });
    client.send({ type: "trust_folder", sessionId, remember: false });
    const connected = await client.waitForEvent("mcp_state", {
      sessionId,
      where: (event) => event.servers[0]?.status === "connected",
      timeoutMs: 20_000,
    });
    const echo = connected.event.servers[0]!.tools.find((tool) => tool.name === "mcp__everything__echo")!;
    expect(echo.definitionTokens).toBeGreaterThan(10);

    client.send({
      type: "run_tool",
      sessionId,
      requestId: "r1",
      tool: "mcp__everything__echo",
      input: { message: "from the console" },
    });
    const asked = await client.waitForEvent("permission_request", { sessionId });
    expect(asked.event.request).toMatchObject({
      tool: "mcp__everything__echo",
      category: "exec",
      mcp: { server: "everything", tool: "echo" },
    });
    client.send({
      type: "approval_answer",
      sessionId,
      callId: asked.event.request.callId,
      answer: { kind: "allow_once" },
    });
    const result = await client.waitForEvent("tool_console_result", { sessionId });
    expect(result.event.result).toMatchObject({ ok: true, content: "Echo: from the console" });

    const before = processesWithArgument(marker);
    expect(before.length).toBeGreaterThan(0);
    const from = client.messages.length;
    client.send({ type: "mcp_reconnect", sessionId, server: "everything" });
    await client.waitForEvent("mcp_state", {
      sessionId,
      from,
      where: (event) => event.servers[0]?.status === "starting",
    });
    await client.waitForEvent("mcp_state", {
      sessionId,
      from,
      where: (event) => event.servers[0]?.status === "connected",
      timeoutMs: 20_000,
    });
    expect(processesWithArgument(marker).some((pid) => before.includes(pid))).toBe(false);

    // A crash is reported (once) and the panel offers a reconnect.
    const crash = client.messages.length;
    killProcessesWithArgument(marker);
    await client.waitForEvent("mcp_state", {
      sessionId,
      from: crash,
      where: (event) => event.servers[0]?.status === "crashed",
    });
    const reported = await client.waitForEvent("session_error", { sessionId, from: crash });
    expect(reported.event).toMatchObject({
      code: "mcp_error",
      message: expect.stringContaining("MCP server everything crashed"),
    });

    const unknown = client.messages.length;
    client.send({ type: "mcp_reconnect", sessionId, server: "nope" });
    const error = await client.waitFor((message) => message.type === "error", "error", { from: unknown });
    expect(error).toMatchObject({
      code: "not_found",
      message: expect.stringContaining("no MCP server named nope"),
    });
  });
});
