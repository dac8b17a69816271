import { PatternError } from "../protocol/linear-regex.ts";
import { escapeGlob, globToRegExp } from "../tools/glob.ts";
import type { ToolCategory } from "../protocol/model.ts";

export type RuleEffect = "allow" | "ask" | "deny";

/**
 * A permission rule: `<tool>` or `<tool>(<pattern>)`. The pattern applies to the call's command (exec
 * tools: `run_command(git status*)`, `*` spans anything) or path (file tools: `write_file(src/**)`, `*`
 * stays in one folder). Claude Code's prefix form `run_command(git status:*)` is accepted too. Patterns
 * are globs in picomatch's syntax, run in linear time (../tools/glob.ts says where they part from it).
 */
export interface PermissionRule {
  effect: RuleEffect;
  tool: string;
  pattern?: string;
  /** The rule as written, e.g. `deny run_command(rm *)`, for traces. */
  text: string;
  /** Where it came from: a settings file path, or "session". */
  origin: string;
}

export interface CompiledRule extends PermissionRule {
  matchesTool(toolName: string): boolean;
  /** Tests the pattern; a rule without pattern matches any target of its tool. */
  matchesTarget(target: string | undefined, category: ToolCategory): boolean;
}

const RULE_SYNTAX = /^\s*([A-Za-z0-9_*.-]+)\s*(?:\((.*)\))?\s*$/s;

/** Parses `tool` or `tool(pattern)`; returns a description of the problem for anything else. */
export function parseRule(effect: RuleEffect, text: string, origin: string): CompiledRule | string {
  if (typeof text !== "string") return `rule ${JSON.stringify(text)} is not a string`;
  const match = RULE_SYNTAX.exec(text);
  if (!match) return `rule "${text}" is not of the form tool or tool(pattern)`;
  const tool = match[1]!;
  const pattern = match[2]?.trim();
  if (pattern !== undefined && pattern.length === 0)
    return `rule "${text}" has an empty pattern; write ${tool} for every call`;
  try {
    return compile({
      effect,
      tool,
      ...(pattern !== undefined ? { pattern } : {}),
      text: `${effect} ${text.trim()}`,
      origin,
    });
  } catch (error) {
    // A glob whose brackets make no expression (`[z-a]`): a problem with the file, like any other.
    if (error instanceof PatternError) return `rule "${text}": its pattern cannot be used (${error.reason})`;
    throw error;
  }
}

/** A rule that matches exactly one command or path (what "allow for this session" remembers). */
export function exactRule(
  effect: RuleEffect,
  tool: string,
  target: string | undefined,
  origin: string,
): CompiledRule {
  const pattern = target === undefined ? undefined : escapeGlob(target);
  return compile({
    effect,
    tool,
    ...(pattern !== undefined ? { pattern } : {}),
    text: target === undefined ? `${effect} ${tool}` : `${effect} ${tool}(${target})`,
    origin,
  });
}

function compile(rule: PermissionRule): CompiledRule {
  const toolMatcher = rule.tool.includes("*")
    ? globToRegExp(rule.tool, { separatorAware: false })
    : undefined;
  const commandPattern = rule.pattern?.endsWith(":*") ? `${rule.pattern.slice(0, -2)}*` : rule.pattern;
  const commandMatcher =
    commandPattern !== undefined ? globToRegExp(commandPattern, { separatorAware: false }) : undefined;
  const pathMatcher =
    rule.pattern !== undefined
      ? globToRegExp(stripDotSlash(rule.pattern), { separatorAware: true })
      : undefined;
  return {
    ...rule,
    matchesTool: (toolName) => (toolMatcher ? toolMatcher.test(toolName) : toolName === rule.tool),
    matchesTarget(target, category) {
      if (rule.pattern === undefined) return true;
      if (target === undefined) return false;
      if (category === "exec") return commandMatcher!.test(target.trim());
      return pathMatcher!.test(stripDotSlash(target));
    },
  };
}

function stripDotSlash(text: string): string {
  return text.replace(/^\.\//, "");
}
