import type { JsonSchema } from "../protocol/model.ts";
import type { SkillSource } from "../protocol/catalog.ts";

export type {
  CatalogSnapshot,
  LintNote,
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
  /** Names of tools the SOP needs (from `tools`, or `allowed-tools` when `tools` is absent). */
  tools: string[];
  mode: SkillMode;
  history: SkillHistory;
  model?: string;
  /** Unknown frontmatter keys (license, metadata, allowed-tools, compatibility, ...), kept as-is. */
  extra: Record<string, unknown>;
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
  /** Absolute path of SKILL.md (or the loose *.md file). */
  entryPath: string;
  /** Absolute path of the skill folder (the folder holding a loose *.md file). */
  rootDir: string;
  source: SkillSource;
  tools: SkillToolSpec[];
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
