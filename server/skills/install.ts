// Installing a skill into the user or project layer. Three steps, each usable alone (the UI shows the plan
// before it asks to go on): stage (the tree in memory must hold a SKILL.md that parses and a tools.json that
// checks, before anything is written), plan (what it would replace or shadow, from a fresh scan of the
// layers), commit (extract into a temp folder inside the layer folder — the same file system — check it
// once more as the catalog will load it, then one rename into place; a same-name skill is moved aside
// only with force).
import { chmod, lstat, mkdir, mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { InstallLayer, InstallPlan } from "../protocol/install.ts";
import { BUILTIN_SKILLS_DIR } from "./catalog.ts";
import { InstallRefused, type InstallTree } from "./install-tree.ts";
import { parseSkillMarkdown } from "./parse-skill.ts";
import { MAX_SKILL_FILE_BYTES } from "./read-bounded.ts";
import { loadSkillEntry, scanLayers } from "./scan-layer.ts";
import { checkCommand, isPathProgram, parseToolsJsonText } from "./tools-json.ts";
import { nestingProblem } from "./text-limits.ts";
import type { CatalogLayers, SkillSource } from "./types.ts";

export interface InstallTarget {
  layer: InstallLayer;
  /** Holds `.PseudoClaude/skills` (the user layer); needed unless `layers` is given. */
  home?: string;
  /** Holds `.PseudoClaude/skills` (the project layer); needed for `layer: "project"`. */
  workdir?: string;
  /** The builtin layer, for what a new skill shadows; default the repo's `skills/`. */
  builtinDir?: string;
  /** A session's own layer folders (they win over home, workdir and builtinDir). */
  layers?: CatalogLayers;
}

export interface StagedSkill {
  tree: InstallTree;
  name: string;
  description: string;
  toolNames: string[];
  /** The entry file as the archive names it: `SKILL.md`, or `skill.md` in lower case. */
  skillFile: string;
}

/** The layer folders an install looks at (no project layer without a workdir). */
export function installLayers(target: InstallTarget): { source: SkillSource; folder: string }[] {
  if (target.layers) {
    const { layers } = target;
    return (["builtin", "user", "project"] as const).map((source) => ({ source, folder: layers[source] }));
  }
  if (target.home === undefined) throw new Error("an install target needs a home or the session's layers");
  const layers: { source: SkillSource; folder: string }[] = [
    { source: "builtin", folder: target.builtinDir ?? BUILTIN_SKILLS_DIR },
    { source: "user", folder: path.join(path.resolve(target.home), ".PseudoClaude", "skills") },
  ];
  if (target.workdir !== undefined)
    layers.push({
      source: "project",
      folder: path.join(path.resolve(target.workdir), ".PseudoClaude", "skills"),
    });
  return layers;
}

/** The folder of the target layer's skills (`<home or workdir>/.PseudoClaude/skills`, or the session's). */
export function layerFolder(target: InstallTarget): string {
  if (target.layer === "project" && target.workdir === undefined && !target.layers)
    throw new InstallRefused("--layer project", "the project layer needs --workdir DIR");
  const found = installLayers(target).find((layer) => layer.source === target.layer);
  return found!.folder;
}

/** A skill name becomes a folder name: it must be one plain path segment. */
function checkFolderName(name: string, entry: string): void {
  if (
    name.length > 128 ||
    name.startsWith(".") ||
    /[/\\\u0000-\u001f\u007f]/.test(name) ||
    name.trim() !== name
  ) {
    throw new InstallRefused(
      entry,
      `the skill name ${JSON.stringify(name)} cannot be a folder name (no '/', '\\', leading '.', or outer spaces)`,
    );
  }
}

/** tools.json commands, checked against the staged files: a path program must be one of them. */
async function checkStagedCommands(tree: InstallTree, toolsText: string, entry: string): Promise<string[]> {
  const tooDeep = nestingProblem(toolsText, "tools.json");
  if (tooDeep) throw new InstallRefused(entry, tooDeep.reason);
  const parsed = parseToolsJsonText(toolsText);
  if (!parsed.ok) {
    const where = parsed.problem.line !== undefined ? `line ${parsed.problem.line}: ` : "";
    throw new InstallRefused(entry, `${where}${parsed.problem.reason}`);
  }
  const fileSet = new Set(tree.files.map((file) => file.path));
  for (const tool of parsed.tools) {
    const program = tool.command[0];
    if (isPathProgram(program)) {
      const virtualRoot = "/skill";
      const resolved = path.posix.resolve(virtualRoot, program.replace(/\\/g, "/"));
      const relative = path.posix.relative(virtualRoot, resolved);
      if (relative === "" || relative.startsWith("..") || path.posix.isAbsolute(relative))
        throw new InstallRefused(
          entry,
          `tool "${tool.name}": command "${program}" is outside the skill folder`,
        );
      if (!fileSet.has(relative))
        throw new InstallRefused(
          entry,
          `tool "${tool.name}": command "${program}" is not a file of the skill`,
        );
    } else {
      // A bare name is looked up on PATH; checkCommand does not consult the root for it.
      const check = await checkCommand([program], path.sep);
      if (!check.ok) throw new InstallRefused(entry, `tool "${tool.name}": ${check.reason}`);
    }
  }
  return parsed.tools.map((tool) => tool.name);
}

/** Checks the tree in memory: SKILL.md parses, the name is a folder name, tools.json checks. */
export async function stageSkill(tree: InstallTree): Promise<StagedSkill> {
  const entryOf = (relative: string) => `${tree.topFolder}/${relative}`;
  // `skill.md` in lower case is accepted too, as the catalog's scan does (SKILL.md wins when both exist).
  const skillFile =
    tree.files.find((file) => file.path === "SKILL.md") ??
    tree.files.find((file) => file.path === "skill.md");
  if (!skillFile) {
    const variant = tree.files.find((file) => file.path.toLowerCase() === "skill.md");
    throw new InstallRefused(
      `${tree.topFolder}/`,
      variant
        ? `no SKILL.md at the top of the skill folder (found "${variant.path}"; rename it SKILL.md)`
        : "no SKILL.md at the top of the skill folder",
    );
  }
  if (skillFile.data.length > MAX_SKILL_FILE_BYTES)
    throw new InstallRefused(entryOf(skillFile.path), `larger than ${MAX_SKILL_FILE_BYTES} bytes`);
  const parsed = parseSkillMarkdown(skillFile.data.toString("utf8"));
  if (!parsed.ok) {
    const where = parsed.problem.line !== undefined ? `line ${parsed.problem.line}: ` : "";
    throw new InstallRefused(entryOf(skillFile.path), `${where}${parsed.problem.reason}`);
  }
  const { name, description } = parsed.skill.meta;
  checkFolderName(name, entryOf(skillFile.path));
  const toolsFile = tree.files.find((file) => file.path === "tools.json");
  const toolNames = toolsFile
    ? await checkStagedCommands(tree, toolsFile.data.toString("utf8"), entryOf("tools.json"))
    : [];
  return { tree, name, description, toolNames, skillFile: skillFile.path };
}

/** What installing `staged` into the target layer would replace and shadow (a fresh scan of the layers). */
export async function planInstall(staged: StagedSkill, target: InstallTarget): Promise<InstallPlan> {
  const folder = layerFolder(target);
  const layers = installLayers(target);
  const scans = await scanLayers(layers);
  const order: SkillSource[] = ["builtin", "user", "project"];
  const targetRank = order.indexOf(target.layer);
  const plan: InstallPlan = {
    name: staged.name,
    description: staged.description,
    layer: target.layer,
    targetDir: path.join(folder, staged.name),
    files: staged.tree.files.length,
    bytes: staged.tree.bytes,
    toolNames: staged.toolNames,
    replaces: [],
    shadows: [],
    shadowedBy: [],
    needsForce: false,
  };
  layers.forEach((layer, index) => {
    for (const loaded of scans[index].skills) {
      if (loaded.skill.meta.name !== staged.name) continue;
      const rank = order.indexOf(layer.source);
      const where = { source: layer.source, path: loaded.skill.entryPath };
      if (rank < targetRank) plan.shadows.push(where);
      else if (rank > targetRank) plan.shadowedBy.push(where);
      else plan.replaces.push({ path: skillLocation(loaded.skill.entryPath, loaded.skill.rootDir, folder) });
    }
  });
  plan.needsForce = plan.replaces.length > 0;
  return plan;
}

/** What to move aside to replace a skill: its folder, or the loose `*.md` file itself. */
function skillLocation(entryPath: string, rootDir: string, layer: string): string {
  return path.resolve(rootDir) === path.resolve(layer) ? entryPath : rootDir;
}

/** Whether something (a file, a folder, a link) is at `target`; errors other than "not there" are thrown. */
export async function exists(target: string): Promise<boolean> {
  try {
    await lstat(target);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}

/** A project layer inside a workdir must not lead elsewhere through a symlinked `.PseudoClaude`. */
export async function checkLayerPath(target: InstallTarget, folder: string): Promise<void> {
  if (target.layer !== "project") return;
  for (const part of [path.dirname(folder), folder]) {
    try {
      if ((await lstat(part)).isSymbolicLink())
        throw new InstallRefused(
          part,
          "is a symbolic link: a project layer is written only inside the workdir",
        );
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
}

export async function writeTree(tree: InstallTree, folder: string): Promise<void> {
  for (const relative of tree.folders)
    await mkdir(path.join(folder, ...relative.split("/")), { recursive: true });
  for (const file of tree.files) {
    const destination = path.join(folder, ...file.path.split("/"));
    await mkdir(path.dirname(destination), { recursive: true });
    await writeFile(destination, file.data, { flag: "wx", mode: file.executable ? 0o755 : 0o644 });
  }
}

export interface CommitResult {
  plan: InstallPlan;
  /** What was moved aside and deleted (the replaced skills). */
  replaced: string[];
}

/** Installs a staged skill. Refuses (nothing written) when it would replace a skill and `force` is off. */
export async function commitInstall(
  staged: StagedSkill,
  target: InstallTarget,
  options: { force?: boolean } = {},
): Promise<CommitResult> {
  const folder = layerFolder(target);
  await checkLayerPath(target, folder);
  const plan = await planInstall(staged, target);
  if (plan.needsForce && !options.force)
    throw new InstallRefused(
      plan.replaces[0].path,
      `a ${target.layer} skill "${plan.name}" is already installed here; pass --force to replace it`,
    );
  const replacing = new Set(plan.replaces.map((entry) => path.resolve(entry.path)));
  if ((await exists(plan.targetDir)) && !replacing.has(path.resolve(plan.targetDir)))
    throw new InstallRefused(
      plan.targetDir,
      `already exists and is not the skill "${plan.name}" (move it away first; --force replaces only a skill of the same name)`,
    );

  await mkdir(folder, { recursive: true });
  const temp = await mkdtemp(path.join(folder, ".install-"));
  let placed = false;
  try {
    await writeTree(staged.tree, temp);
    await chmod(temp, 0o755);
    // Checked once more exactly as the catalog will load it (tools.json commands against real files).
    const outcome = await loadSkillEntry(
      target.layer,
      path.join(temp, staged.skillFile),
      temp,
      path.join(temp, "tools.json"),
    );
    if ("warning" in outcome) {
      const entry = path.relative(temp, outcome.warning.path) || staged.skillFile;
      throw new InstallRefused(`${staged.tree.topFolder}/${entry}`, outcome.warning.reason);
    }
    const asideList: { from: string; aside: string }[] = [];
    try {
      for (const from of replacing) {
        const aside = path.join(folder, `.replaced-${path.basename(temp).slice(9)}-${path.basename(from)}`);
        await rename(from, aside);
        asideList.push({ from, aside });
      }
      await rename(temp, plan.targetDir);
      placed = true;
    } catch (error) {
      for (const { from, aside } of asideList.reverse()) await rename(aside, from);
      throw error;
    }
    for (const { aside } of asideList) await rm(aside, { recursive: true, force: true });
    return { plan, replaced: [...replacing] };
  } finally {
    if (!placed) await rm(temp, { recursive: true, force: true });
  }
}
