// `cli catalog`: what the Catalog found in the three layers, and why each skill is (not) offered.
import { UNTRUSTED_FOLDER } from "../mcp/mcp-servers.ts";
import type { CatalogSnapshot, LintProfileName, NotOfferedSkill } from "../protocol/catalog.ts";
import { withBudgetNotOffered } from "../prompt/not-offered.ts";
import type { ListingBudget } from "../prompt/stable-system.ts";
import type { McpServerView } from "../protocol/mcp.ts";
import type { ToolDefinition } from "../protocol/model.ts";
import type { FolderTrust } from "../protocol/sandbox.ts";
import type { Workspace } from "../session/workspace.ts";
import type { CliIo } from "./io.ts";
import { describeTrust } from "./trust-text.ts";

/** The stderr lines about MCP servers that did not start: failed (a warning), withheld (a note). */
export function mcpServerNotes(servers: readonly McpServerView[]): string[] {
  return servers.flatMap((server) => {
    if (server.status === "failed") return [`warning: MCP server ${server.name} failed: ${server.error}`];
    if (server.status !== "withheld") return [];
    const why =
      server.error === UNTRUSTED_FOLDER || !server.error
        ? "the folder is not trusted (--trust)"
        : server.error;
    return [`note: MCP server ${server.name} (${server.configFile}) not started: ${why}`];
  });
}

/**
 * Starts the MCP servers (the workdir's own when trusted, as they were trusted); failures and bad config
 * are warnings on stderr. `network`: --allow-network (an HTTP server on another host needs it).
 */
export async function startMcp(
  workspace: Workspace,
  trust: FolderTrust,
  network: boolean,
  io: Pick<CliIo, "stderr">,
): Promise<void> {
  await workspace.mcp.setSessionNetwork(network);
  await workspace.startMcp(trust);
  for (const warning of workspace.mcp.warnings) io.stderr(`warning: ${warning}\n`);
  for (const line of mcpServerNotes(workspace.mcp.views())) io.stderr(`${line}\n`);
}

export interface CatalogReport {
  workdir: string;
  layers: Workspace["layers"];
  skills: Omit<CatalogSnapshot["skills"][number], "raw" | "body">[];
  warnings: CatalogSnapshot["warnings"];
  removed: CatalogSnapshot["removed"];
  shadowed: CatalogSnapshot["shadowed"];
  lint: CatalogSnapshot["lint"];
  /** Whether the workdir's own allow rules apply (project skills need no trust: their calls ask). */
  trust: FolderTrust;
  /** Every tool in the main Registry at the end of the start: system tools, then MCP tools. */
  tools: Pick<ToolDefinition, "name" | "origin" | "category" | "mcpServer">[];
  /** The MCP servers: status, tools with the token cost of their definitions, stderr tail. */
  mcp: McpServerView[];
  /** Every skill found on disk but not offered to the model, one sentence each (issue 21). */
  notOffered: NotOfferedSkill[];
  /** The lint profile enforced (lenient unless --lint-profile). */
  profile: LintProfileName;
}

export function catalogReport(
  workspace: Workspace,
  trust: FolderTrust,
  listingBudget?: ListingBudget,
): CatalogReport {
  const snapshot = withBudgetNotOffered(workspace.catalog.snapshot(), workspace.catalog, listingBudget);
  return {
    workdir: workspace.workdir,
    layers: workspace.layers,
    skills: snapshot.skills.map(({ raw: _raw, body: _body, ...skill }) => skill),
    warnings: snapshot.warnings,
    removed: snapshot.removed,
    shadowed: snapshot.shadowed,
    lint: snapshot.lint,
    trust,
    tools: workspace.registry.definitions().map((tool) => ({
      name: tool.name,
      origin: tool.origin,
      category: tool.category,
      ...(tool.mcpServer ? { mcpServer: tool.mcpServer } : {}),
    })),
    mcp: workspace.mcp.views(),
    notOffered: snapshot.notOffered ?? [],
    profile: workspace.catalog.profile,
  };
}

export function formatCatalog(report: CatalogReport, home: string): string {
  const lines: string[] = [`Workdir: ${report.workdir}`, `Trust: ${describeTrust(report.trust, home)}`, ""];
  lines.push(`Skills (${report.skills.length}):`);
  const width = Math.max(4, ...report.skills.map((skill) => skill.name.length));
  for (const skill of report.skills) {
    const overrides = report.shadowed
      .filter((entry) => entry.name === skill.name)
      .map((entry) => entry.loser.source);
    const note = overrides.length > 0 ? `  (overrides ${overrides.join(", ")})` : "";
    lines.push(`  ${skill.name.padEnd(width)}  [${skill.source}]  ${skill.description}${note}`);
    lines.push(`  ${"".padEnd(width)}  ${skill.entryPath}`);
    if (skill.toolNames.length > 0)
      lines.push(`  ${"".padEnd(width)}  own tools: ${skill.toolNames.join(", ")}`);
    if (skill.meta.tools.length > 0)
      lines.push(`  ${"".padEnd(width)}  needs tools: ${skill.meta.tools.join(", ")}`);
    if (skill.meta.mode !== "shared") {
      lines.push(`  ${"".padEnd(width)}  mode: ${skill.meta.mode}, history: ${skill.meta.history}`);
    }
  }
  const section = (title: string, entries: string[]) => {
    lines.push("", `${title} (${entries.length}):`);
    lines.push(...(entries.length > 0 ? entries.map((entry) => `  ${entry}`) : ["  none"]));
  };
  section(
    "Shadowed",
    report.shadowed.map(
      (entry) =>
        `${entry.name}: ${entry.winner.source} ${entry.winner.path} wins over ${entry.loser.source} ${entry.loser.path}`,
    ),
  );
  section(
    "Removed (missing tools)",
    report.removed.map(
      (entry) =>
        `${entry.name} [${entry.source}] needs ${entry.missing.join(", ")}${entry.reasons ? ` (${entry.reasons.join("; ")})` : ""} — ${entry.path}`,
    ),
  );
  section(
    "MCP servers",
    report.mcp.map(
      (server) =>
        `${server.name} [${server.transport}, ${server.scope}] ${server.status}${server.error ? `: ${server.error}` : ""}` +
        (server.tools.length > 0
          ? ` — ${server.tools.length} tool${server.tools.length === 1 ? "" : "s"}, ${server.definitionTokens} tokens of definitions (o200k_base): ${server.tools.map((tool) => tool.name).join(", ")}`
          : "") +
        (server.warnings ?? []).map((warning) => `\n    warning: ${warning}`).join(""),
    ),
  );
  section(
    "Warnings",
    report.warnings.map((warning) => {
      const at =
        warning.line !== undefined
          ? `:${warning.line}${warning.column !== undefined ? `:${warning.column}` : ""}`
          : "";
      return `[${warning.source}] ${warning.path}${at}: ${warning.reason}`;
    }),
  );
  section(
    "Not offered to the model",
    report.notOffered.map((entry) => `${entry.name} [${entry.source}]: ${entry.reason} — ${entry.path}`),
  );
  section(
    `Lint (profile ${report.profile})`,
    report.lint.map(
      (note) =>
        `${note.skill} [${note.profile ?? "playground"}${note.level === "error" ? " error" : ""}] (${note.rule}): ${note.message} — ${note.path}${note.line !== undefined ? `:${note.line}` : ""}`,
    ),
  );
  return lines.join("\n");
}
