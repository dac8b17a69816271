import type { JsonSchema } from "./model.ts";

export type SkillSource = "builtin" | "user" | "project";

export interface SkillWarning {
  source: SkillSource;
  path: string;
  skill?: string;
  line?: number;
  column?: number;
  reason: string;
}

export interface ShadowedSkill {
  name: string;
  winner: { source: SkillSource; path: string };
  loser: { source: SkillSource; path: string };
}

export interface RemovedSkill {
  name: string;
  source: SkillSource;
  path: string;
  missing: string[];
  /** Why each missing tool is missing, in the order of `missing`, when known ("server srv not connected"). */
  reasons?: string[];
}

export interface LintNote {
  skill: string;
  path: string;
  /** 1-based line of `path` the note is about, when it is about one. */
  line?: number;
  rule: string;
  message: string;
}

export interface ReloadDiff {
  added: string[];
  removed: string[];
  updated: string[];
}

/** One skill as the browser and `cli catalog` see it. */
export interface SkillView {
  name: string;
  description: string;
  source: SkillSource;
  entryPath: string;
  rootDir: string;
  /** Names of the tools.json tools. */
  toolNames: string[];
  toolSpecs: {
    name: string;
    description: string;
    input_schema: JsonSchema;
    command: string[];
    timeout_ms?: number;
  }[];
  meta: {
    tools: string[];
    mode: "shared" | "isolated";
    history: "recent" | "none" | "summary";
    model?: string;
    extra: Record<string, unknown>;
  };
  body: string;
  /** The raw SKILL.md text, for the detail view. */
  raw?: string;
}

/**
 * What one skill costs, counted on the server as the requests' segments are: its index line (in every
 * request while it is listed) and the environment section loading it adds (without arguments; its
 * arguments add their own). The answer to `skill_figures`.
 */
export interface SkillFigures {
  name: string;
  /** Tokens of its line in the skills index; absent when it is not listed (eager mode, a budget). */
  indexTokens?: number;
  /** Tokens of its environment section once loaded: its SOP, base directory and file list. */
  loadTokens?: number;
  /** Why it could not be loaded (the load_skill result). */
  loadError?: string;
  tokenizer: string;
}

export interface CatalogSnapshot {
  skills: SkillView[];
  warnings: SkillWarning[];
  removed: RemovedSkill[];
  shadowed: ShadowedSkill[];
  lint: LintNote[];
}
