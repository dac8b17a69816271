import path from "node:path";
import type { PermissionMode, ToolCategory } from "../protocol/model.ts";
import type { PermissionDecisionKind, PermissionSource, PermissionTrace } from "../protocol/permission.ts";
import type { SandboxState } from "../protocol/sandbox.ts";
import { isInside, protectedAreaOf } from "../tools/confine.ts";
import { findDangerous } from "./dangerous.ts";
import { exactRule, type CompiledRule } from "./rules.ts";
import { splitShellCommand, type ShellAnalysis } from "./shell-split.ts";
import type { PermissionCheck } from "./types.ts";

/**
 * Decides allow / ask / deny for one tool call. Pure: no file system, no clock; rules and mode are given.
 *
 * Order, first match wins:
 *  1. the path was refused by workdir confinement            → deny  (protected_path)
 *  2. the dangerous-command list                              → deny  (list)       in every mode
 *  3. a deny rule (on the whole command or any part of it)    → deny  (rule)
 *  4. an ask rule                                             → ask   (rule)
 *  5. a write into .git/ or .PseudoClaude/                     → ask   (protected_path) in every mode
 *  6. a shell redirection outside the workdir or to `~`       → ask   (list)       in every mode
 *  7. strict mode, unless the user allowed it for this session → ask  (mode)
 *  8. allow rules / session rules; a compound command needs every part allowed → allow (rule / session)
 *  9. the mode: default reads; acceptEdits reads+writes; bypassPermissions all  → allow or ask (mode)
 */
export class PermissionEngine {
  private rules: CompiledRule[];
  private readonly sessionRules: CompiledRule[] = [];
  private currentMode: PermissionMode;
  /** The sandbox exec calls run in; when it is off, every exec call asks (absent: treated as off). */
  private sandbox: SandboxState | undefined;

  constructor(options: { mode?: PermissionMode; rules?: CompiledRule[]; sandbox?: SandboxState } = {}) {
    this.currentMode = options.mode ?? "default";
    this.rules = [...(options.rules ?? [])];
    this.sandbox = options.sandbox;
  }

  get sandboxState(): SandboxState | undefined {
    return this.sandbox;
  }

  /** A session's network setting changed (or the sandbox was probed again). */
  setSandbox(sandbox: SandboxState): void {
    this.sandbox = sandbox;
  }

  get mode(): PermissionMode {
    return this.currentMode;
  }

  setMode(mode: PermissionMode): void {
    this.currentMode = mode;
  }

  /** Replaces the rules from settings files (after a reload); session rules are kept. */
  setRules(rules: CompiledRule[]): void {
    this.rules = [...rules];
  }

  /** Rules from "allow for this session" answers, newest last. */
  sessionRuleTexts(): string[] {
    return this.sessionRules.map((rule) => rule.text);
  }

  /**
   * Remembers an "allow for this session" answer: the exact command or path of this call (a skill tool's
   * command is fixed by its tools.json, so the whole tool is allowed). Never overrides denies, the
   * dangerous list, protected paths or redirections outside the workdir.
   */
  addSessionRule(check: PermissionCheck): void {
    const target = check.tool.origin === "skill" ? undefined : (check.target.command ?? check.target.path);
    const rule = exactRule("allow", check.tool.name, target, "session");
    if (!this.sessionRules.some((existing) => existing.text === rule.text)) this.sessionRules.push(rule);
  }

  /** PermissionHook.rememberSessionAllow. */
  rememberSessionAllow(check: PermissionCheck): void {
    this.addSessionRule(check);
  }

  evaluate(check: PermissionCheck): PermissionTrace {
    const { tool, target } = check;
    const category = tool.category;
    const targetText = target.command ?? target.path;
    const trace = (
      decision: PermissionDecisionKind,
      source: PermissionSource,
      rule?: string,
      reason?: string,
    ): PermissionTrace => ({
      decision,
      source,
      ...(rule !== undefined ? { rule } : {}),
      category,
      ...(targetText !== undefined ? { target: targetText } : {}),
      ...(reason !== undefined ? { reason } : {}),
    });

    if (target.refusal) return trace("deny", "protected_path", "workdir confinement", target.refusal);

    // Skill tools run an argv from tools.json, not a shell line: their command is one part, never split.
    const isShell = category === "exec" && tool.origin !== "skill" && target.command !== undefined;
    const analysis = isShell ? splitShellCommand(target.command!) : undefined;
    const parts = analysis ? analysis.commands.map((command) => command.text) : [];

    if (category === "exec" && target.command !== undefined) {
      // A skill's argv is read like a shell line here only to spot the dangerous list (`sh -c "rm -rf /"`).
      const dangerous = findDangerous(target.command, analysis ?? splitShellCommand(target.command));
      if (dangerous) return trace("deny", "list", dangerous.entry, dangerous.reason);
    }

    const applicable = this.rules.filter((rule) => rule.matchesTool(tool.name));
    const matchesAnywhere = (rule: CompiledRule): boolean =>
      rule.matchesTarget(targetText, category) || parts.some((part) => rule.matchesTarget(part, category));
    const deny = applicable.find((rule) => rule.effect === "deny" && matchesAnywhere(rule));
    if (deny) return trace("deny", "rule", deny.text, `matched ${describeOrigin(deny)}`);
    const ask = applicable.find((rule) => rule.effect === "ask" && matchesAnywhere(rule));
    if (ask) return trace("ask", "rule", ask.text, `matched ${describeOrigin(ask)}`);

    const protectedArea = protectedTarget(check, analysis);
    if (protectedArea) {
      return trace(
        "ask",
        "protected_path",
        protectedArea,
        `writes into ${protectedArea}/ always ask, whatever the mode`,
      );
    }
    if (analysis) {
      const escaping = analysis.redirects.find(
        (redirect) =>
          redirect.isOutput && !redirect.isDescriptor && redirectLeavesWorkdir(redirect.target, target.cwd),
      );
      if (escaping) {
        return trace(
          "ask",
          "list",
          "redirect outside the working directory",
          `the command writes to ${escaping.target}, outside the working directory`,
        );
      }
    }

    const sessionAllow = this.findAllow(this.sessionRules, tool.name, category, targetText, analysis);
    if (sessionAllow) return trace("allow", "session", sessionAllow, "allowed for this session");
    if (this.currentMode === "strict")
      return trace("ask", "mode", "strict", "strict mode asks before every tool call");

    const ruleAllow = this.findAllow(
      applicable.filter((rule) => rule.effect === "allow"),
      tool.name,
      category,
      targetText,
      analysis,
    );
    if (ruleAllow) return trace("allow", "rule", ruleAllow);
    const byMode = modeDecision(this.currentMode, category);
    return trace(
      byMode,
      "mode",
      this.currentMode,
      modeReason(this.currentMode, category, byMode, parts.length),
    );
  }

