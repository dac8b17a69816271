// The Catalog: what is discoverable. Three layers (builtin < user < project), later layers replace earlier
// ones by name with every replaced candidate recorded, one warning per bad skill, dependency validation;
// and a fourth source, the skills MCP servers serve (`mcp:<server>`, mcp-source.ts), which never replaces
// anything: a name another origin has is qualified as `<server>/<name>`.
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { claudeCodeEquivalent, mapAllowedTools } from "./allowed-tools.ts";
import { overlapNotes } from "./description-overlap.ts";
import { lintSkill } from "./lint.ts";
import { refusalsByPath } from "./lint-profile.ts";
import { notOfferedOnDisk } from "./not-offered.ts";
import { parseSkillMarkdown } from "./parse-skill.ts";
import { readBounded } from "./read-bounded.ts";
import { scanLayers, type LoadedSkill } from "./scan-layer.ts";
import { buildMcpSkills, type McpListingInput } from "./mcp-source.ts";
import { catalogFolders } from "./plugin-layers.ts";
import type {
  CatalogLayers,
  CatalogSnapshot,
  LintNote,
  LintProfileName,
  NotOfferedSkill,
  PromptItem,
  ReloadDiff,
  RemovedSkill,
  ShadowedSkill,
  Skill,
  SkillSource,
  SkillView,
  SkillWarning,
} from "./types.ts";
import { indexDescription, modelInvocable } from "./types.ts";
import { byName, compareNames } from "../protocol/names.ts";

/** Layer order: later entries win. */
export const LAYER_ORDER: readonly SkillSource[] = ["builtin", "user", "project"];

/** The repo's own `skills/` folder, found relative to this file so it works from any cwd. */
export const BUILTIN_SKILLS_DIR = fileURLToPath(new URL("../../skills/", import.meta.url));

/** Standard layer folders for a workdir: repo `skills/`, `$HOME/.PseudoClaude/skills`, `<workdir>/.PseudoClaude/skills`. */
export function defaultLayers(workdir: string, home: string = os.homedir()): CatalogLayers {
  return {
    builtin: BUILTIN_SKILLS_DIR,
    user: path.join(home, ".PseudoClaude", "skills"),
    project: path.join(path.resolve(workdir), ".PseudoClaude", "skills"),
  };
}

/** Plain-string comparison: locale-independent, so prompt text is byte-identical everywhere. */
function fingerprint(loaded: LoadedSkill): string {
  return JSON.stringify([loaded.skill.source, loaded.skill.entryPath, loaded.raw, loaded.toolsRaw]);
}

export class Catalog {
  readonly layers: CatalogLayers;
  /** Winners of the override, before dependency validation. */
  private winners = new Map<string, LoadedSkill>();
  /** What is offered: winners minus skills refused by the lint profile or removed by validateTools. */
  private available = new Map<string, LoadedSkill>();
  private warningList: SkillWarning[] = [];
  private shadowedList: ShadowedSkill[] = [];
  private removedList: RemovedSkill[] = [];
  /** Winners the lint profile refuses, with the notes that refuse them. */
  private refusedList: { loaded: LoadedSkill; notes: LintNote[] }[] = [];
  private lintList: LintNote[] = [];
  /**
   * Descriptions that overlap strongly, worked out when the lint is first asked for after a scan (a
   * catalog-wide comparison; never a reason to refuse, so loading a catalog does not wait for it).
   */
  private overlapList: LintNote[] | undefined;
  private profileName: LintProfileName;
  private isKnownTool: ((name: string) => boolean) | null = null;
  private explainMissing: ((name: string) => string | undefined) | null = null;
  /** The connected servers' skill listings, and what they give with the disk names of the last scan. */
  private mcpListings: McpListingInput[] = [];
  private mcpSkills: LoadedSkill[] = [];
  private mcpWarnings: SkillWarning[] = [];
  private diskNames = new Set<string>();
  /** The last queued scan; loads and reloads run one after another. */
  private pending: Promise<unknown> = Promise.resolve();

