// The folders the catalog scans: each layer's skills folder, and after the user and project layers' own,
// the `skills/` folder of every plugin installed in that layer (`.PseudoClaude/plugins/<name>/skills`),
// whose skills are that layer's and carry their plugin (install-plugin.ts). A plugin's skills therefore
// list together, and removing the plugin removes them all.
import { readdir } from "node:fs/promises";
import path from "node:path";
import type { CatalogLayers, SkillPlugin, SkillSource } from "./types.ts";

/** Plugins read per layer at most (a folder is not trusted to be small). */
export const MAX_PLUGINS_PER_LAYER = 200;

export interface CatalogFolder {
  source: SkillSource;
  folder: string;
  plugin?: SkillPlugin;
}

async function pluginFolders(source: SkillSource, layerFolder: string): Promise<CatalogFolder[]> {
  const base = path.dirname(layerFolder);
  const plugins = path.join(base, "plugins");
  let entries;
  try {
    entries = await readdir(plugins, { withFileTypes: true });
  } catch {
    // No plugins folder (the usual case) or one that cannot be read: no plugin skills in this layer.
    return [];
  }
  const out: CatalogFolder[] = [];
  for (const entry of entries
    .filter((item) => item.isDirectory() && !item.name.startsWith("."))
    .slice(0, MAX_PLUGINS_PER_LAYER)) {
    const root = path.join(plugins, entry.name);
    const skills = await readdir(path.join(root, "skills"), { withFileTypes: true }).catch(() => undefined);
    if (!skills) continue;
    out.push({
      source,
      folder: path.join(root, "skills"),
      plugin: { name: entry.name, root, dataDir: path.join(base, "plugins-data", entry.name) },
    });
  }
  return out.sort((a, b) => (a.folder < b.folder ? -1 : a.folder > b.folder ? 1 : 0));
}

/** builtin, user, the user layer's plugins, project, the project layer's plugins: later ones win by name. */
export async function catalogFolders(layers: CatalogLayers): Promise<CatalogFolder[]> {
  return [
    { source: "builtin", folder: layers.builtin },
    { source: "user", folder: layers.user },
    ...(await pluginFolders("user", layers.user)),
    { source: "project", folder: layers.project },
    ...(await pluginFolders("project", layers.project)),
  ];
}
