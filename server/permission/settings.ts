import { createHash } from "node:crypto";
import { readFile, realpath } from "node:fs/promises";
import path from "node:path";
import { serverGrant, workdirMcpServers } from "../mcp/config.ts";
import type { FolderGrants } from "../protocol/sandbox.ts";
import { parseRule, type CompiledRule, type RuleEffect } from "./rules.ts";

/**
 * Permission rules from `$HOME/.PseudoClaude/settings.json` and `<workdir>/.PseudoClaude/settings.json`:
 * `{"permissions":{"allow":[...],"ask":[...],"deny":[...]}}`. A missing file is normal; anything wrong is
 * reported as a problem naming the file (and the rule), and the rest still loads. Never throws.
 *
 * The home file is the user's own and always applies. The workdir's file comes with the repository: its
 * deny and ask rules always apply, its allow rules (and `defaultMode`) only once the user trusts the folder
 * (server/permission/trust.ts). What it would grant is reported either way, with the MCP servers the
 * folder configures (`mcpServers` in that file or in `<workdir>/.mcp.json`), each as the trust prompt
 * shows it, and a digest of it all that trust is bound to.
 */
export interface LoadedRules {
  rules: CompiledRule[];
  problems: string[];
  /** Files that were read (existing and parsed). */
  files: string[];
}

export interface LoadedSettings extends LoadedRules {
  /** What the workdir's own files grant once the folder is trusted (withheld until then). */
  grants: FolderGrants;
  /** The workdir's allow rules left out of `rules` because it is not trusted (they come with trust). */
  withheld: CompiledRule[];
}

const EFFECTS: readonly RuleEffect[] = ["allow", "ask", "deny"];

export function settingsPaths(workdir: string, homeDir: string | undefined): string[] {
  const paths: string[] = [];
  if (homeDir) paths.push(path.join(homeDir, ".PseudoClaude", "settings.json"));
  const projectPath = path.join(workdir, ".PseudoClaude", "settings.json");
  if (!paths.includes(projectPath)) paths.push(projectPath);
  return paths;
}

/** Rules in force; without `trusted: true` the workdir's own allow rules are withheld. */
export async function loadPermissionRules(options: {
  workdir: string;
  homeDir?: string;
  trusted?: boolean;
}): Promise<LoadedRules> {
  const { rules, problems, files } = await loadSettings({ ...options, trusted: options.trusted === true });
  return { rules, problems, files };
}

export async function loadSettings(options: {
  workdir: string;
  homeDir?: string;
  trusted: boolean;
}): Promise<LoadedSettings> {
  const loaded: LoadedSettings = {
    rules: [],
    problems: [],
    files: [],
    grants: { allow: [], mcpServers: [] },
    withheld: [],
  };
  const workdir = path.resolve(options.workdir);
  const homeFile = options.homeDir ? settingsPaths(workdir, options.homeDir)[0] : undefined;
  // Compared by realpath: a workdir that is the home (or a link to it) has only the user's own file.
  const sameFolder =
    options.homeDir !== undefined && (await realpathOr(options.homeDir)) === (await realpathOr(workdir));
  const projectFile = sameFolder ? undefined : path.join(workdir, ".PseudoClaude", "settings.json");
  if (homeFile) {
    const text = await readOptional(homeFile, loaded.problems);
    if (text !== undefined) {
      loaded.files.push(homeFile);
      const parsed = parseSettingsText(text, homeFile);
      loaded.rules.push(...parsed.rules);
      loaded.problems.push(...parsed.problems);
    }
  }
  if (projectFile) {
    const text = await readOptional(projectFile, loaded.problems);
    if (text !== undefined) {
      loaded.files.push(projectFile);
      const parsed = parseSettingsText(text, projectFile);
      loaded.problems.push(...parsed.problems);
      const allow = parsed.rules.filter((rule) => rule.effect === "allow");
      loaded.rules.push(...parsed.rules.filter((rule) => options.trusted || rule.effect !== "allow"));
      if (!options.trusted) loaded.withheld = allow;
      loaded.grants = {
        settingsFile: projectFile,
        allow: allow.map((rule) => rule.text.slice("allow ".length)),
        mcpServers: parsed.mcpServers,
        ...(parsed.defaultMode !== undefined ? { defaultMode: parsed.defaultMode } : {}),
      };
    }
  }
  // The servers as they would start (a bad entry is the MCP config's warning, reported where it loads).
  const servers = sameFolder ? [] : (await workdirMcpServers(workdir, options.homeDir)).servers;
  loaded.grants.mcpServers = servers.map((server) => server.name);
  loaded.grants.servers = servers.map(serverGrant);
  loaded.grants.digest = grantsDigest(loaded.grants);
  return loaded;
}