  /** The text of the allow rule(s) covering the call, or undefined. A compound command needs every part covered. */
  private findAllow(
    rules: CompiledRule[],
    toolName: string,
    category: ToolCategory,
    targetText: string | undefined,
    analysis: ShellAnalysis | undefined,
  ): string | undefined {
    const candidates = rules.filter((rule) => rule.effect === "allow" && rule.matchesTool(toolName));
    if (candidates.length === 0) return undefined;
    const simple =
      !analysis || (analysis.commands.length <= 1 && !analysis.hasSubstitution && !analysis.problem);
    if (simple) {
      const part = analysis?.commands[0]?.text ?? targetText;
      return candidates.find(
        (rule) => rule.matchesTarget(part, category) || rule.matchesTarget(targetText, category),
      )?.text;
    }
    // An exact session rule for this very compound command was approved as a whole by the user.
    const exact = candidates.find(
      (rule) =>
        rule.origin === "session" && rule.pattern !== undefined && rule.matchesTarget(targetText, category),
    );
    if (exact) return exact.text;
    if (analysis.problem || analysis.commands.length === 0) return undefined;
    const used = new Set<string>();
    for (const command of analysis.commands) {
      const covering = candidates.find((rule) => rule.matchesTarget(command.text, category));
      if (!covering) return undefined;
      used.add(covering.text);
    }
    return [...used].join(", ");
  }
}

function modeDecision(mode: PermissionMode, category: ToolCategory): PermissionDecisionKind {
  switch (mode) {
    case "strict":
      return "ask";
    case "default":
      return category === "read" ? "allow" : "ask";
    case "acceptEdits":
      return category === "exec" ? "ask" : "allow";
    case "bypassPermissions":
      return "allow";
  }
}

function modeReason(
  mode: PermissionMode,
  category: ToolCategory,
  decision: PermissionDecisionKind,
  parts: number,
): string {
  const verb = decision === "allow" ? "allows" : "asks for";
  const compound =
    decision === "ask" && parts > 1
      ? ` (a compound command of ${parts} parts is allowed only when every part is)`
      : "";
  return `${mode} mode ${verb} ${category} tools${compound}`;
}

function describeOrigin(rule: CompiledRule): string {
  return rule.origin === "session" ? "a rule of this session" : `a rule in ${rule.origin}`;
}

/** The protected area a write (or a shell redirection) touches, if any. */
function protectedTarget(check: PermissionCheck, analysis: ShellAnalysis | undefined): string | undefined {
  const { tool, target } = check;
  if (tool.category === "write") {
    if (target.protectedArea) return target.protectedArea;
    if (target.path !== undefined) return protectedAreaOf(target.path);
  }
  if (analysis) {
    for (const redirect of analysis.redirects) {
      if (!redirect.isOutput || redirect.isDescriptor) continue;
      const area = protectedAreaOf(redirect.target);
      if (area) return area;
    }
  }
  return undefined;
}

/** Devices that are safe redirection targets although they live outside the workdir. */
const HARMLESS_TARGETS = new Set(["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"]);

/**
 * Lexical check (the engine is pure): `~`, variables and substitutions count as outside because their
 * value is unknown here; absolute paths and `..` are resolved against the cwd.
 */
function redirectLeavesWorkdir(redirectTarget: string, cwd: string): boolean {
  if (HARMLESS_TARGETS.has(redirectTarget)) return false;
  if (redirectTarget.startsWith("~") || /[$`]/.test(redirectTarget)) return true;
  return !isInside(cwd, path.resolve(cwd, redirectTarget));
}