  /** Takes the layer folders explicitly (tests use temp dirs). Call `load()` before use, or use `Catalog.create`. */
  constructor(layers: CatalogLayers, options: { profile?: LintProfileName } = {}) {
    this.layers = { ...layers };
    this.profileName = options.profile ?? "lenient";
  }

  /** Builds and loads a catalog. */
  static async create(layers: CatalogLayers, options: { profile?: LintProfileName } = {}): Promise<Catalog> {
    const catalog = new Catalog(layers, options);
    await catalog.load();
    return catalog;
  }

  /** The lint profile enforced: `lenient` (the default) refuses nothing a parser can read. */
  get profile(): LintProfileName {
    return this.profileName;
  }

  /** Switches the lint profile: which skills it refuses is worked out again, without a rescan. */
  setProfile(profile: LintProfileName): void {
    this.profileName = profile;
    this.applyValidation();
  }

  /** Scans every layer, replacing the current content. Re-applies the last `validateTools` predicate. */
  async load(): Promise<void> {
    // Serialized: a file-watch reload and a manual one may overlap; each scan sees the previous result.
    const run = this.pending.then(() => this.scanAll());
    this.pending = Promise.allSettled([run]); // the queue waits for settling; callers still get the error via run
    return run;
  }

  private async scanAll(): Promise<void> {
    const candidates = new Map<string, LoadedSkill[]>();
    const warnings: SkillWarning[] = [];
    // All layers in one bounded-concurrency scan; results come back in layer order, so the override
    // (later layer wins) and the warning order are those of a layer-by-layer scan.
    // Each layer's own skills folder, then the skills/ of the plugins installed in it (plugin-layers.ts).
    const folders = await catalogFolders(this.layers);
    const scans = await scanLayers(folders.map(({ source, folder }) => ({ source, folder })));
    for (const [index, scan] of scans.entries()) {
      warnings.push(...scan.warnings);
      const plugin = folders[index]!.plugin;
      for (const loaded of scan.skills) {
        if (plugin) loaded.skill.plugin = plugin;
        const list = candidates.get(loaded.skill.meta.name) ?? [];
        list.push(loaded);
        candidates.set(loaded.skill.meta.name, list);
      }
    }
    const winners = new Map<string, LoadedSkill>();
    const shadowed: ShadowedSkill[] = [];
    const lint: LintNote[] = [];
    for (const [name, list] of [...candidates.entries()].sort(([a], [b]) => compareNames(a, b))) {
      const winner = list[list.length - 1];
      winners.set(name, winner);
      for (const loser of list.slice(0, -1)) {
        shadowed.push({
          name,
          winner: { source: winner.skill.source, path: winner.skill.entryPath },
          loser: { source: loser.skill.source, path: loser.skill.entryPath },
        });
      }
      for (const loaded of list) lint.push(...lintSkill(loaded.skill), ...loaded.resourceLint);
    }
    this.winners = winners;
    this.diskNames = new Set(candidates.keys());
    this.rebuildMcp();
    this.warningList = warnings;
    this.shadowedList = shadowed;
    this.lintList = lint;
    this.overlapList = undefined;
    this.applyValidation();
  }

  /**
   * The skills MCP servers serve (SEP-2640), replacing the previous listings: offered as `mcp:<server>`,
   * a name another origin has qualified as `<server>/<name>`. Nothing is fetched until one is loaded.
   */
  setMcpSkills(listings: readonly McpListingInput[]): void {
    this.mcpListings = [...listings];
    this.rebuildMcp();
    this.applyValidation();
  }

  private rebuildMcp(): void {
    const built = buildMcpSkills(this.mcpListings, this.diskNames);
    this.mcpSkills = built.skills;
    this.mcpWarnings = built.warnings;
  }

