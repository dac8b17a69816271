// Installing and removing a plugin bundle (plugin-bundle.ts) as one unit in the user or project layer:
// the whole plugin folder goes to `<home or workdir>/.PseudoClaude/plugins/<name>/` (one rename, as a
// skill does), its skills are the catalog's skills of that layer from there (listed with their plugin),
// its MCP servers join the same layer's settings.json `mcpServers` (each marked `"plugin": "<name>"`), so
// a project plugin's servers start only once the folder is trusted, like any workdir server. Removing the
// plugin removes its folder and its servers; its data folder (`plugins-data/<name>`) is kept.
import { mkdir, mkdtemp, readFile, readdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { InstallOutcome, InstallPlan } from "../protocol/install.ts";
import {
  checkLayerPath,
  exists,
  installLayers,
  layerFolder,
  writeTree,
  type InstallTarget,
} from "./install.ts";
import { InstallRefused, type InstallTree } from "./install-tree.ts";
import { readPluginBundle, type PluginBundle, type PluginPlaces } from "./plugin-bundle.ts";
import { scanLayers } from "./scan-layer.ts";
import type { SkillSource } from "./types.ts";

/** The `.PseudoClaude` folder that holds the target layer's skills, plugins and settings. */
function configFolder(target: InstallTarget): string {
  return path.dirname(layerFolder(target));
}

export function pluginPlaces(target: InstallTarget, name: string): PluginPlaces {
  const base = configFolder(target);
  return { root: path.join(base, "plugins", name), data: path.join(base, "plugins-data", name) };
}

function settingsFile(target: InstallTarget): string {
  return path.join(configFolder(target), "settings.json");
}

/** The settings document, `{}` when there is none, or why it cannot be changed safely. */
async function readSettings(file: string): Promise<Record<string, unknown> | string> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    return `${file} cannot be read (${(error as Error).message})`;
  }
  try {
    const document = JSON.parse(text) as unknown;
    if (typeof document !== "object" || document === null || Array.isArray(document))
      return `${file} is not a JSON object`;
    return document as Record<string, unknown>;
  } catch (error) {
    return `${file} is not valid JSON (${(error as Error).message})`;
  }
}

async function writeSettings(file: string, document: Record<string, unknown>): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temp, `${JSON.stringify(document, null, 2)}\n`, { mode: 0o600, flag: "wx" });
  await rename(temp, file);
}

function serversOf(document: Record<string, unknown>): Record<string, Record<string, unknown>> {
  const servers = document.mcpServers;
  return typeof servers === "object" && servers !== null && !Array.isArray(servers)
    ? (servers as Record<string, Record<string, unknown>>)
    : {};
}

/** What installing the plugin would do: its skills, servers, what it replaces, shadows and warns about. */
export async function planPluginInstall(bundle: PluginBundle, target: InstallTarget): Promise<InstallPlan> {
  const places = pluginPlaces(target, bundle.name);
  const warnings = [...bundle.warnings];
  const settings = settingsFile(target);
  const document = await readSettings(settings);
  const servers = Object.keys(bundle.servers);
  const added: string[] = [];
  if (typeof document === "string") {
    if (servers.length > 0) warnings.push(`its MCP servers were not added: ${document}`);
  } else {
    const existing = serversOf(document);
    for (const name of servers) {
      const other = existing[name];
      if (other && other.plugin !== bundle.name)
        warnings.push(`MCP server "${name}" was not added: ${settings} already has a server of that name`);
      else added.push(name);
    }
  }
  const layers = installLayers(target);
  const scans = await scanLayers(layers);
  const order: SkillSource[] = ["builtin", "user", "project"];
  const targetRank = order.indexOf(target.layer);
  const shadows: InstallPlan["shadows"] = [];
  const shadowedBy: InstallPlan["shadowedBy"] = [];
  const names = new Set(bundle.skills.map((skill) => skill.name));
  layers.forEach((layer, index) => {
    for (const loaded of scans[index]!.skills) {
      if (!names.has(loaded.skill.meta.name)) continue;
      const where = { source: layer.source, path: loaded.skill.entryPath };
      const rank = order.indexOf(layer.source);
      if (rank < targetRank) shadows.push(where);
      else if (rank > targetRank) shadowedBy.push(where);
      else
        warnings.push(
          `the ${layer.source} layer already has a skill "${loaded.skill.meta.name}" (${loaded.skill.entryPath}); the plugin's is listed after it and wins`,
        );
    }
  });
  const replacing = await exists(places.root);
  return {
    name: bundle.name,
    description: bundle.description ?? "",
    layer: target.layer,
    targetDir: places.root,
    files: bundle.tree.files.length,
    bytes: bundle.tree.bytes,
    toolNames: bundle.skills.flatMap((skill) => skill.toolNames),
    replaces: replacing ? [{ path: places.root }] : [],
    shadows,
    shadowedBy,
    needsForce: replacing,
    plugin: {
      format: bundle.format,
      ...(bundle.version ? { version: bundle.version } : {}),
      dataDir: places.data,
      skills: bundle.skills.map((skill) => skill.name),
      mcpServers: added.map((name) => {
        const server = bundle.servers[name]!;
        return { name, target: "url" in server ? server.url : [server.command, ...server.args].join(" ") };
      }),
      settingsFile: settings,
      warnings,
    },
  };
}

