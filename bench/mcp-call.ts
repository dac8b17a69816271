// MCP tool call overhead: `mcp__<server>__echo` through the playground's seams — Registry.prepare (input
// schema), PermissionEngine.evaluate, the MCP tool (our client over the sandboxed stdio transport, or
// Streamable HTTP), result rendering, redaction and the model's output cap — against a direct call with
// the SDK's own Client to the same server program (stdio: the SDK's StdioClientTransport to a second
// server-everything process; HTTP: a second SDK client to the same server process). Interleaved, same run.
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { McpServerConfig } from "../server/mcp/config.ts";
import { McpServers, type McpServersOptions } from "../server/mcp/mcp-servers.ts";
import { startHttpMcpServer } from "../server/mcp/testing/http-mcp-server.ts";
import { PermissionEngine } from "../server/permission/engine.ts";
import { SecretRedactor } from "../server/providers/redact.ts";
import { capForModel } from "../server/tools/output-cap.ts";
import { Registry } from "../server/tools/registry.ts";
import { sandboxState } from "../server/tools/sandbox.ts";
import { interleave, median, round, type Figure, type FigureRow } from "./harness.ts";

const EVERYTHING = fileURLToPath(
  import.meta.resolve("@modelcontextprotocol/server-everything/dist/index.js"),
);

const DEMO = fileURLToPath(new URL("../examples/demo-workdir", import.meta.url));

interface Side {
  call(message: string): Promise<void>;
}

async function playgroundSide(
  config: McpServerConfig,
  workdir: string,
  sandbox: McpServersOptions["sandbox"] = { homes: [] },
): Promise<Side & { close(): Promise<void>; sandboxed: boolean }> {
  const registry = new Registry();
  const servers = new McpServers({ registry, workdir, sandbox, clientVersion: "bench" });
  // The bench's own provider keys (the environment's): what a session redacts a tool result of.
  const secrets = new SecretRedactor();
  await servers.start({ servers: [config], withheld: [], warnings: [] });
  const view = servers.views()[0]!;
  if (view.status !== "connected") throw new Error(`MCP server ${view.name} did not connect: ${view.error}`);
  const engine = new PermissionEngine({ mode: "bypassPermissions", rules: [], sandbox: sandboxState(false) });
  const name = `mcp__${config.name}__echo`;
  return {
    sandboxed: view.sandbox?.enabled === true,
    async call(message) {
      const input = { message };
      const prepared = registry.prepare(name, input);
      if (!prepared.ok) throw new Error(prepared.result.content);
      const tool = prepared.call;
      engine.evaluate({ callId: "bench", tool: tool.definition, input, target: tool.describe(workdir) });
      const execution = await tool.execute({
        workdir,
        callId: "bench",
        signal: new AbortController().signal,
      });
      const result = secrets.redact(execution.result);
      capForModel(result.content);
      if (result.content !== `Echo: ${message}`) throw new Error(`unexpected echo result: ${result.content}`);
    },
    close: () => servers.close(),
  };
}

async function directSide(
  transport: StdioClientTransport | StreamableHTTPClientTransport,
): Promise<Side & { close(): Promise<void> }> {
  const client = new Client({ name: "bench-direct", version: "1" });
  await client.connect(transport);
  return {
    async call(message) {
      const result = await client.callTool({ name: "echo", arguments: { message } });
      const text = (result.content as { text?: string }[])[0]?.text;
      if (text !== `Echo: ${message}`) throw new Error(`unexpected echo result: ${String(text)}`);
    },
    close: () => client.close(),
  };
}

function summary(samples: { subject: number[]; baseline: number[] }) {
  const medianMs = median(samples.subject);
  const baselineMedianMs = median(samples.baseline);
  const paired = samples.subject.map((value, index) => value - samples.baseline[index]!);
  return { medianMs, baselineMedianMs, ratio: medianMs / baselineMedianMs, medianOverheadMs: median(paired) };
}

