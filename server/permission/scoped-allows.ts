// Allow rules scoped to something a session holds, not written in a settings file: a loaded skill's
// `allowed-tools` (issue 21 item 1). They exist only while the skill is active and only when the session
// setting "honour allowed-tools" is on (off by default), and a project skill's only once its folder is
// trusted — a project skill's allowed-tools is the workdir granting itself permissions, which is what
// folder trust is for (server/permission/trust.ts). The engine ranks them with the allow rules (step 12).
import { parseRule, type CompiledRule } from "./rules.ts";

/** An allow rule that comes from a loaded skill's allowed-tools. */
export interface ScopedAllowRule extends CompiledRule {
  /** The skill whose allowed-tools gives it. */
  skill: string;
  /** The allowed-tools entry as written (`Bash(git:*)`). */
  entry: string;
}

/**
 * The allow rule for one mapped allowed-tools entry (`rule` in this playground's syntax, e.g.
 * `run_command(git:*)`), or the reason it cannot be one.
 */
export function skillAllowRule(skill: string, entry: string, rule: string): ScopedAllowRule | string {
  const compiled = parseRule("allow", rule, `allowed-tools of skill "${skill}"`);
  if (typeof compiled === "string") return compiled;
  return Object.assign(compiled, { skill, entry });
}

function isScoped(rule: CompiledRule): rule is ScopedAllowRule {
  return typeof (rule as Partial<ScopedAllowRule>).skill === "string";
}

/** The skills whose allowed-tools took part in an allow. */
export function preApprovers(rules: readonly CompiledRule[]): string[] {
  return [...new Set(rules.filter(isScoped).map((rule) => rule.skill))];
}

/** The trace's reason for an allow that a skill's allowed-tools took part in. */
export function describePreApproval(rules: readonly CompiledRule[]): string | undefined {
  const scoped = rules.filter(isScoped);
  if (scoped.length === 0) return undefined;
  const parts = scoped.map((rule) => `skill "${rule.skill}" (allowed-tools: ${rule.entry})`);
  return `pre-approved by ${[...new Set(parts)].join(" and ")} while it is active; "honour allowed-tools" is on`;
}
