// A plugin bundle read from an install tree (a zip or a folder, already checked by the install rules):
// Agent Plugins 1.0 (`plugin.json` with `$schema` and `name`, skills under `skills/<name>/SKILL.md`,
// MCP servers in `mcp.json`) or a Claude Code plugin (`.claude-plugin/plugin.json`, `skills/`, `.mcp.json`).
// Each component is checked on its own: one broken skill or server is a warning and is left out, never a
// failed install (Agent Plugins §6.2, §7.1, §7.2.2). A manifest that breaks its schema rejects the whole
// plugin (§5.2, §5.3). Nothing is written here.
import path from "node:path";
import { InstallRefused, type InstallFile, type InstallTree } from "./install-tree.ts";
import { stageSkill, type StagedSkill } from "./install.ts";

export const AGENT_PLUGINS_SCHEMA = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json";
export const AGENT_PLUGINS_MCP_SCHEMA = "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json";
const MANIFEST_FIELDS = new Set([
  "$schema",
  "name",
  "version",
  "description",
  "author",
  "homepage",
  "repository",
  "license",
  "keywords",
  "extensions",
]);
/** Agent Plugins §5.5: 1–64 of a-z 0-9 - ., alphanumeric at both ends, no `--` or `..`. */
const PLUGIN_NAME = /^[a-z0-9](?:[a-z0-9.-]{0,62}[a-z0-9])?$/;

export type PluginFormat = "agent-plugins" | "claude-code";

/** A server as the playground's settings hold it (`mcpServers` entry), with the variables expanded. */
export type SettingsServer =
  | { command: string; args: string[]; env: Record<string, string>; cwd: string; plugin: string }
  | { url: string; headers: Record<string, string>; plugin: string };

export interface PluginBundle {
  format: PluginFormat;
  name: string;
  description?: string;
  version?: string;
  tree: InstallTree;
  skills: StagedSkill[];
  /** By the name it will have in the settings (`<plugin>-<server>`). */
  servers: Record<string, SettingsServer>;
  /** Components left out or fields ignored, one sentence each. */
  warnings: string[];
}

