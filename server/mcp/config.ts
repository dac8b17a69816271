// MCP server configuration in the de-facto format: `{"mcpServers": {"NAME": {...}}}` in
// `~/.PseudoClaude/settings.json` (the user's own: always starts), `<workdir>/.PseudoClaude/settings.json`
// and `<workdir>/.mcp.json` (the folder's: start only once the folder is trusted). A stdio server is
// `{"command", "args"?, "env"?, "cwd"?, "network"?}`, a Streamable HTTP one `{"url", "headers"?}`.
// Bad config is a warning naming the file and the field; the rest loads. Never throws.
//
// Trust is bound to content: a workdir's server starts only when the folder is trusted *and* the server
// is as it was when trusted (its fingerprint: a sha256 of its whole entry, values included), so an entry
// edited after the trust prompt — by the agent, a `git pull`, anyone — is withheld, with the reason.
import { createHash } from "node:crypto";
import { readFile, realpath } from "node:fs/promises";
import path from "node:path";
import type { FolderTrust, McpServerGrant } from "../protocol/sandbox.ts";
import { looksLikeSecret, type SecretScope } from "../providers/redact.ts";
import { environmentProblem } from "../tools/child-environment.ts";
import { networkNeed } from "./server-launch.ts";

export interface StdioServerConfig {
  transport: "stdio";
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Absolute working directory (default: the workdir). */
  cwd?: string;
  /** Network inside the sandbox for this server (default off). */
  network: boolean;
  configFile: string;
  scope: "user" | "workdir";
}

export interface HttpServerConfig {
  transport: "http";
  name: string;
  url: string;
  headers: Record<string, string>;
  configFile: string;
  scope: "user" | "workdir";
}

export type McpServerConfig = StdioServerConfig | HttpServerConfig;

/** A server that is not started, and why (default: the folder is not trusted). */
export type WithheldServer = McpServerConfig & { withheldBecause?: string };

export interface LoadedMcpConfig {
  /** Servers to start, in config order (user first, then the workdir's when trusted). */
  servers: McpServerConfig[];
  /** The workdir's servers that were not started: the folder is not trusted, or the entry changed since. */
  withheld: WithheldServer[];
  /** One line per problem: file, field, what is wrong. */
  warnings: string[];
}

/** Names of `env` variables and headers whose values are credentials (a token, a key, a password). */
const CREDENTIAL_NAME = /key|token|secret|passw|pwd|auth|credential|cookie|session|dsn|connection|_pat$/i;

/**
 * A server's credentials are redacted wherever they could show up (its stderr tail, an echoing tool's
 * result, an error message): in events, session logs and exports. Only a value that looks like a secret
 * counts (SECURITY S21), and a workdir's are its session's only (`secrets`): a folder's configuration must
 * not make ordinary text vanish, least of all from other sessions. The user's own settings count for all.
 */
function registerCredentials(server: McpServerConfig, secrets: SecretScope | undefined): void {
  const field = server.transport === "stdio" ? "env" : "headers";
  const values = server.transport === "stdio" ? server.env : server.headers;
  for (const [name, value] of Object.entries(values)) {
    if (!CREDENTIAL_NAME.test(name)) continue;
    const origin = { name, source: `${field} of MCP server "${server.name}" in ${server.configFile}` };
    if (server.scope === "workdir") secrets?.add(value, origin);
    else if (looksLikeSecret(value))
      for (const text of [value, value.trim()]) secrets?.redactor.register(text, origin);
  }
}

/** `mcp__<server>__<tool>` must be a tool name every provider accepts: letters, digits, `_`, `-`. */
const SERVER_NAME = /^[A-Za-z0-9_-]{1,40}$/;

export function mcpConfigFiles(workdir: string, home: string): { file: string; scope: "user" | "workdir" }[] {
  return [
    { file: path.join(home, ".PseudoClaude", "settings.json"), scope: "user" },
    { file: path.join(workdir, ".PseudoClaude", "settings.json"), scope: "workdir" },
    { file: path.join(workdir, ".mcp.json"), scope: "workdir" },
  ];
}

/**
 * The servers to start. `trusted`: a boolean (the workdir's servers as they are now, or none), or the
 * folder's trust, whose grants name each server's fingerprint as the user trusted it: a workdir server
 * whose entry no longer matches is withheld, and one the user allowed network for gets it.
 */
