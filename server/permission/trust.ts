// Trusted folders: a workdir's own allow rules (and, later, its MCP servers) take effect only once the
// user trusts that folder. Trust is remembered per realpath in `<home>/.PseudoClaude/trusted-folders.json`
// (`{"folders":[{"path","trustedAt"}]}`, 0600, replaced atomically), or given for one start (the server's
// demo copy), one command (`cli --trust`) or one session (the trust prompt without "remember").
import { randomBytes } from "node:crypto";
import { mkdir, open, readFile, realpath, rename, unlink } from "node:fs/promises";
import path from "node:path";
import type { FolderGrants, FolderTrust } from "../protocol/sandbox.ts";
import type { CompiledRule } from "./rules.ts";
import { loadSettings } from "./settings.ts";

export type TrustVia = NonNullable<FolderTrust["via"]>;

export interface TrustedFolderEntry {
  /** Realpath of the folder when it was trusted. */
  path: string;
  trustedAt: string;
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
    const { path: folder, trustedAt } = (entry ?? {}) as Partial<TrustedFolderEntry>;
    if (typeof folder !== "string" || !path.isAbsolute(folder) || typeof trustedAt !== "string")
      return corrupt(`folders[${index}] must be {"path": an absolute path, "trustedAt": a date}`);
    entries.push({ path: folder, trustedAt });
  }
  return { folders: entries };
}

/** One writer per store file in this process, so two "remember" answers never lose each other. */
const storeWrites = new Map<string, Promise<unknown>>();

/**
 * Remembers the folder's realpath. A corrupt store is kept beside it (`.corrupt-<time>`) and replaced;
 * the returned problem says so. Throws when the store cannot be written.
 */
export function rememberTrustedFolder(home: string, folder: string): Promise<{ problem?: string }> {
  const file = trustStorePath(home);
  const previous = storeWrites.get(file) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(() => writeTrusted(file, home, folder));
  storeWrites.set(file, next);
  return next;
}

async function writeTrusted(file: string, home: string, folder: string): Promise<{ problem?: string }> {
  const real = await folderRealpath(folder);
  const store = await readTrustStore(home);
  let problem: string | undefined;
  if (store.problem) {
    const kept = `${file}.corrupt-${new Date().toISOString().replace(/[:.]/g, "-")}`;
    await rename(file, kept);
    problem = `${store.problem}; the old file was kept as ${kept}`;
  }
  if (store.folders.some((entry) => entry.path === real)) return problem ? { problem } : {};
  const contents = { folders: [...store.folders, { path: real, trustedAt: new Date().toISOString() }] };
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
 * realpath, else when `via` says it is trusted for this start / command / session.
 */
export async function loadFolderPermission(options: {
  workdir: string;
  home: string;
  via?: Exclude<TrustVia, "remembered">;
}): Promise<FolderPermission> {
  const folder = await folderRealpath(options.workdir);
  const store = await readTrustStore(options.home);
  const via: TrustVia | undefined = store.folders.some((entry) => entry.path === folder)
    ? "remembered"
    : options.via;
  const settings = await loadSettings({ workdir: folder, homeDir: options.home, trusted: via !== undefined });
  return {
    rules: settings.rules,
    problems: [...(store.problem ? [store.problem] : []), ...settings.problems],
    trust: { folder, trusted: via !== undefined, ...(via ? { via } : {}), grants: settings.grants },
  };
}
