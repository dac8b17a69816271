// The MCP panel: the session's MCP servers (where each is configured, its status, why it failed or
// crashed, whether it runs in the sandbox, what it published that the playground could not take as is),
// their registered tools with the token cost of each definition, the tail
// of the server's stderr, a reconnect button, and a tool console per tool (forms from its input schema).
"use client";
import type { McpServerStatus, McpServerView } from "../../server/protocol/index.ts";
import type { ConsoleResult } from "../state/types.ts";
import { ToolConsole } from "./tool-console.tsx";
import { Badge, Button, Pre, formatJson, type Tone } from "./ui.tsx";
import { plural } from "../../server/shared/figures.ts";

const statusTones: Record<McpServerStatus, Tone> = {
  configured: "slate",
  withheld: "amber",
  starting: "blue",
  connected: "green",
  failed: "red",
  crashed: "red",
  closed: "slate",
};

export function McpPanel({
  servers,
  warnings,
  consoleResults,
  onReconnect,
  onRunTool,
}: {
  servers: McpServerView[];
  warnings: string[];
  consoleResults: ConsoleResult[];
  onReconnect: (server: string) => void;
  onRunTool: (tool: string, input: unknown) => void;
}) {
  const total = servers.reduce((sum, server) => sum + server.definitionTokens, 0);
  if (servers.length === 0 && warnings.length === 0) return <McpEmptyState />;
  // A server's own warnings are shown on its row; the list at the top keeps the others (config files).
  const onRows = new Set(servers.flatMap((server) => server.warnings ?? []));
  return (
    <section className="space-y-1.5 p-2 text-xs" data-testid="mcp-panel" aria-label="MCP servers">
      <div className="flex flex-wrap items-center gap-1">
        <h2 className="text-sm font-semibold">MCP servers</h2>
        <Badge
          wrap
          testId="mcp-total-tokens"
          title="o200k_base tokens (gpt-tokenizer) of every MCP tool definition, counted on the server. A run's tool list is fixed when it starts: a run that began before a server connected does not carry its tools (the inspector lists them as registered, not visible)."
        >
          {total} tokens of definitions per request, from the first run after they connect
        </Badge>
      </div>
      {warnings
        .filter((warning) => !onRows.has(warning))
        .map((warning) => (
          <p key={warning} className="text-amber-900" data-testid="mcp-warning">
            ⚠ {warning}
          </p>
        ))}
      {servers.map((server) => (
        <McpServerCard
          key={server.name}
          server={server}
          consoleResults={consoleResults}
          onReconnect={() => onReconnect(server.name)}
          onRunTool={onRunTool}
        />
      ))}
    </section>
  );
}

/** The example an empty panel shows: the demo project's own server, in the format every config file uses. */
const EXAMPLE_CONFIG = `{
  "mcpServers": {
    "tickets": { "command": "node", "args": [".PseudoClaude/mcp/tickets-server.mjs"] }
  }
}`;

/** No server in this session: what an MCP server adds, and where to configure one. */
function McpEmptyState() {
  return (
    <section className="space-y-1 p-2 text-xs" data-testid="mcp-panel" aria-label="MCP servers">
      <div className="flex items-center gap-1">
        <h2 className="text-sm font-semibold">MCP servers</h2>
        <Badge testId="mcp-empty">none in this session</Badge>
      </div>
      <p className="text-slate-700" data-testid="mcp-empty-how">
        An MCP server adds its tools next to the built-in ones. Add one to <code>.mcp.json</code> in the
        working directory (it starts once you trust the folder) or to{" "}
        <code>~/.PseudoClaude/settings.json</code> (always starts), then start a new session.
      </p>
      <details>
        <summary className="cursor-pointer">Example (the demo project&apos;s own)</summary>
        <Pre text={EXAMPLE_CONFIG} testId="mcp-empty-example" />
        <p className="text-slate-600">
          A stdio server runs in the sandbox; <code>&quot;url&quot;</code> instead of <code>command</code>{" "}
          connects to a Streamable HTTP server.
        </p>
      </details>
    </section>
  );
}