export async function loadMcpConfig(options: {
  workdir: string;
  home: string;
  /** Whether the workdir is trusted (and what was trusted): its own servers start only then. */
  trusted: boolean | Pick<FolderTrust, "trusted" | "grants" | "networkServers">;
  /** The session's secrets, which the workdir's servers' credentials join (absent: they join nothing). */
  secrets?: SecretScope;
}): Promise<LoadedMcpConfig> {
  const trust = typeof options.trusted === "boolean" ? { trusted: options.trusted } : options.trusted;
  const bound = "grants" in trust ? trust.grants.servers : undefined;
  const approved = bound ? new Set(bound.map((server) => server.fingerprint)) : undefined;
  const networkServers = new Set("networkServers" in trust ? (trust.networkServers ?? []) : []);
  const warnings: string[] = [];
  const byName = new Map<string, McpServerConfig>();
  const withheld = new Map<string, WithheldServer>();
  for (const { file, scope, text } of await readConfigFiles(options.workdir, options.home, warnings)) {
    for (const parsed of parseMcpServers(text, file, scope, options.workdir, warnings)) {
      let server = parsed;
      if (scope === "workdir") {
        if (!trust.trusted) {
          if (!byName.has(server.name)) withheld.set(server.name, server);
          continue;
        }
        if (approved && !approved.has(serverFingerprint(server))) {
          if (!byName.has(server.name))
            withheld.set(server.name, {
              ...server,
              withheldBecause: `its entry in ${file} changed after you trusted the folder: review it in the trust prompt (the header's trust badge) before it starts`,
            });
          continue;
        }
        if (server.transport === "stdio" && networkServers.has(server.name))
          server = { ...server, network: true };
      }
      // Only a server that may start: an untrusted folder must not choose what gets redacted.
      registerCredentials(server, options.secrets);
      const earlier = byName.get(server.name);
      if (earlier)
        warnings.push(`${file}: mcpServers.${server.name} replaces the one in ${earlier.configFile}`);
      byName.set(server.name, server);
      withheld.delete(server.name);
    }
  }
  return { servers: [...byName.values()], withheld: [...withheld.values()], warnings };
}

/**
 * The MCP servers the workdir's own files configure, as they are now (the later file wins by name), for
 * the trust prompt's grants. Problems are the same warnings loadMcpConfig reports.
 */
export async function workdirMcpServers(
  workdir: string,
  home: string | undefined,
): Promise<{ servers: McpServerConfig[]; warnings: string[] }> {
  const warnings: string[] = [];
  const byName = new Map<string, McpServerConfig>();
  for (const { file, scope, text } of await readConfigFiles(workdir, home, warnings)) {
    if (scope !== "workdir") continue;
    for (const server of parseMcpServers(text, file, scope, workdir, warnings)) {
      byName.delete(server.name);
      byName.set(server.name, server);
    }
  }
  return { servers: [...byName.values()], warnings };
}

/** The config files that exist, in order; a workdir that is the home has only the user's own file. */
async function readConfigFiles(
  workdir: string,
  home: string | undefined,
  warnings: string[],
): Promise<{ file: string; scope: "user" | "workdir"; text: string }[]> {
  const sameFolder = home !== undefined && (await realOr(home)) === (await realOr(workdir));
  const seen = new Set<string>();
  const out: { file: string; scope: "user" | "workdir"; text: string }[] = [];
  for (const { file, scope } of mcpConfigFiles(workdir, home ?? workdir)) {
    if (seen.has(file) || (sameFolder && scope === "workdir") || (home === undefined && scope === "user"))
      continue;
    seen.add(file);
    const text = await readOptional(file, warnings);
    if (text !== undefined) out.push({ file, scope, text });
  }
  return out;
}

/** sha256 of a server's whole entry (values included, key order irrelevant): what trust is bound to. */
export function serverFingerprint(server: McpServerConfig): string {
  const sorted = (record: Record<string, string>) =>
    Object.entries(record).sort(([a], [b]) => a.localeCompare(b));
  const content =
    server.transport === "stdio"
      ? [
          "stdio",
          server.name,
          server.command,
          server.args,
          sorted(server.env),
          server.cwd ?? null,
          server.network,
        ]
      : ["http", server.name, server.url, sorted(server.headers)];
  return `sha256:${createHash("sha256").update(JSON.stringify(content)).digest("hex")}`;
}

