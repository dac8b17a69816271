import type { JsonSchema } from "../protocol/model.ts";
import type { CatalogSource, LintNote, McpSkillOrigin } from "../protocol/catalog.ts";

export type {
  AllowedToolView,
  CatalogSource,
  McpSkillOrigin,
  McpSkillSource,
  CatalogSnapshot,
  LintNote,
  LintProfileName,
  LintRuleSet,
  NotOfferedKind,
  NotOfferedSkill,
  ReloadDiff,
  RemovedSkill,
  ShadowedSkill,
  SkillSource,
  SkillView,
  SkillWarning,
} from "../protocol/catalog.ts";

export type SkillMode = "shared" | "isolated";
export type SkillHistory = "recent" | "none" | "summary";

export interface SkillMeta {
  name: string;
  description: string;
  /**
   * Names of tools the SOP needs (the seed's `tools` key): a missing one removes the skill. Never filled
   * from `allowed-tools`, which is pre-approval (allowed-tools.ts).
   */
  tools: string[];
  mode: SkillMode;
  history: SkillHistory;
  model?: string;
  /** Unknown frontmatter keys (license, metadata, allowed-tools, compatibility, ...), kept as-is. */
  extra: Record<string, unknown>;
  /** `allowed-tools` split into entries (absent when the key is): tools pre-approved while it is active. */
  allowedTools?: string[];
  /** Claude Code's `disable-model-invocation: true` / `user-invocable: false` (absent: both invocable). */
  invocation?: { model: boolean; user: boolean };
  /** Claude Code's `when_to_use`, joined to the description in the index line. */
  whenToUse?: string;
}

/** True unless `disable-model-invocation: true`: the skill is in the index and load_skill accepts it. */
export function modelInvocable(meta: Pick<SkillMeta, "invocation">): boolean {
  return meta.invocation?.model !== false;
}

/** The description as the index carries it: Claude Code joins `when_to_use` to it. */
export function indexDescription(meta: Pick<SkillMeta, "description" | "whenToUse">): string {
  return meta.whenToUse ? `${meta.description} ${meta.whenToUse}` : meta.description;
}

/** A lint note the parser found (the catalog adds the skill's name and path). */
export type FrontmatterNote = Omit<LintNote, "skill" | "path">;

/** What the lint needs from the YAML itself, which only the parser sees. */
export interface FrontmatterFacts {
  /** 1-based file line of each top-level key. */
  keyLines: Record<string, number>;
  notes: FrontmatterNote[];
}

/** One entry of a skill's tools.json. */
export interface SkillToolSpec {
  name: string;
  description: string;
  input_schema: JsonSchema;
  command: string[];
  timeout_ms?: number;
}

export interface Skill {
  meta: SkillMeta;
  body: string;
  /** Absolute path of SKILL.md (or the loose *.md file); for an MCP skill, the URI of its SKILL.md. */
  entryPath: string;
  /** Absolute path of the skill folder (the folder holding a loose *.md file); "" for an MCP skill. */
  rootDir: string;
  source: CatalogSource;
  /** Set for a skill an MCP server serves: its body is a placeholder until it is loaded (fetched then, never before). */
  mcp?: McpSkillOrigin;
  /** Set for a skill a plugin installed (`.PseudoClaude/plugins/<name>/skills/<skill>`). */
  plugin?: SkillPlugin;
  tools: SkillToolSpec[];
  /** Key lines and parser notes for the lint (absent for a skill built by hand in a test). */
  frontmatter?: FrontmatterFacts;
}

/** The plugin a skill came with: its name, its folder (`${CLAUDE_PLUGIN_ROOT}`) and data folder. */
export interface SkillPlugin {
  name: string;
  root: string;
  dataDir: string;
}

export interface PromptItem {
  name: string;
  description: string;
}

export interface CatalogLayers {
  builtin: string;
  user: string;
  project: string;
}