/** Installs the plugin (one rename into place, then its servers into the settings). */
async function commitPluginInstall(
  bundle: PluginBundle,
  target: InstallTarget,
  force: boolean,
): Promise<{ plan: InstallPlan; replaced: string[] }> {
  const plan = await planPluginInstall(bundle, target);
  if (plan.needsForce && !force)
    throw new InstallRefused(
      plan.targetDir,
      `a ${target.layer} plugin "${plan.name}" is already installed here; pass --force to replace it`,
    );
  const places = pluginPlaces(target, bundle.name);
  const plugins = path.dirname(places.root);
  await checkLayerPath(target, layerFolder(target));
  await mkdir(plugins, { recursive: true });
  const temp = await mkdtemp(path.join(plugins, ".install-"));
  let placed = false;
  try {
    await writeTree(bundle.tree, temp);
    const aside = path.join(plugins, `.replaced-${path.basename(temp).slice(9)}`);
    if (plan.needsForce) await rename(places.root, aside);
    try {
      await rename(temp, places.root);
      placed = true;
    } catch (error) {
      if (plan.needsForce) await rename(aside, places.root);
      throw error;
    }
    if (plan.needsForce) await rm(aside, { recursive: true, force: true });
  } finally {
    if (!placed) await rm(temp, { recursive: true, force: true });
  }
  await mkdir(places.data, { recursive: true, mode: 0o700 });
  const added = new Set(plan.plugin!.mcpServers.map((server) => server.name));
  const document = await readSettings(plan.plugin!.settingsFile);
  if (
    typeof document !== "string" &&
    (added.size > 0 || Object.values(serversOf(document)).some((server) => server.plugin === bundle.name))
  ) {
    // The plugin's servers replace those of an earlier install of it; every other server stays as it was.
    const kept = Object.entries(serversOf(document)).filter(([, server]) => server.plugin !== bundle.name);
    const fresh = Object.entries(bundle.servers).filter(([name]) => added.has(name));
    await writeSettings(plan.plugin!.settingsFile, {
      ...document,
      mcpServers: Object.fromEntries([...kept, ...fresh]),
    });
  }
  return { plan, replaced: plan.needsForce ? [places.root] : [] };
}

/** Stages, plans and (unless dryRun) installs a plugin tree; a refusal is data, as for a skill. */
export async function installPluginTree(
  tree: InstallTree,
  target: InstallTarget,
  options: { force?: boolean; dryRun?: boolean },
): Promise<InstallOutcome> {
  // Where it will live decides what ${PLUGIN_ROOT} expands to (the name is checked before it is used).
  const bundle = await readPluginBundle(tree, (name) => pluginPlaces(target, name));
  if (options.dryRun)
    return { ok: true, plan: await planPluginInstall(bundle, target), installed: false, replaced: [] };
  const result = await commitPluginInstall(bundle, target, options.force === true);
  return { ok: true, plan: result.plan, installed: true, replaced: result.replaced };
}

export interface PluginRemoval {
  name: string;
  folder: string;
  skills: string[];
  mcpServers: string[];
  /** Kept: a plugin's data outlives it (delete it yourself if you want it gone). */
  dataDir: string;
}

/** Removes an installed plugin: its folder (its skills with it) and its servers in the layer's settings. */
export async function removePlugin(name: string, target: InstallTarget): Promise<PluginRemoval> {
  if (name === "" || name.includes("/") || name.includes("\\") || name.startsWith("."))
    throw new InstallRefused(name, "not a plugin name");
  const places = pluginPlaces(target, name);
  if (!(await exists(places.root)))
    throw new InstallRefused(places.root, `no ${target.layer} plugin "${name}" is installed here`);
  const skills = await readdir(path.join(places.root, "skills")).catch(() => [] as string[]);
  await checkLayerPath(target, layerFolder(target));
  await rm(places.root, { recursive: true, force: true });
  const file = settingsFile(target);
  const document = await readSettings(file);
  const removed: string[] = [];
  if (typeof document !== "string") {
    const servers = serversOf(document);
    for (const [server, entry] of Object.entries(servers)) if (entry.plugin === name) removed.push(server);
    if (removed.length > 0)
      await writeSettings(file, {
        ...document,
        mcpServers: Object.fromEntries(
          Object.entries(servers).filter(([server]) => !removed.includes(server)),
        ),
      });
  }
  return { name, folder: places.root, skills: skills.sort(), mcpServers: removed, dataDir: places.data };
}