function McpServerCard({
  server,
  consoleResults,
  onReconnect,
  onRunTool,
}: {
  server: McpServerView;
  consoleResults: ConsoleResult[];
  onReconnect: () => void;
  onRunTool: (tool: string, input: unknown) => void;
}) {
  const canReconnect = server.status !== "withheld" && server.status !== "starting";
  return (
    <div
      className="rounded border border-slate-200 p-1.5"
      data-testid={`mcp-server-${server.name}`}
      data-status={server.status}
    >
      <div className="flex flex-wrap items-center gap-1">
        <span className="font-mono text-sm font-semibold">{server.name}</span>
        <Badge tone={statusTones[server.status]} testId="mcp-server-status">
          {server.status}
        </Badge>
        <Badge>{server.transport === "http" ? "Streamable HTTP" : "stdio"}</Badge>
        <Badge title={server.configFile}>{server.scope === "user" ? "your settings" : "this folder"}</Badge>
        {server.sandbox && (
          <Badge
            tone={server.sandbox.enabled ? "green" : "red"}
            testId="mcp-server-sandbox"
            title={server.sandbox.reason}
          >
            {server.sandbox.enabled
              ? `sandbox on · network ${server.sandbox.network ? "on" : "off"}`
              : "sandbox off"}
          </Badge>
        )}
        {canReconnect && (
          <Button
            testId={`mcp-reconnect-${server.name}`}
            small
            onClick={onReconnect}
            title="End the server and start it again"
          >
            {server.status === "connected" ? "Restart" : "Reconnect"}
          </Button>
        )}
      </div>
      <p className="mt-0.5 font-mono break-all text-slate-600" data-testid="mcp-server-target">
        {server.target}
        {server.serverInfo ? ` — ${server.serverInfo.name} ${server.serverInfo.version}` : ""}
        {server.startMs !== undefined ? ` · started in ${server.startMs} ms` : ""}
      </p>
      {server.error && (
        <p
          className={server.status === "withheld" ? "text-amber-900" : "text-red-800"}
          data-testid="mcp-server-error"
        >
          {server.error}
        </p>
      )}
      {server.needsNetwork && server.status === "withheld" && (
        <p className="text-amber-900" data-testid="mcp-server-needs-network">
          Needs the network to start: {server.needsNetwork}.
        </p>
      )}
      {(server.warnings ?? []).map((warning) => (
        <p key={warning} className="text-amber-900" data-testid="mcp-server-warning">
          ⚠ {warning}
        </p>
      ))}
      {server.tools.length > 0 && (
        // Closed at first: the summary says how many tools and what they cost; the catalog keeps its room.
        <details className="mt-1" data-testid="mcp-server-tools">
          <summary className="cursor-pointer font-semibold" data-testid="mcp-server-tool-count">
            {plural(server.tools.length, "tool")} registered · {server.definitionTokens} tokens of definitions
            (o200k_base)
          </summary>
          <ul className="mt-1 space-y-1">
            {server.tools.map((tool) => (
              <li key={tool.name} className="rounded bg-slate-50 p-1" data-testid={`mcp-tool-${tool.name}`}>
                <div className="flex flex-wrap items-center gap-1">
                  <span className="font-mono font-semibold">{tool.name}</span>
                  <Badge
                    testId="mcp-tool-tokens"
                    title="o200k_base tokens of name, description and input schema as sent to the model"
                  >
                    {tool.definitionTokens} tokens
                  </Badge>
                  {tool.inputValidationOff !== undefined && (
                    <Badge tone="amber" testId="mcp-tool-unchecked" title={tool.inputValidationOff}>
                      arguments not checked
                    </Badge>
                  )}
                  {tool.annotations?.readOnlyHint === true && (
                    <Badge tone="violet" title="A hint from the server, not a guarantee: calls still ask">
                      server says read-only
                    </Badge>
                  )}
                </div>
                <p className="text-slate-700">{tool.description}</p>
                <details>
                  <summary className="cursor-pointer">input schema</summary>
                  <Pre text={formatJson(tool.inputSchema)} />
                </details>
                <ToolConsole
                  tool={tool.name}
                  schema={tool.inputSchema}
                  results={consoleResults.filter((result) => result.tool === tool.name)}
                  onRun={(input) => onRunTool(tool.name, input)}
                />
              </li>
            ))}
          </ul>
        </details>
      )}
      {server.stderrTail && (
        <details className="mt-1">
          <summary className="cursor-pointer">stderr (last lines)</summary>
          <Pre text={server.stderrTail} testId="mcp-server-stderr" className="max-h-32" />
        </details>
      )}
    </div>
  );
}
