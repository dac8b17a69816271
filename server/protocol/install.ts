// Installing a skill (`cli install`, the catalog's "Add skill"): what an install would do, shown before it
// is done, and why an archive was refused.
import type { SkillSource } from "./catalog.ts";

export type InstallLayer = "user" | "project";

export interface InstallPlan {
  /** The skill's name (from its SKILL.md); the folder it is installed as. */
  name: string;
  description: string;
  layer: InstallLayer;
  /** The folder the skill will occupy: `<layer folder>/<name>`. */
  targetDir: string;
  files: number;
  /** Uncompressed bytes of all its files. */
  bytes: number;
  /** Names of its tools.json tools. */
  toolNames: string[];
  /** Same-name skills of the target layer that the install removes (only with force). */
  replaces: { path: string }[];
  /** Same-name skills of lower layers that the new one will hide. */
  shadows: { source: SkillSource; path: string }[];
  /** Same-name skills of a higher layer that will still win over the new one. */
  shadowedBy: { source: SkillSource; path: string }[];
  /** Whether the install needs force (it replaces a skill). */
  needsForce: boolean;
  /**
   * Set when the source is a plugin bundle (Agent Plugins 1.0 or a Claude Code plugin): installed as one
   * unit at `targetDir`, its skills listed with it, its MCP servers added to the layer's settings.
   */
  plugin?: PluginPlan;
}

export interface PluginPlan {
  format: "agent-plugins" | "claude-code";
  version?: string;
  /** `${PLUGIN_DATA}`: kept across updates and removal. */
  dataDir: string;
  /** The skills it installs (its skills/ folders that passed the checks). */
  skills: string[];
  /** The servers it adds to `settingsFile`, each as `<plugin>-<server>`, and what each starts. */
  mcpServers: { name: string; target: string }[];
  settingsFile: string;
  /** Components left out (one broken component is a warning, never a failed install) and fields ignored. */
  warnings: string[];
}

export interface InstallRefusal {
  /** The archive entry, file or source that broke a rule. */
  entry: string;
  rule: string;
  /** One line: `refused: "<entry>": <rule>`. */
  message: string;
}

export type InstallOutcome =
  | { ok: true; plan: InstallPlan; installed: boolean; replaced: string[] }
  | { ok: false; refusal: InstallRefusal; plan?: InstallPlan };
