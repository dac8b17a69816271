import type { JsonSchema } from "./model.ts";

/** A skills layer on disk. */
export type SkillSource = "builtin" | "user" | "project";

/** Skills an MCP server serves (SEP-2640), labelled with the host's name for the server: `mcp:docs`. */
export type McpSkillSource = `mcp:${string}`;

/** Where a catalog entry comes from: a layer on disk, or an MCP server. */
export type CatalogSource = SkillSource | McpSkillSource;

/** True for a skill an MCP server serves. */
export function isMcpSource(source: string): source is McpSkillSource {
  return source.startsWith("mcp:");
}

export interface SkillWarning {
  source: CatalogSource;
  path: string;
  skill?: string;
  line?: number;
  column?: number;
  reason: string;
}

/** A disk skill another layer's skill of the same name replaces (MCP skills never shadow: they are qualified). */
export interface ShadowedSkill {
  name: string;
  winner: { source: CatalogSource; path: string };
  loser: { source: CatalogSource; path: string };
}

export interface RemovedSkill {
  name: string;
  source: CatalogSource;
  path: string;
  missing: string[];
  /** Why each missing tool is missing, in the order of `missing`, when known ("server srv not connected"). */
  reasons?: string[];
}

/**
 * The lint profiles a catalog can enforce (issue 21 item 6). `lenient` (the default) warns and loads;
 * `agent-skills` and `claude-code` refuse a skill that breaks one of their own error rules.
 */
export type LintProfileName = "lenient" | "agent-skills" | "claude-code";

/** The rule set a note comes from: a client's published rules, or the playground's own advice. */
export type LintRuleSet = "agent-skills" | "claude-code" | "playground";

export interface LintNote {
  skill: string;
  path: string;
  /** 1-based line of `path` the note is about, when it is about one. */
  line?: number;
  rule: string;
  message: string;
  /** Whose rule it is (absent in catalogs logged before there were profiles). */
  profile?: LintRuleSet;
  /** "error": a profile that enforces this rule set refuses the skill; "warning": advice only. */
  level?: "error" | "warning";
}

/** One `allowed-tools` entry and what it is in this playground (pre-approval, never a dependency). */
export interface AllowedToolView {
  /** As written in the frontmatter, e.g. `Bash(git:*)`. */
  entry: string;
  /** This playground's tool it stands for; absent: no equivalent here. */
  tool?: string;
  /** The allow rule it becomes while the skill is active and "honour allowed-tools" is on. */
  rule?: string;
  /** How it was mapped, or why it has no equivalent. */
  note: string;
}

/** Why a skill found on disk is not offered to the model. */
export type NotOfferedKind = "unreadable" | "removed" | "disabled" | "shadowed" | "budget" | "refused";

/** One skill found on disk but not in the model's skills index, with one sentence saying why. */
export interface NotOfferedSkill {
  name: string;
  kind: NotOfferedKind;
  source: CatalogSource;
  path: string;
  /** One sentence for the page and the CLI. */
  reason: string;
}

export interface ReloadDiff {
  added: string[];
  removed: string[];
  updated: string[];
}

/**
 * A skill an MCP server serves, as the catalog holds it: the server (the host's label for it, never the
 * server's own name), the URI of its SKILL.md, and the entry's file set (absent: `"dynamic"`, the server
 * generates the files and nothing can be verified).
 */
export interface McpSkillOrigin {
  server: string;
  uri: string;
  /** The name as the server lists it (the catalog's name is `<server>/<name>` on a collision). */
  listedName: string;
  /** The entry's files: path relative to the skill, digest, size in bytes. Absent for a dynamic skill. */
  files?: { path: string; digest: string; size: number }[];
  /** Why the name was qualified (`<server>/<name>`): the other skill of that name. */
  qualifiedBecause?: string;
  /** sha256 of the entry's (uri, digest) pairs: what an approval to load it is bound to. */
  contentKey: string;
}

/** One skill as the browser and `cli catalog` see it. */
export interface SkillView {
  name: string;
  description: string;
  /** `builtin`, `user`, `project`, or `mcp:<server>` for a skill an MCP server serves. */
  source: CatalogSource;
  /** Set for a skill an MCP server serves (its body and files are fetched when it is loaded). */
  mcp?: McpSkillOrigin;
  /** The plugin that installed it (`.PseudoClaude/plugins/<plugin>/skills/…`): listed and removed together. */
  plugin?: string;
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
  /** `allowed-tools` mapped onto this playground's tools (absent in catalogs logged before issue 21). */
  allowedTools?: AllowedToolView[];
  /**
   * Claude Code's invocation keys: `model` false for `disable-model-invocation: true` (not in the index,
   * load_skill refuses it; `/name` still works), `user` false for `user-invocable: false` (not in the
   * slash menu).
   */
  invocation?: { model: boolean; user: boolean };
  /** Claude Code's `when_to_use`, joined to the description in the index line. */
  whenToUse?: string;
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
  /** Every skill found on disk but not offered to the model, one sentence each (absent in older logs). */
  notOffered?: NotOfferedSkill[];
  /** The lint profile the catalog enforces (absent in older logs: lenient). */
  profile?: LintProfileName;
}
