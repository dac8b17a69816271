// Whether the workdir's own settings apply, for `cli catalog`, `cli prompt` and `cli run`: one line, then
// one line per MCP server the folder configures (what it runs or reaches: command, arguments, variable and
// header names — never values —, URL, network), and why a folder trusted before asks again.
import { grantsSomething, serverLine, trustStorePath } from "../permission/trust.ts";
import type { FolderGrants, FolderTrust, McpServerGrant } from "../protocol/sandbox.ts";

function describeGrants(grants: FolderGrants): string {
  const parts: string[] = [];
  if (grants.allow.length > 0) parts.push(`allow ${grants.allow.join(", ")}`);
  if (grants.mcpServers.length > 0) parts.push(`MCP servers ${grants.mcpServers.join(", ")}`);
  if (grants.defaultMode !== undefined) parts.push(`defaultMode ${grants.defaultMode}`);
  return parts.join("; ");
}

/** `  MCP server files (/w/.mcp.json): node files-server.js (env FILES_TOKEN) · network off — needs …`. */
function describeServer(server: McpServerGrant, networkServers: readonly string[]): string {
  const network = server.network || networkServers.includes(server.name);
  const where = server.transport === "stdio" ? ` · network ${network ? "on" : "off"}` : "";
  const cwd = server.cwd ? ` · cwd ${server.cwd}` : "";
  const need =
    server.needsNetwork && !network
      ? ` — needs network: ${server.needsNetwork}${server.transport === "stdio" ? ' (to allow it, add "network": true to its entry)' : " (run with --allow-network)"}`
      : "";
  return `  MCP server ${server.name} (${server.configFile}): ${serverLine({ ...server, network: false })}${cwd}${where}${need}`;
}

/** `trusted for this command (--trust): …` or `not trusted — its own settings would grant … (withheld; …)`. */
export function describeTrust(trust: FolderTrust, home: string): string {
  const grants = grantsSomething(trust.grants) ? describeGrants(trust.grants) : undefined;
  let head: string;
  if (trust.trusted) {
    const why =
      trust.via === "cli"
        ? "trusted for this command (--trust)"
        : trust.via === "remembered"
          ? `trusted (remembered in ${trustStorePath(home)})`
          : `trusted (${trust.via ?? "given"})`;
    head = grants ? `${why}: its own settings grant ${grants}` : `${why}; its own settings grant nothing`;
  } else
    head = grants
      ? `not trusted — its own settings would grant ${grants} (withheld; pass --trust to apply them for this command)`
      : "not trusted; its own settings grant nothing (deny and ask rules apply either way)";
  const lines = [head];
  for (const server of trust.grants.servers ?? [])
    lines.push(describeServer(server, trust.networkServers ?? []));
  if (trust.renewal) {
    lines.push(`  asks again: ${trust.renewal.reason}`);
    for (const change of trust.renewal.changes) lines.push(`    - ${change}`);
  }
  return lines.join("\n");
}