  /**
   * Removes every skill whose `meta.tools` names a tool that is neither in its own tools.json nor known
   * to `isKnownTool` (system tools + the main Registry). Remembered and re-applied by `reload()`.
   * `explainMissing` may say why a name is missing (an MCP server that is not connected); the reasons go
   * into the record next to `missing`.
   * @returns the removed skills with their missing tool names.
   */
  validateTools(
    isKnownTool: (name: string) => boolean,
    explainMissing?: (name: string) => string | undefined,
  ): RemovedSkill[] {
    this.isKnownTool = isKnownTool;
    if (explainMissing) this.explainMissing = explainMissing;
    this.applyValidation();
    return this.removed();
  }

  private applyValidation(): void {
    const available = new Map<string, LoadedSkill>();
    const removed: RemovedSkill[] = [];
    const refused: { loaded: LoadedSkill; notes: LintNote[] }[] = [];
    const refusals = refusalsByPath(this.lintList, this.profileName);
    const candidates: [string, LoadedSkill][] = [
      ...this.winners,
      ...this.mcpSkills.map((loaded) => [loaded.skill.meta.name, loaded] as [string, LoadedSkill]),
    ];
    for (const [name, loaded] of candidates) {
      const refusing = refusals.get(loaded.skill.entryPath) ?? [];
      if (refusing.length > 0) {
        refused.push({ loaded, notes: refusing });
        continue;
      }
      const predicate = this.isKnownTool;
      const ownTools = new Set(loaded.skill.tools.map((tool) => tool.name));
      // A name in Claude Code's vocabulary holds when its equivalent here is registered (allowed-tools.ts).
      const present = (tool: string, known: (name: string) => boolean): boolean => {
        const equivalent = claudeCodeEquivalent(tool);
        return ownTools.has(tool) || known(tool) || (equivalent !== undefined && known(equivalent));
      };
      const missing = predicate ? loaded.skill.meta.tools.filter((tool) => !present(tool, predicate)) : [];
      if (missing.length > 0) {
        const explain = this.explainMissing;
        const reasons = explain
          ? missing.map((tool) => explain(tool) ?? `no tool ${tool} is registered`)
          : [];
        removed.push({
          name,
          source: loaded.skill.source,
          path: loaded.skill.entryPath,
          missing,
          ...(reasons.some((reason, index) => reason !== `no tool ${missing[index]} is registered`)
            ? { reasons }
            : {}),
        });
      } else {
        available.set(name, loaded);
      }
    }
    this.available = available;
    this.removedList = removed;
    this.refusedList = refused;
  }

  /** Rescans all layers (tools.json included) and says what changed among the offered skills. */
  async reload(): Promise<ReloadDiff> {
    const run = this.pending.then(() => this.reloadNow());
    this.pending = Promise.allSettled([run]); // the queue waits for settling; callers still get the error via run
    return run;
  }

  private async reloadNow(): Promise<ReloadDiff> {
    const before = new Map([...this.available].map(([name, loaded]) => [name, fingerprint(loaded)]));
    await this.scanAll();
    const diff: ReloadDiff = { added: [], removed: [], updated: [] };
    for (const [name, loaded] of this.available) {
      const previous = before.get(name);
      if (previous === undefined) diff.added.push(name);
      else if (previous !== fingerprint(loaded)) diff.updated.push(name);
    }
    for (const name of before.keys()) if (!this.available.has(name)) diff.removed.push(name);
    return diff;
  }

  get(name: string): Skill | undefined {
    return this.available.get(name)?.skill;
  }

  has(name: string): boolean {
    return this.available.has(name);
  }

  /** Offered skills sorted by name. */
  list(): Skill[] {
    return [...this.available.values()].map((loaded) => loaded.skill).sort((a, b) => byName(a.meta, b.meta));
  }

  names(): string[] {
    return this.list().map((skill) => skill.meta.name);
  }

  /**
   * Only `{name, description}` — the skills index of the stable system. Sorted by name, so stable. A
   * skill with `disable-model-invocation: true` is left out (slash-invocable still); `when_to_use`
   * joins its description, as Claude Code lists it.
   */
  promptItems(): PromptItem[] {
    return this.list()
      .filter((skill) => modelInvocable(skill.meta))
      .map((skill) => ({ name: skill.meta.name, description: indexDescription(skill.meta) }));
  }

