// ActiveSkills: what is loaded. An ordered set keyed by skill name; its entries render, in order, as the
// `## Active Skills` section of the environment.
import type { SkillResources } from "../protocol/skill-resources.ts";
import type { CatalogSource } from "./types.ts";

/** A loaded skill's folder, which the read-only file tools may read inside (server/tools/skill-roots.ts). */
export interface ActiveSkillRoot {
  skill: string;
  /** Realpath of the folder. */
  root: string;
  /** The folder as the catalog found it (may go through a symlink), so paths written that way resolve too. */
  given: string;
  /** An MCP skill's: fetches and verifies a file before it is read (server/skills/mcp-skill-loader.ts). */
  prepare?: (relative: string) => Promise<string | undefined>;
  /** `mcp:<server>` for a skill an MCP server serves. */
  mcpSource?: string;
}

export interface ActiveSkill {
  name: string;
  source: CatalogSource;
  /** The rendered invocation (body with arguments substituted, plus the allowed-tools list). */
  body: string;
  arguments: string;
  /** How many times this name has been activated (re-activation updates in place). */
  activations: number;
  /** Base directory and file manifest; absent for a loose `*.md` skill (no folder of its own). */
  resources?: SkillResources;
  /** The folder as the catalog found it. */
  rootDir?: string;
  /** An MCP skill's: fetches and verifies a file of it before a read. */
  prepare?: (relative: string) => Promise<string | undefined>;
}

export interface ActivationOutcome {
  /** 0-based position in activation order (unchanged when the name was already active). */
  position: number;
  /** True when the name was already active and its body was replaced in place. */
  updated: boolean;
}

/**
 * Ordered set of active skills. Activating a name again replaces its body and arguments and keeps its
 * position; distinct names keep activation order. Each activation is one synchronous step on a Map
 * (insertion-ordered; `set` on an existing key keeps its slot), so concurrent load_skill calls, which
 * interleave only at their awaits, can never duplicate or reorder an entry.
 */
export class ActiveSkills {
  private readonly entries = new Map<string, ActiveSkill>();

  activate(skill: {
    name: string;
    source: CatalogSource;
    body: string;
    arguments?: string;
    resources?: SkillResources;
    rootDir?: string;
    prepare?: (relative: string) => Promise<string | undefined>;
  }): ActivationOutcome {
    const existing = this.entries.get(skill.name);
    const entry: ActiveSkill = {
      name: skill.name,
      source: skill.source,
      body: skill.body,
      arguments: skill.arguments ?? "",
      activations: (existing?.activations ?? 0) + 1,
      ...(skill.resources ? { resources: skill.resources } : {}),
      ...(skill.rootDir ? { rootDir: skill.rootDir } : {}),
      ...(skill.prepare ? { prepare: skill.prepare } : {}),
    };
    this.entries.set(skill.name, entry);
    return { position: [...this.entries.keys()].indexOf(skill.name), updated: existing !== undefined };
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  get(name: string): ActiveSkill | undefined {
    const entry = this.entries.get(name);
    return entry ? { ...entry } : undefined;
  }

  /** Copies, in activation order. */
  list(): ActiveSkill[] {
    return [...this.entries.values()].map((entry) => ({ ...entry }));
  }

  /** The folders of the loaded skills that have one, in activation order: readable by the read-only file tools. */
  resourceRoots(): ActiveSkillRoot[] {
    return [...this.entries.values()].flatMap((entry) =>
      entry.resources
        ? [
            {
              skill: entry.name,
              root: entry.resources.baseDir,
              given: entry.rootDir ?? entry.resources.baseDir,
              ...(entry.prepare ? { prepare: entry.prepare } : {}),
              ...(entry.source.startsWith("mcp:") ? { mcpSource: entry.source } : {}),
            },
          ]
        : [],
    );
  }

  names(): string[] {
    return [...this.entries.keys()];
  }

  get size(): number {
    return this.entries.size;
  }

  /** Removes one skill (e.g. removed from the catalog by a reload). */
  deactivate(name: string): boolean {
    return this.entries.delete(name);
  }

  clear(): void {
    this.entries.clear();
  }
}