/** sha256 over everything the grants allow (server fingerprints cover their values). */
export function grantsDigest(grants: FolderGrants): string {
  const content = [
    [...grants.allow].sort(),
    grants.defaultMode ?? null,
    (grants.servers ?? []).map((server) => [server.name, server.fingerprint]),
  ];
  return `sha256:${createHash("sha256").update(JSON.stringify(content)).digest("hex")}`;
}

async function realpathOr(folder: string): Promise<string> {
  try {
    return await realpath(folder);
  } catch {
    return path.resolve(folder);
  }
}

/** The file's text; undefined when it does not exist (normal) or cannot be read (a problem). */
async function readOptional(file: string, problems: string[]): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR")
      problems.push(`${file}: cannot be read (${code ?? String(error)})`);
    return undefined;
  }
}

function mcpServerNames(value: unknown, file: string, problems: string[]): string[] {
  if (value === undefined) return [];
  if (!isRecord(value)) {
    problems.push(`${file}: "mcpServers" must be an object of named servers`);
    return [];
  }
  return Object.keys(value);
}

export interface ParsedSettings {
  rules: CompiledRule[];
  problems: string[];
  /** Names under `mcpServers` (none start yet; a workdir's are listed in its grants). */
  mcpServers: string[];
  /** `permissions.defaultMode`, if a string. */
  defaultMode?: string;
}

export function parseSettingsText(text: string, file: string): ParsedSettings {
  const rules: CompiledRule[] = [];
  const problems: string[] = [];
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    return {
      rules,
      problems: [`${file}: invalid JSON (${(error as Error).message}); its rules were ignored`],
      mcpServers: [],
    };
  }
  if (!isRecord(document))
    return { rules, problems: [`${file}: expected a JSON object at the top level`], mcpServers: [] };
  const mcpServers = mcpServerNames(document.mcpServers, file, problems);
  const permissions = document.permissions;
  if (permissions === undefined) return { rules, problems, mcpServers };
  if (!isRecord(permissions))
    return {
      rules,
      problems: [...problems, `${file}: "permissions" must be an object with allow/ask/deny lists`],
      mcpServers,
    };
  const defaultMode = permissions.defaultMode;
  if (defaultMode !== undefined && typeof defaultMode !== "string")
    problems.push(`${file}: permissions.defaultMode must be a mode name`);
  for (const key of Object.keys(permissions)) {
    if (!EFFECTS.includes(key as RuleEffect) && key !== "defaultMode") {
      problems.push(`${file}: unknown key permissions.${key} (expected allow, ask or deny)`);
    }
  }
  for (const effect of EFFECTS) {
    const list = permissions[effect];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      problems.push(`${file}: permissions.${effect} must be a list of rule strings`);
      continue;
    }
    list.forEach((entry: unknown, index) => {
      const rule = parseRule(effect, entry as string, file);
      if (typeof rule === "string") problems.push(`${file}: permissions.${effect}[${index}]: ${rule}`);
      else rules.push(rule);
    });
  }
  return { rules, problems, mcpServers, ...(typeof defaultMode === "string" ? { defaultMode } : {}) };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