export const mcpCallFigure: Figure = {
  name: "mcp-call",
  workload:
    "mcp__everything__echo via registry + permission + MCP client vs the SDK's Client (workdir: a git copy of examples/demo-workdir)",
  target: "report (median ratio, same run)",
  async run({ quick }): Promise<FigureRow[]> {
    const rounds = quick ? 30 : 200;
    // The demo workdir as a user has it, a git repository: a sandboxed stdio server's calls are each
    // checked against the workdir's repositories (server/mcp/call-check.ts), so its size counts.
    const workdir = mkdtempSync(path.join(tmpdir(), "bench-mcp-"));
    cpSync(DEMO, workdir, { recursive: true });
    for (const args of [
      ["init", "-q"],
      ["add", "-A"],
      ["commit", "-qm", "demo"],
    ])
      execFileSync("git", ["-c", "user.name=bench", "-c", "user.email=bench@example.com", ...args], {
        cwd: workdir,
        stdio: "ignore",
      });
    const rows: FigureRow[] = [];
    try {
      // Twice: the server in bubblewrap (as sessions run it), then without, to tell client from sandbox cost.
      const variants: { label: string; sandbox: McpServersOptions["sandbox"] }[] = [
        { label: "", sandbox: { homes: [] } },
        {
          label: " (sandbox off for this row)",
          sandbox: { homes: [], availability: { available: false, program: "bwrap", reason: "bench row" } },
        },
      ];
      for (const variant of variants) {
        const ours = await playgroundSide(
          {
            transport: "stdio",
            name: "everything",
            command: process.execPath,
            args: [EVERYTHING, "stdio"],
            env: {},
            network: false,
            configFile: "(bench)",
            scope: "user",
          },
          workdir,
          variant.sandbox,
        );
        const direct = await directSide(
          new StdioClientTransport({
            command: process.execPath,
            args: [EVERYTHING, "stdio"],
            stderr: "ignore",
          }),
        );
        try {
          const stdio = summary(
            await interleave(
              rounds,
              () => ours.call("hello"),
              () => direct.call("hello"),
              10,
            ),
          );
          rows.push({
            figure: "mcp-call",
            workload: `mcp__everything__echo over stdio${ours.sandboxed ? " (server in bubblewrap)" : variant.label}, ${rounds} calls`,
            unit: "ms",
            median: round(stdio.medianMs),
            baselineMedian: round(stdio.baselineMedianMs),
            ratio: round(stdio.ratio),
            target: "report",
            status: "report",
            note: `baseline: the SDK's Client + StdioClientTransport calling echo on a second server-everything process (unsandboxed), interleaved; median paired overhead ${stdio.medianOverheadMs.toFixed(3)} ms per call`,
            details: { ...stdio, rounds, sandboxed: ours.sandboxed },
          });
        } finally {
          await ours.close();
          await direct.close();
        }
      }

      const http = await startHttpMcpServer();
      try {
        const oursHttp = await playgroundSide(
          {
            transport: "http",
            name: "web",
            url: http.url,
            headers: {},
            configFile: "(bench)",
            scope: "user",
          },
          workdir,
        );
        const directHttp = await directSide(new StreamableHTTPClientTransport(new URL(http.url)));
        try {
          const result = summary(
            await interleave(
              rounds,
              () => oursHttp.call("hello"),
              () => directHttp.call("hello"),
              10,
            ),
          );
          rows.push({
            figure: "mcp-call",
            workload: `echo over Streamable HTTP (SDK server, same process for both), ${rounds} calls`,
            unit: "ms",
            median: round(result.medianMs),
            baselineMedian: round(result.baselineMedianMs),
            ratio: round(result.ratio),
            target: "report",
            status: "report",
            note: `baseline: the SDK's Client + StreamableHTTPClientTransport to the same server, interleaved; median paired overhead ${result.medianOverheadMs.toFixed(3)} ms per call`,
            details: { ...result, rounds },
          });
        } finally {
          await oursHttp.close();
          await directHttp.close();
        }
      } finally {
        await http.close();
      }
    } finally {
      rmSync(workdir, { recursive: true, force: true });
    }
    return rows;
  },
};
