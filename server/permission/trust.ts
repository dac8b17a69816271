// Trusted folders: a workdir's own allow rules, default mode and MCP servers take effect only once the
// user trusts that folder. Trust is remembered per realpath in `<home>/.PseudoClaude/trusted-folders.json`
// (0600, replaced atomically), or given for one start (the server's demo copy), one command
// (`cli --trust`) or one session (the trust prompt without "remember").
//
// Trust is bound to content: an entry records what the folder granted when it was trusted (its allow
// rules, default mode, and each MCP server's fingerprint — a sha256 of the whole entry, values included —
// with what the prompt showed of it). A folder whose settings now grant anything that record does not
// cover (a new rule or server, a changed command, argument, variable or URL) asks again, listing what
// changed; granting less never asks. An entry from before content binding (`{"path","trustedAt"}`)
// asks once more, saying why. Format: `{"folders":[{"path","trustedAt","grants"?,"networkServers"?}]}`.
import { randomBytes } from "node:crypto";
import { mkdir, open, readFile, realpath, rename, unlink } from "node:fs/promises";
import path from "node:path";
import type { FolderGrants, FolderTrust, McpServerGrant, TrustRenewal } from "../protocol/sandbox.ts";
import type { CompiledRule } from "./rules.ts";
import { loadSettings } from "./settings.ts";

export type TrustVia = NonNullable<FolderTrust["via"]>;

export interface TrustedFolderEntry {
  /** Realpath of the folder when it was trusted. */
  path: string;
  trustedAt: string;
  /** What the folder granted when it was trusted (absent in entries written before content binding). */
  grants?: FolderGrants;
  /** Its MCP servers the user allowed network for. */
  networkServers?: string[];
}

export interface TrustStoreContents {
  folders: TrustedFolderEntry[];
  /** The file exists but could not be used: it trusts nothing, and this says why. */
  problem?: string;
}

export function trustStorePath(home: string): string {
  return path.join(home, ".PseudoClaude", "trusted-folders.json");
}

/** Realpath of a folder (a symlink to a trusted folder is that folder); the resolved path if it is gone. */
export async function folderRealpath(folder: string): Promise<string> {
  try {
    return await realpath(folder);
  } catch {
    return path.resolve(folder);
  }
}

/** Reads the store. Missing is normal; unreadable or malformed is a problem and trusts nothing. */
export async function readTrustStore(home: string): Promise<TrustStoreContents> {
  const file = trustStorePath(home);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { folders: [] };
    return {
      folders: [],
      problem: `${file}: cannot be read (${code ?? String(error)}); no folder is trusted`,
    };
  }
  const corrupt = (why: string): TrustStoreContents => ({
    folders: [],
    problem: `${file}: ${why}; no folder is trusted from it (trust a folder again to rewrite it)`,
  });
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    return corrupt(`invalid JSON (${(error as Error).message})`);
  }
  const folders = (document as { folders?: unknown } | null)?.folders;
  if (typeof document !== "object" || document === null || !Array.isArray(folders))
    return corrupt('expected {"folders": [...]}');
  const entries: TrustedFolderEntry[] = [];
  for (const [index, entry] of folders.entries()) {
    const { path: folder, trustedAt, grants, networkServers } = (entry ?? {}) as Partial<TrustedFolderEntry>;
    if (typeof folder !== "string" || !path.isAbsolute(folder) || typeof trustedAt !== "string")
      return corrupt(`folders[${index}] must be {"path": an absolute path, "trustedAt": a date}`);
    if (grants !== undefined && !isGrants(grants))
      return corrupt(
        `folders[${index}].grants must be {"allow": [...], "mcpServers": [...], "servers": [...]}`,
      );
    if (networkServers !== undefined && !isStringList(networkServers))
      return corrupt(`folders[${index}].networkServers must be a list of server names`);
    entries.push({
      path: folder,
      trustedAt,
      ...(grants ? { grants } : {}),
      ...(networkServers ? { networkServers } : {}),
    });
  }
  return { folders: entries };
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

function isGrants(value: unknown): value is FolderGrants {
  const grants = value as Partial<FolderGrants> | null;
  return (
    typeof grants === "object" &&
    grants !== null &&
    isStringList(grants.allow) &&
    isStringList(grants.mcpServers) &&
    (grants.defaultMode === undefined || typeof grants.defaultMode === "string") &&
    Array.isArray(grants.servers) &&
    grants.servers.every(
      (server: Partial<McpServerGrant> | null) =>
        typeof server?.name === "string" && typeof server.fingerprint === "string",
    )
  );
}