  warnings(): SkillWarning[] {
    return [...this.warningList, ...this.mcpWarnings].map((warning) => ({ ...warning }));
  }

  shadowed(): ShadowedSkill[] {
    return structuredClone(this.shadowedList);
  }

  removed(): RemovedSkill[] {
    return structuredClone(this.removedList);
  }

  lint(): LintNote[] {
    // Descriptions compete only among the skills that can be offered: one per name.
    this.overlapList ??= overlapNotes([...this.winners.values()].map((loaded) => loaded.skill));
    return [...this.lintList, ...this.overlapList].map((note) => ({ ...note }));
  }

  /**
   * Every skill found on disk but not offered to the model, one sentence each: unreadable, shadowed,
   * refused by the lint profile, removed for a missing dependency, disabled for the model. (Left out by
   * a listing budget is the session's to add: server/prompt/not-offered.ts.)
   */
  notOffered(): NotOfferedSkill[] {
    return notOfferedOnDisk({
      layers: this.layers,
      warnings: [...this.warningList, ...this.mcpWarnings],
      shadowed: this.shadowedList,
      refused: this.refusedList.map(({ loaded, notes }) => ({ skill: loaded.skill, notes })),
      removed: this.removedList,
      profile: this.profileName,
      disabled: this.list().filter((skill) => !modelInvocable(skill.meta)),
    });
  }

  /** The SKILL.md text as read at the last load. */
  raw(name: string): string | undefined {
    return this.available.get(name)?.raw;
  }

  /**
   * Re-reads a skill's body from disk (edits made after start are seen). Returns null when the file is
   * gone or no longer parses; the caller then keeps the catalog's snapshot. Does not touch tools.json.
   */
  async reloadSkillBody(name: string): Promise<string | null> {
    const skill = this.get(name);
    // An MCP skill has no file here: its loader fetches and verifies it (mcp-skill-loader.ts).
    if (!skill || skill.mcp) return null;
    let text: string;
    try {
      text = await readBounded(skill.entryPath); // over the size limit is refused like at load
    } catch {
      // Gone or unreadable: the documented fallback is the snapshot, so null is the answer, not an error.
      return null;
    }
    const parsed = parseSkillMarkdown(text);
    return parsed.ok ? parsed.skill.body : null;
  }

  /** The wire view for the browser and `cli catalog`. */
  snapshot(): CatalogSnapshot {
    const skills: SkillView[] = [...this.available.values()]
      .sort((a, b) => byName(a.skill.meta, b.skill.meta))
      .map(({ skill, raw }) => ({
        name: skill.meta.name,
        description: skill.meta.description,
        source: skill.source,
        entryPath: skill.entryPath,
        rootDir: skill.rootDir,
        toolNames: skill.tools.map((tool) => tool.name),
        toolSpecs: structuredClone(skill.tools),
        meta: structuredClone({
          tools: skill.meta.tools,
          mode: skill.meta.mode,
          history: skill.meta.history,
          ...(skill.meta.model ? { model: skill.meta.model } : {}),
          extra: skill.meta.extra,
        }),
        body: skill.body,
        ...(skill.plugin ? { plugin: skill.plugin.name } : {}),
        // An MCP skill's SKILL.md is not fetched before it is loaded; the entry is what is known.
        ...(skill.mcp ? { mcp: structuredClone(skill.mcp) } : { raw }),
        ...(skill.meta.allowedTools
          ? {
              allowedTools: mapAllowedTools(
                skill.meta.allowedTools,
                new Set(skill.tools.map((tool) => tool.name)),
              ).map(({ unknown: _unknown, ...view }) => view),
            }
          : {}),
        invocation: { model: modelInvocable(skill.meta), user: skill.meta.invocation?.user !== false },
        ...(skill.meta.whenToUse ? { whenToUse: skill.meta.whenToUse } : {}),
      }));
    return {
      skills,
      warnings: this.warnings(),
      removed: this.removed(),
      shadowed: this.shadowed(),
      lint: this.lint(),
      notOffered: this.notOffered(),
      profile: this.profileName,
    };
  }
}