export interface PluginPlaces {
  /** The plugin's folder once installed (`${PLUGIN_ROOT}`). */
  root: string;
  /** Its persistent data folder (`${PLUGIN_DATA}`). */
  data: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function file(tree: InstallTree, relative: string): InstallFile | undefined {
  return tree.files.find((entry) => entry.path === relative);
}

/** The manifest that makes a tree a plugin, if it has one. */
export function pluginManifestPath(tree: InstallTree): string | undefined {
  if (file(tree, "plugin.json")) return "plugin.json";
  if (file(tree, ".claude-plugin/plugin.json")) return ".claude-plugin/plugin.json";
  return undefined;
}

function parseJson(tree: InstallTree, relative: string): unknown {
  const found = file(tree, relative)!;
  try {
    return JSON.parse(found.data.toString("utf8"));
  } catch (error) {
    throw new InstallRefused(`${tree.topFolder}/${relative}`, `invalid JSON: ${(error as Error).message}`);
  }
}

/**
 * Single, non-recursive replacement of each exact placeholder (§9.2): text a replacement brings in is not
 * scanned again, and any other `${…}` stays as written.
 */
export function expandPlaceholders(text: string, values: Record<string, string>): string {
  return text.replace(/\$\{([A-Z_]+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/** The placeholders each format expands: Agent Plugins' two, and Claude Code's own. */
export function pluginVariables(format: PluginFormat, places: PluginPlaces): Record<string, string> {
  return format === "agent-plugins"
    ? { PLUGIN_ROOT: places.root, PLUGIN_DATA: places.data }
    : {
        CLAUDE_PLUGIN_ROOT: places.root,
        CLAUDE_PLUGIN_DATA: places.data,
        PLUGIN_ROOT: places.root,
        PLUGIN_DATA: places.data,
      };
}

/** `<plugin>-<server>` as a settings key: 1–40 of letters, digits, `_`, `-`, never `__` (a tool-name part). */
export function settingsServerName(plugin: string, server: string): string {
  return `${plugin}-${server}`
    .replace(/[^A-Za-z0-9_-]/g, "-")
    .replace(/_{2,}/g, "_")
    .slice(0, 40);
}

function stringMap(value: unknown): Record<string, string> | undefined {
  if (value === undefined) return {};
  if (!isRecord(value) || Object.values(value).some((item) => typeof item !== "string")) return undefined;
  return value as Record<string, string>;
}

/** One server entry into the settings' shape, or why it is left out. */
function settingsServer(
  format: PluginFormat,
  plugin: string,
  entry: unknown,
  places: PluginPlaces,
): SettingsServer | string {
  if (!isRecord(entry)) return "it is not an object";
  const variables = pluginVariables(format, places);
  const expand = (text: string) => expandPlaceholders(text, variables);
  const type = entry.type ?? (entry.url !== undefined ? "streamable-http" : "stdio");
  if (type === "sse") return 'its transport "sse" (the old HTTP+SSE) is not supported here';
  if (type === "streamable-http" || type === "http") {
    if (typeof entry.url !== "string") return '"url" must be a string';
    const headers = stringMap(entry.headers);
    if (!headers) return '"headers" must be an object of strings';
    // Agent Plugins: no expansion in url or headers (§7.2.1); Claude Code expands its own variables.
    return format === "agent-plugins"
      ? { url: entry.url, headers, plugin }
      : {
          url: expand(entry.url),
          headers: Object.fromEntries(Object.entries(headers).map(([key, value]) => [key, expand(value)])),
          plugin,
        };
  }
  if (type !== "stdio") return `its type ${JSON.stringify(type)} is not stdio or streamable-http`;
  if (format === "agent-plugins") {
    const allowed = new Set(["type", "command", "args", "env", "cwd"]);
    const unknown = Object.keys(entry).filter((key) => !allowed.has(key));
    if (unknown.length > 0)
      return `unknown field ${unknown.map((key) => `"${key}"`).join(", ")} (the schema is closed)`;
  }
  if (typeof entry.command !== "string" || entry.command.trim() === "")
    return '"command" must be a non-empty string';
  const args = entry.args ?? [];
  if (!Array.isArray(args) || args.some((arg) => typeof arg !== "string"))
    return '"args" must be a list of strings';
  const env = stringMap(entry.env);
  if (!env) return '"env" must be an object of strings';
  if ("PLUGIN_ROOT" in env || "PLUGIN_DATA" in env)
    return '"env" may not set PLUGIN_ROOT or PLUGIN_DATA (§9.2)';
  let command = entry.command;
  if (format === "agent-plugins") {
    // One executable token: a bare name, or a path inside the plugin starting with `./`; no expansion.
    if (command.startsWith("./")) {
      const resolved = path.resolve(places.root, command);
      if (!resolved.startsWith(`${places.root}${path.sep}`))
        return `"command" ${command} leads outside the plugin`;
      command = resolved;
    } else if (command.includes("/") || command.includes("${")) {
      return `"command" must be a bare program name or a path inside the plugin starting with "./" (got ${command})`;
    }
  } else command = expand(command);
  let cwd = places.root;
  if (entry.cwd !== undefined) {
    if (typeof entry.cwd !== "string") return '"cwd" must be a string';
    const given = entry.cwd.startsWith("./") ? path.join(places.root, entry.cwd) : expand(entry.cwd);
    const resolved = path.resolve(given);
    const inside = (folder: string) => resolved === folder || resolved.startsWith(`${folder}${path.sep}`);
    if (!inside(places.root) && !inside(places.data))
      return `"cwd" ${entry.cwd} is not inside the plugin or its data folder`;
    cwd = resolved;
  }
  return {
    command,
    args: (args as string[]).map(expand),
    env: {
      ...Object.fromEntries(Object.entries(env).map(([key, value]) => [key, expand(value)])),
      ...pluginVariables(format, places),
    },
    cwd,
    plugin,
  };
}

/** The manifest checked (a fatal problem refuses the install), its unknown fields warned about. */
function readManifest(tree: InstallTree, manifestPath: string, warnings: string[]) {
  const entry = `${tree.topFolder}/${manifestPath}`;
  const manifest = parseJson(tree, manifestPath);
  if (!isRecord(manifest)) throw new InstallRefused(entry, "the manifest must be a JSON object");
  const format: PluginFormat = manifestPath === "plugin.json" ? "agent-plugins" : "claude-code";
  if (format === "agent-plugins") {
    if (manifest.$schema !== AGENT_PLUGINS_SCHEMA)
      throw new InstallRefused(
        entry,
        `"$schema" must be ${AGENT_PLUGINS_SCHEMA} (the Agent Plugins version this playground reads; got ${JSON.stringify(manifest.$schema)})`,
      );
    for (const key of Object.keys(manifest))
      if (!MANIFEST_FIELDS.has(key)) warnings.push(`${manifestPath}: unknown field "${key}" is ignored`);
    if (manifest.extensions !== undefined && !isRecord(manifest.extensions))
      warnings.push(`${manifestPath}: "extensions" is not an object and is ignored`);
    for (const key of ["version", "description", "homepage", "repository", "license"])
      if (manifest[key] !== undefined && typeof manifest[key] !== "string")
        throw new InstallRefused(entry, `"${key}" must be a string`);
  }
  const name = manifest.name;
  if (typeof name !== "string" || !PLUGIN_NAME.test(name) || name.includes("--") || name.includes(".."))
    throw new InstallRefused(
      entry,
      `"name" must be 1–64 lowercase letters, digits, '-' and '.', starting and ending with a letter or digit, without '--' or '..' (got ${JSON.stringify(name)})`,
    );
  return {
    format,
    name,
    manifest,
    ...(typeof manifest.description === "string" ? { description: manifest.description } : {}),
    ...(typeof manifest.version === "string" ? { version: manifest.version } : {}),
  };
}

/** The sub-tree of one folder of the plugin, as a skill install tree. */
function subTree(tree: InstallTree, folder: string): InstallTree {
  const prefix = `${folder}/`;
  const files = tree.files
    .filter((entry) => entry.path.startsWith(prefix))
    .map((entry) => ({ ...entry, path: entry.path.slice(prefix.length) }));
  const folders = tree.folders
    .filter((entry) => entry.startsWith(prefix))
    .map((entry) => entry.slice(prefix.length));
  return {
    topFolder: `${tree.topFolder}/${folder}`,
    files,
    folders,
    bytes: files.reduce((sum, entry) => sum + entry.data.length, 0),
  };
}

/** Reads a plugin tree into its checked components. `placesOf`: where a plugin of that name will live. */
export async function readPluginBundle(
  tree: InstallTree,
  placesOf: (name: string) => PluginPlaces,
): Promise<PluginBundle> {
  const manifestPath = pluginManifestPath(tree);
  if (!manifestPath) throw new InstallRefused(`${tree.topFolder}/`, "no plugin.json: not a plugin");
  const warnings: string[] = [];
  const { format, name, manifest, ...about } = readManifest(tree, manifestPath, warnings);
  const places = placesOf(name);

  // Skills: each immediate folder of skills/ that holds a SKILL.md (§7.1); one broken is a warning.
  const skills: StagedSkill[] = [];
  const skillFolders = [
    ...new Set(
      tree.files
        .filter((entry) => /^skills\/[^/]+\/SKILL\.md$/.test(entry.path))
        .map((entry) => entry.path.split("/")[1]!),
    ),
  ].sort();
  if (tree.files.some((entry) => entry.path.startsWith("skills/")) && skillFolders.length === 0)
    warnings.push("skills/ holds no folder with a SKILL.md");
  for (const folder of skillFolders) {
    try {
      const staged = await stageSkill(subTree(tree, `skills/${folder}`));
      if (staged.name !== folder)
        warnings.push(
          `skills/${folder}: its name "${staged.name}" is not its folder's (Agent Skills: they must be equal); it was left out`,
        );
      else skills.push(staged);
    } catch (error) {
      if (!(error instanceof InstallRefused)) throw error;
      warnings.push(`skills/${folder} was left out: ${error.rule}`);
    }
  }

  // MCP servers: mcp.json (Agent Plugins, §7.2) or .mcp.json / the manifest's mcpServers (Claude Code).
  const servers: Record<string, SettingsServer> = {};
  const mcpPath = format === "agent-plugins" ? "mcp.json" : ".mcp.json";
  let declared: Record<string, unknown> | undefined;
  if (file(tree, mcpPath)) {
    try {
      const document = parseJson(tree, mcpPath);
      if (!isRecord(document) || !isRecord(document.mcpServers))
        warnings.push(`${mcpPath}: "mcpServers" must be an object; MCP is off for this plugin`);
      else if (format === "agent-plugins" && document.$schema !== AGENT_PLUGINS_MCP_SCHEMA)
        warnings.push(
          `${mcpPath}: "$schema" must be ${AGENT_PLUGINS_MCP_SCHEMA} (the version of plugin.json); MCP is off for this plugin`,
        );
      else declared = document.mcpServers;
    } catch (error) {
      if (!(error instanceof InstallRefused)) throw error;
      warnings.push(`${mcpPath}: ${error.rule}; MCP is off for this plugin`);
    }
  } else if (format === "claude-code" && isRecord(manifest.mcpServers)) declared = manifest.mcpServers;
  for (const [server, entry] of Object.entries(declared ?? {})) {
    const converted = settingsServer(format, name, entry, places);
    if (typeof converted === "string")
      warnings.push(`${mcpPath}: server "${server}" was left out: ${converted}`);
    else servers[settingsServerName(name, server)] = converted;
  }
  for (const other of ["commands", "agents", "hooks"])
    if (tree.folders.includes(other))
      warnings.push(`${other}/ is not a component this playground runs; it is installed but unused`);
  return { format, name, ...about, tree, skills, servers, warnings };
}
