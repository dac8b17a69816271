// The allow rules a session's loaded skills give through `allowed-tools`, for the permission engine's
// scoped allows (server/permission/scoped-allows.ts). Only while a skill is active, only when the session
// honours allowed-tools, and a project skill's only once the workdir is trusted (its allowed-tools is the
// workdir granting itself permissions). A skill an MCP server serves gives none unless the person granted
// its allowed-tools for that very content (SEP-2640: a remote server asking for wider permissions is a
// request, never a grant); the grant is bound to its URI and file set, so a changed skill loses it.
// Entries with no equivalent here give no rule.
import { skillAllowRule, type ScopedAllowRule } from "../permission/scoped-allows.ts";
import { mapAllowedTools } from "../skills/allowed-tools.ts";
import { mcpSkillConsent } from "../skills/load-skill-tool.ts";
import type { CatalogSource, Skill } from "../skills/types.ts";

export interface SkillAllowsInput {
  honour: boolean;
  /** Whether the workdir is trusted (its project skills' allowed-tools count only then). */
  trusted: boolean;
  active: readonly { name: string; source: CatalogSource }[];
  catalog: { get(name: string): Skill | undefined };
  /** MCP skills whose allowed-tools the person granted: their consent keys (source, URI, file set). */
  mcpGrants?: readonly string[];
}

/** The rules, in activation order (an entry that cannot become a rule gives none). */
export function skillAllowRules(input: SkillAllowsInput): ScopedAllowRule[] {
  if (!input.honour) return [];
  const rules: ScopedAllowRule[] = [];
  for (const active of input.active) {
    if (active.source === "project" && !input.trusted) continue;
    const skill = input.catalog.get(active.name);
    if (!skill || skill.source !== active.source || !skill.meta.allowedTools) continue;
    if (skill.mcp && !(input.mcpGrants ?? []).includes(mcpSkillConsent(skill)!.key)) continue;
    const mapped = mapAllowedTools(skill.meta.allowedTools, new Set(skill.tools.map((tool) => tool.name)));
    for (const entry of mapped) {
      if (!entry.rule) continue;
      const rule = skillAllowRule(skill.meta.name, entry.entry, entry.rule);
      if (typeof rule !== "string") rules.push(rule);
    }
  }
  return rules;
}

/** skillAllowRules, rebuilt only when what it depends on changed (it is asked at every tool call). */
export function cachedSkillAllowRules(): (input: SkillAllowsInput) => ScopedAllowRule[] {
  let lastKey = "";
  let last: ScopedAllowRule[] = [];
  return (input) => {
    const key = JSON.stringify([
      input.honour,
      input.trusted,
      input.mcpGrants,
      input.active.map((entry) => {
        const skill = input.catalog.get(entry.name);
        return [
          entry.name,
          entry.source,
          skill?.source,
          skill?.mcp?.contentKey,
          skill?.meta.allowedTools,
          skill?.tools.map((tool) => tool.name),
        ];
      }),
    ]);
    if (key !== lastKey) {
      lastKey = key;
      last = skillAllowRules(input);
    }
    return last;
  };
}
