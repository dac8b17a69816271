// Where an install comes from: a `.zip` file, a skill folder, an `https://` URL of a zip, or zip bytes the
// browser uploaded. Each becomes an InstallTree in memory; `installSkill` then stages, plans and commits.
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import type { InstallOutcome } from "../protocol/install.ts";
import { DownloadFailed, MAX_DOWNLOAD_BYTES, fetchArchive, type FetchOptions } from "./fetch-archive.ts";
import { readSkillFolder } from "./folder-reader.ts";
import { commitInstall, planInstall, stageSkill, type InstallTarget } from "./install.ts";
import { installPluginTree } from "./install-plugin.ts";
import { pluginManifestPath } from "./plugin-bundle.ts";
import { InstallRefused, type InstallTree } from "./install-tree.ts";
import { readZipArchive } from "./zip-reader.ts";

export type InstallSource =
  | { kind: "path"; path: string }
  | { kind: "url"; url: string }
  | { kind: "bytes"; name: string; data: Buffer };

/** `https://…` is a URL; `http://` and other schemes are refused; anything else is a local path. */
export function parseInstallSource(text: string): InstallSource {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    if (!/^https:\/\//i.test(text))
      throw new InstallRefused(text, "only https:// URLs are fetched (download the zip and pass its path)");
    return { kind: "url", url: text };
  }
  return { kind: "path", path: text };
}

export async function readInstallSource(
  source: InstallSource,
  fetchOptions: FetchOptions = {},
): Promise<InstallTree> {
  if (source.kind === "bytes") return readZipArchive(source.data, source.name);
  if (source.kind === "url") {
    const data = await fetchArchive(source.url, fetchOptions);
    return readZipArchive(data, source.url);
  }
  let info;
  try {
    info = await stat(source.path);
  } catch (error) {
    throw new InstallRefused(source.path, `cannot read: ${(error as Error).message}`);
  }
  if (info.isDirectory()) return readSkillFolder(source.path);
  if (!info.isFile()) throw new InstallRefused(source.path, "not a folder or a .zip file");
  if (info.size > MAX_DOWNLOAD_BYTES)
    throw new InstallRefused(
      source.path,
      `the archive is larger than ${Math.round(MAX_DOWNLOAD_BYTES / (1024 * 1024))} MiB`,
    );
  return readZipArchive(await readFile(source.path), path.basename(source.path));
}

export interface InstallOptions {
  force?: boolean;
  /** Only stage and plan: nothing is written. */
  dryRun?: boolean;
  fetch?: FetchOptions;
}

/**
 * Reads, checks, plans and (unless dryRun) installs. A refusal (a broken rule, or a replace without force)
 * is returned as data; a download failure too (entry: the URL). Other errors (I/O) are thrown.
 */
export async function installSkill(
  source: InstallSource,
  target: InstallTarget,
  options: InstallOptions = {},
): Promise<InstallOutcome> {
  let plan;
  try {
    const tree = await readInstallSource(source, options.fetch);
    // A plugin bundle (plugin.json or .claude-plugin/plugin.json at its top) installs as one unit.
    if (pluginManifestPath(tree)) return await installPluginTree(tree, target, options);
    const staged = await stageSkill(tree);
    plan = await planInstall(staged, target);
    if (options.dryRun) return { ok: true, plan, installed: false, replaced: [] };
    const result = await commitInstall(staged, target, { force: options.force });
    return { ok: true, plan: result.plan, installed: true, replaced: result.replaced };
  } catch (error) {
    if (error instanceof InstallRefused)
      return {
        ok: false,
        refusal: { entry: error.entry, rule: error.rule, message: error.message },
        ...(plan ? { plan } : {}),
      };
    if (error instanceof DownloadFailed) {
      const entry = source.kind === "url" ? source.url : "download";
      return { ok: false, refusal: { entry, rule: error.message, message: `refused: ${error.message}` } };
    }
    throw error;
  }
}