/** One writer per store file in this process, so two "remember" answers never lose each other. */
const storeWrites = new Map<string, Promise<unknown>>();

/** What a remembered trust covers: the grants the user answered, and the servers given network. */
export interface TrustBinding {
  grants: FolderGrants;
  networkServers?: readonly string[];
}

/**
 * Remembers the folder's realpath with what it granted (`binding`; default: what it grants now), replacing
 * an earlier entry for it. A corrupt store is kept beside it (`.corrupt-<time>`) and replaced; the returned
 * problem says so. Throws when the store cannot be written.
 */
export function rememberTrustedFolder(
  home: string,
  folder: string,
  binding?: TrustBinding,
): Promise<{ problem?: string }> {
  const file = trustStorePath(home);
  const previous = storeWrites.get(file) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(() => writeTrusted(file, home, folder, binding));
  storeWrites.set(file, next);
  return next;
}

async function writeTrusted(
  file: string,
  home: string,
  folder: string,
  binding: TrustBinding | undefined,
): Promise<{ problem?: string }> {
  const real = await folderRealpath(folder);
  const grants =
    binding?.grants ?? (await loadSettings({ workdir: real, homeDir: home, trusted: false })).grants;
  const store = await readTrustStore(home);
  let problem: string | undefined;
  if (store.problem) {
    const kept = `${file}.corrupt-${new Date().toISOString().replace(/[:.]/g, "-")}`;
    await rename(file, kept);
    problem = `${store.problem}; the old file was kept as ${kept}`;
  }
  const entry: TrustedFolderEntry = {
    path: real,
    trustedAt: new Date().toISOString(),
    grants: storedGrants(grants),
    ...(binding?.networkServers?.length ? { networkServers: [...binding.networkServers] } : {}),
  };
  const contents = { folders: [...store.folders.filter((known) => known.path !== real), entry] };
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${randomBytes(6).toString("hex")}.tmp`;
  // "wx": never opens an existing file or follows a planted symlink; 0600 from the start.
  const handle = await open(temp, "wx", 0o600);
  try {
    await handle.writeFile(`${JSON.stringify(contents, null, 2)}\n`, "utf8");
    await handle.chmod(0o600);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, file);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  return problem ? { problem } : {};
}

/** The grants as the store keeps them (servers always listed, so an entry is never read as unbound). */
function storedGrants(grants: FolderGrants): FolderGrants {
  return { ...grants, servers: grants.servers ?? [] };
}

/**
 * What `current` grants that `trusted` does not cover, one line each: an added allow rule, another
 * default mode, an added server, or a server whose entry changed (and how). Empty: covered.
 */
export function trustChanges(current: FolderGrants, trusted: FolderGrants): string[] {
  const changes: string[] = [];
  for (const rule of current.allow)
    if (!trusted.allow.includes(rule)) changes.push(`new allow rule: ${rule}`);
  if (current.defaultMode !== undefined && current.defaultMode !== trusted.defaultMode)
    changes.push(`default mode: ${trusted.defaultMode ?? "(none)"} → ${current.defaultMode}`);
  const before = new Map((trusted.servers ?? []).map((server) => [server.name, server]));
  for (const server of current.servers ?? []) {
    const earlier = before.get(server.name);
    if (!earlier) changes.push(`new MCP server ${server.name}: ${serverLine(server)}`);
    else if (earlier.fingerprint !== server.fingerprint)
      changes.push(`MCP server ${server.name} changed: ${serverDifferences(earlier, server).join("; ")}`);
  }
  return changes;
}

/** What a server runs or reaches, as one line (never a value of its env or headers). */
export function serverLine(server: McpServerGrant): string {
  if (server.transport === "http")
    return `${server.url ?? "?"}${server.headerNames?.length ? ` (headers ${server.headerNames.join(", ")})` : ""}`;
  const words = [server.command ?? "?", ...(server.args ?? [])].map(shellWord).join(" ");
  const env = server.envNames?.length ? ` (env ${server.envNames.join(", ")})` : "";
  return `${words}${env}${server.network ? " with network" : ""}`;
}

function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function serverDifferences(before: McpServerGrant, after: McpServerGrant): string[] {
  const out: string[] = [];
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  if (
    before.transport !== after.transport ||
    !same(before.command, after.command) ||
    !same(before.args, after.args) ||
    before.url !== after.url
  )
    out.push(
      `${serverLine({ ...before, envNames: [], network: false, headerNames: [] })} → ${serverLine({ ...after, envNames: [], network: false, headerNames: [] })}`,
    );
  if (before.cwd !== after.cwd)
    out.push(`cwd ${before.cwd ?? "(the workdir)"} → ${after.cwd ?? "(the workdir)"}`);
  const names = (list: string[] | undefined) => new Set(list ?? []);
  for (const [label, a, b] of [
    ["env", names(before.envNames), names(after.envNames)],
    ["header", names(before.headerNames), names(after.headerNames)],
  ] as const) {
    const added = [...b].filter((name) => !a.has(name));
    const removed = [...a].filter((name) => !b.has(name));
    if (added.length) out.push(`${label} ${added.join(", ")} added`);
    if (removed.length) out.push(`${label} ${removed.join(", ")} removed`);
  }
  if (before.network !== after.network)
    out.push(`network ${before.network ? "on" : "off"} → ${after.network ? "on" : "off"}`);
  // Same names, same command: what differs is a value the prompt never shows.
  if (out.length === 0)
    out.push(`the value of an ${after.transport === "http" ? "header" : "env variable"} changed`);
  return out;
}

export function grantsSomething(grants: FolderGrants): boolean {
  return grants.allow.length > 0 || grants.mcpServers.length > 0 || grants.defaultMode !== undefined;
}

/** Worth showing (summary, trust_state): the folder grants something, or it is trusted. */
export function trustWorthShowing(trust: FolderTrust | undefined): trust is FolderTrust {
  return trust !== undefined && (trust.trusted || grantsSomething(trust.grants));
}

export interface FolderPermission {
  /** Rules in force: home rules, the folder's deny/ask rules, and its allow rules once trusted. */
  rules: CompiledRule[];
  /** Problems loading settings files or the trust store, for the user (never fatal). */
  problems: string[];
  trust: FolderTrust;
}

/**
 * The rules for a session or command on `workdir`. The folder is trusted when the store remembers its
 * realpath *with content that covers what it grants now*, else when `via` says it is trusted for this
 * start / command / session (`networkServers`: the servers that answer gave network). The settings are
 * read once: the trust decision and the rules come from the same content.
 */
export async function loadFolderPermission(options: {
  workdir: string;
  home: string;
  via?: Exclude<TrustVia, "remembered">;
  networkServers?: readonly string[];
}): Promise<FolderPermission> {
  const folder = await folderRealpath(options.workdir);
  const store = await readTrustStore(options.home);
  const settings = await loadSettings({ workdir: folder, homeDir: options.home, trusted: false });
  const entry = store.folders.find((known) => known.path === folder);
  let via: TrustVia | undefined;
  let networkServers: readonly string[] | undefined;
  let renewal: TrustRenewal | undefined;
  if (entry) {
    const changes = entry.grants ? trustChanges(settings.grants, entry.grants) : undefined;
    if (changes?.length === 0) {
      via = "remembered";
      networkServers = entry.networkServers;
    } else
      renewal = changes
        ? {
            reason: `its settings changed since you trusted it on ${entry.trustedAt}: review what it grants now`,
            changes,
            trustedAt: entry.trustedAt,
          }
        : {
            reason: `you trusted it on ${entry.trustedAt}, before trust was bound to what a folder grants: review what it grants once more`,
            changes: [],
            trustedAt: entry.trustedAt,
          };
  }
  if (!via && options.via) {
    via = options.via;
    networkServers = options.networkServers;
  }
  const trusted = via !== undefined;
  return {
    rules: trusted ? [...settings.rules, ...settings.withheld] : settings.rules,
    problems: [...(store.problem ? [store.problem] : []), ...settings.problems],
    trust: {
      folder,
      trusted,
      ...(via ? { via } : {}),
      grants: settings.grants,
      ...(trusted && networkServers?.length ? { networkServers: [...networkServers] } : {}),
      ...(!trusted && renewal && grantsSomething(settings.grants) ? { renewal } : {}),
    },
  };
}
