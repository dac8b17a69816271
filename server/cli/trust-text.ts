// One line saying whether the workdir's own settings apply, for `cli catalog`, `cli prompt` and `cli run`.
import { grantsSomething, trustStorePath } from "../permission/trust.ts";
import type { FolderGrants, FolderTrust } from "../protocol/sandbox.ts";

function describeGrants(grants: FolderGrants): string {
  const parts: string[] = [];
  if (grants.allow.length > 0) parts.push(`allow ${grants.allow.join(", ")}`);
  if (grants.mcpServers.length > 0) parts.push(`MCP servers ${grants.mcpServers.join(", ")}`);
  if (grants.defaultMode !== undefined) parts.push(`defaultMode ${grants.defaultMode}`);
  return parts.join("; ");
}

/** `trusted for this command (--trust): …` or `not trusted — its own settings would grant … (withheld; …)`. */
export function describeTrust(trust: FolderTrust, home: string): string {
  const grants = grantsSomething(trust.grants) ? describeGrants(trust.grants) : undefined;
  if (trust.trusted) {
    const why =
      trust.via === "cli"
        ? "trusted for this command (--trust)"
        : trust.via === "remembered"
          ? `trusted (remembered in ${trustStorePath(home)})`
          : `trusted (${trust.via ?? "given"})`;
    return grants ? `${why}: its own settings grant ${grants}` : `${why}; its own settings grant nothing`;
  }
  return grants
    ? `not trusted — its own settings would grant ${grants} (withheld; pass --trust to apply them for this command)`
    : "not trusted; its own settings grant nothing (deny and ask rules apply either way)";
}