/** A server as the trust prompt shows it: what it runs or reaches, variable and header names, never values. */
export function serverGrant(server: McpServerConfig): McpServerGrant {
  const need = networkNeed(server);
  const common = {
    name: server.name,
    configFile: server.configFile,
    ...(need ? { needsNetwork: need } : {}),
    fingerprint: serverFingerprint(server),
  };
  if (server.transport === "http")
    return {
      ...common,
      transport: "http",
      url: server.url,
      headerNames: Object.keys(server.headers).sort(),
      network: false,
    };
  return {
    ...common,
    transport: "stdio",
    command: server.command,
    args: [...server.args],
    ...(server.cwd ? { cwd: server.cwd } : {}),
    envNames: Object.keys(server.env).sort(),
    network: server.network,
  };
}

async function realOr(folder: string): Promise<string> {
  try {
    return await realpath(folder);
  } catch {
    return path.resolve(folder);
  }
}

async function readOptional(file: string, warnings: string[]): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR")
      warnings.push(`${file}: cannot be read (${code ?? String(error)})`);
    return undefined;
  }
}

/** The servers of one file's `mcpServers`; each bad entry is one warning and is skipped. */
export function parseMcpServers(
  text: string,
  file: string,
  scope: "user" | "workdir",
  workdir: string,
  warnings: string[],
): McpServerConfig[] {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    warnings.push(`${file}: invalid JSON (${(error as Error).message}); its MCP servers were ignored`);
    return [];
  }
  if (!isRecord(document)) return [];
  const servers = document.mcpServers;
  if (servers === undefined) return [];
  if (!isRecord(servers)) {
    warnings.push(`${file}: "mcpServers" must be an object of named servers`);
    return [];
  }
  const out: McpServerConfig[] = [];
  for (const [name, entry] of Object.entries(servers)) {
    const parsed = parseServer(name, entry, { file, scope, workdir });
    if (typeof parsed === "string")
      warnings.push(`${file}: mcpServers.${name}: ${parsed}; this server was skipped`);
    else out.push(parsed);
  }
  return out;
}

function parseServer(
  name: string,
  entry: unknown,
  where: { file: string; scope: "user" | "workdir"; workdir: string },
): McpServerConfig | string {
  if (!SERVER_NAME.test(name) || name.includes("__"))
    return "a server name is 1–40 letters, digits, '_' or '-' without '__' (it becomes part of mcp__<server>__<tool>)";
  if (!isRecord(entry)) return "must be an object with a command (stdio) or a url (http)";
  const type = entry.type;
  if (type !== undefined && typeof type !== "string") return '"type" must be "stdio" or "http"';
  const kind =
    type === undefined
      ? entry.url !== undefined
        ? "http"
        : "stdio"
      : type === "streamable-http" || type === "streamableHttp"
        ? "http"
        : type;
  const base = { name, configFile: where.file, scope: where.scope };
  if (kind === "sse")
    return '"type": "sse" (the old HTTP+SSE transport) is not supported; use a Streamable HTTP url';
  if (kind === "http") {
    const url = entry.url;
    if (typeof url !== "string") return '"url" must be a string (http:// or https://)';
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return `"url" is not a URL: ${url}`;
    }
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
      return `"url" must be http:// or https://, not ${parsed.protocol}`;
    const headers = stringRecord(entry.headers, "headers");
    if (typeof headers === "string") return headers;
    return { transport: "http", ...base, url, headers };
  }
  if (kind !== "stdio") return `"type" must be "stdio" or "http", not ${JSON.stringify(kind)}`;
  const command = entry.command;
  if (typeof command !== "string" || command.trim() === "") return '"command" must be a non-empty string';
  const args = entry.args ?? [];
  if (!Array.isArray(args) || args.some((arg) => typeof arg !== "string"))
    return '"args" must be a list of strings';
  const env = stringRecord(entry.env, "env");
  if (typeof env === "string") return env;
  for (const [variable, value] of Object.entries(env)) {
    const problem = environmentProblem(variable, value);
    if (problem) return `"env": ${problem}`;
  }
  if (entry.cwd !== undefined && typeof entry.cwd !== "string") return '"cwd" must be a string';
  if (entry.network !== undefined && typeof entry.network !== "boolean")
    return '"network" must be true or false';
  return {
    transport: "stdio",
    ...base,
    command,
    args: args as string[],
    env,
    ...(typeof entry.cwd === "string" ? { cwd: path.resolve(where.workdir, entry.cwd) } : {}),
    network: entry.network === true,
  };
}

function stringRecord(value: unknown, field: string): Record<string, string> | string {
  if (value === undefined) return {};
  if (!isRecord(value) || Object.values(value).some((item) => typeof item !== "string"))
    return `"${field}" must be an object of string values`;
  return value as Record<string, string>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
