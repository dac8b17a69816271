import { homedir } from "node:os";
import type { PermissionMode, ToolCategory } from "../protocol/model.ts";
import type { PermissionDecisionKind, PermissionSource, PermissionTrace } from "../protocol/permission.ts";
import type { SandboxState } from "../protocol/sandbox.ts";
import { configuredAreaAt, protectedAreaOf } from "../tools/confine.ts";
import { protectedAreaReason } from "../tools/protected-paths.ts";
import { findDangerous } from "./dangerous.ts";
import { findHiddenCharacters } from "../shared/hidden-characters.ts";
import { exactRule, type CompiledRule } from "./rules.ts";
import { analyzeShell, type ParserFinding, type ShellAnalysis } from "./shell-parse.ts";
import { environmentEffect } from "./environment-table.ts";
import { findWriteConcerns, riskyEffects, type RiskyEffect } from "./shell-writes.ts";
import { describePreApproval, preApprovers, type ScopedAllowRule } from "./scoped-allows.ts";
import type { PermissionCheck } from "./types.ts";

/**
 * Decides allow / ask / deny for one tool call. Pure: no file system, no clock; rules and mode are given.
 * A shell line is read by a real parser (shell-parse.ts) into simple commands with their resolved program.
 *
 * Order, first match wins:
 *  1. the path was refused by workdir confinement                   → deny (protected_path)
 *  2. the dangerous-command list, on the parsed line                 → deny (list)     in every mode
 *  3. a deny rule (the whole line or any simple command in it)       → deny (rule)
 *  4. exec call while the sandbox is off                             → ask  (sandbox)  whatever mode and rules
 *  5. an ask rule                                                    → ask  (rule)
 *  6. the line does not parse (or is too large to)                   → ask  (parser)   in every mode
 *  7. deny/ask rules exist but a program is unknown (`$X`, `eval $Y`) → ask  (parser)   in every mode
 *  8. a protected write (tools/protected-paths.ts: .git, .PseudoClaude, .mcp.json, a git repository's
 *     files; by a file tool, a redirection, a program like cp/mv/tee/sed -i/rm, or an option that
 *     writes — sort -o, git log --output, sed w — after the line's `cd`s) → ask (protected_path) in every mode
 *  9. such a write outside the workdir, to `~`, or to a target whose
 *     value is unknown before the line runs                          → ask  (list)     in every mode
 * 10. hidden (control, bidi, zero-width) characters in the target,
 *     or anywhere in an MCP tool's input, or a skill tool's stdin   → ask  (parser)   in every mode
 * 11. session rules; strict mode asks before them unless one matches → allow (session) / ask (mode);
 *     a call that needs consent (target.consent: loading an MCP server's skill) asks here in every mode
 *     unless the session approved that key                           → ask (list)
 * 12. allow rules, then the session's scoped allow rules (a loaded skill's allowed-tools, when the session
 *     honours them: scoped-allows.ts); a compound line needs every simple command allowed → allow (rule)
 * 13. the mode: default reads; acceptEdits reads+writes; bypassPermissions all → allow or ask (mode);
 *     an ask that a parser finding caused (substitution, eval, sh -c, here-doc expansion, …) says so (parser)
 * Steps 11 and 12 never allow a line with a parser finding, an environment assignment (`X=1 cmd`), or
 * an option that runs programs or writes files (`git -c`, `awk 'BEGIN{system(…)}'`, `find -fprint`; the
 * rows of option-table.ts); where the mode asks, the question names that option and what it can do (list).
 */
export class PermissionEngine {
  private rules: CompiledRule[];
  private readonly sessionRules: CompiledRule[] = [];
  /** Read at every call: allow rules that hold while something of the session lasts (scoped-allows.ts). */
  private scopedAllows: () => readonly ScopedAllowRule[] = () => [];
  private currentMode: PermissionMode;
  /** The sandbox exec calls run in; when it is off, every exec call asks (absent: treated as off). */
  private sandbox: SandboxState | undefined;

  /** Home folders the dangerous list keeps from a recursive delete (the real home is always one). */
  private readonly homes: string[];

  constructor(
    options: { mode?: PermissionMode; rules?: CompiledRule[]; sandbox?: SandboxState; homes?: string[] } = {},
  ) {
    this.currentMode = options.mode ?? "default";
    this.rules = [...(options.rules ?? [])];
    this.sandbox = options.sandbox;
    this.homes = [...new Set([homedir(), ...(options.homes ?? [])])];
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

  /**
   * Allow rules scoped to the session's state (a loaded skill's allowed-tools), asked for at each call.
   * They rank with the allow rules (step 12): never over a deny, the dangerous list, a protected path, a
   * write outside the workdir, a parser finding, a sandbox that is off, or strict mode.
   */
  setScopedAllows(source: () => readonly ScopedAllowRule[]): void {
    this.scopedAllows = source;
  }

  /** Rules from "allow for this session" answers, newest last. */
  sessionRuleTexts(): string[] {
    return this.sessionRules.map((rule) => rule.text);
  }

  /**
   * Remembers an "allow for this session" answer: the exact command or path of this call (a skill tool's
   * command is fixed by its tools.json, so the whole tool is allowed). Never overrides denies, the
   * dangerous list, protected paths, writes outside the workdir, parser findings or a sandbox that is off.
   */
  addSessionRule(check: PermissionCheck): void {
    const target =
      check.tool.origin === "skill"
        ? undefined
        : (check.target.command ?? check.target.path ?? check.target.consent?.key);
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
    const targetText = target.command ?? target.path ?? target.consent?.key;
    const isExec = category === "exec";
    const hidden = hiddenIn(check);
    const sandbox = isExec ? (this.sandbox ?? SANDBOX_NOT_GIVEN) : undefined;
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
      ...(sandbox !== undefined ? { sandbox } : {}),
      ...(target.skillResource !== undefined
        ? { resource: `skill resource of ${target.skillResource}` }
        : {}),
      ...(hidden.length > 0 ? { hiddenCharacters: hidden } : {}),
    });

    if (target.refusal) return trace("deny", "protected_path", "workdir confinement", target.refusal);

    // A skill's argv (from tools.json) is not a shell line; it is parsed only to spot the dangerous list
    // (`sh -c "rm -rf /"`), and rules match it as a whole.
    const parsed = isExec && target.command !== undefined ? analyzeShell(target.command) : undefined;
    const shell = tool.origin !== "skill" ? parsed : undefined;
    if (parsed) {
      const dangerous = findDangerous(parsed, target.cwd, this.homes);
      if (dangerous) return trace("deny", "list", dangerous.entry, dangerous.reason);
    }

    const applicable = this.rules.filter((rule) => rule.matchesTool(tool.name));
    const texts = [targetText, ...(shell ? ruleTexts(shell) : [])];
    const matchesAnywhere = (rule: CompiledRule): boolean =>
      texts.some((text) => rule.matchesTarget(text, category));
    const deny = applicable.find((rule) => rule.effect === "deny" && matchesAnywhere(rule));
    if (deny) return trace("deny", "rule", deny.text, `matched ${describeOrigin(deny)}`);

    if (sandbox && !sandbox.enabled) {
      return trace(
        "ask",
        "sandbox",
        "sandbox off",
        `sandbox off: ${sandbox.reason ?? "unavailable"}; every command asks, whatever the mode and rules`,
      );
    }

    const ask = applicable.find((rule) => rule.effect === "ask" && matchesAnywhere(rule));
    if (ask) return trace("ask", "rule", ask.text, `matched ${describeOrigin(ask)}`);

    if (shell?.parseError) {
      return trace(
        "ask",
        "parser",
        "parse error",
        `the command could not be fully parsed (${shell.parseError}); it asks in every mode`,
      );
    }
    if (shell) {
      const guarded = applicable.find(
        (rule) => (rule.effect === "deny" || rule.effect === "ask") && rule.pattern !== undefined,
      );
      const unknown = guarded ? unknownProgram(shell) : undefined;
      if (guarded && unknown) {
        return trace(
          "ask",
          "parser",
          "unknown program",
          `cannot tell whether \`${guarded.text}\` applies: ${unknown}`,
        );
      }
    }

    const protectedArea = protectedFileTarget(check);
    if (protectedArea) {
      return trace("ask", "protected_path", protectedArea, protectedAreaReason(protectedArea));
    }
    if (shell) {
      const [concern] = findWriteConcerns(shell, target.cwd, target.cwd);
      if (concern?.kind === "protected") {
        return trace(
          "ask",
          "protected_path",
          concern.area,
          `\`${concern.by}\` writes to ${concern.target}: ${protectedAreaReason(concern.area ?? "")}`,
        );
      }
      if (concern) {
        return trace(
          "ask",
          "list",
          concern.via === "redirect"
            ? "redirect outside the working directory"
            : "write outside the working directory",
          `\`${concern.by}\` writes to ${concern.target}, outside the working directory (${concern.why})`,
        );
      }
    }

    if (hidden.length > 0) {
      return trace(
        "ask",
        "parser",
        "hidden characters",
        `the ${target.command !== undefined ? "command" : target.path !== undefined ? "path" : "input"} contains characters that do not show ` +
          `(${hidden.join(" ")}); they are shown escaped, and a rule never allows such a call`,
      );
    }

    // Options that run programs or write files (option-table.ts) are never allowed by a rule.
    const risky = shell ? riskyEffects(shell, target.cwd, target.cwd) : [];
    const blockers = [...risky.map(describeRisky), ...(shell ? allowBlockers(shell) : [])];
    if (blockers.length === 0) {
      const sessionAllow = this.findAllow(this.sessionRules, tool.name, category, targetText, shell);
      if (sessionAllow)
        return trace("allow", "session", ruleTextList(sessionAllow), "allowed for this session");
    }
    // A call that needs consent by its nature (loading an MCP server's skill) asks in every mode, bypass
    // included, until the person approved that very key (its URI and file set) in this session.
    if (target.consent)
      return trace("ask", "list", "consent: skill from an MCP server", target.consent.reason);
    if (this.currentMode === "strict")
      return trace("ask", "mode", "strict", "strict mode asks before every tool call");

    if (blockers.length === 0) {
      const allows = applicable.filter((rule) => rule.effect === "allow");
      const ruleAllow = this.findAllow(allows, tool.name, category, targetText, shell);
      if (ruleAllow) return trace("allow", "rule", ruleTextList(ruleAllow));
      const scoped = this.scopedAllows();
      const withScoped =
        scoped.length > 0
          ? this.findAllow([...allows, ...scoped], tool.name, category, targetText, shell)
          : undefined;
      if (withScoped) {
        const skills = preApprovers(withScoped);
        return {
          ...trace("allow", "rule", ruleTextList(withScoped), describePreApproval(withScoped)),
          ...(skills.length > 0 ? { preApprovedBy: skills } : {}),
        };
      }
    }
    const byMode = modeDecision(this.currentMode, category);
    if (byMode === "ask" && risky.length > 0) {
      const runs = risky.some(({ effect }) => effect.row.effect === "runs");
      return trace(
        "ask",
        "list",
        runs ? "option that runs programs" : "option that writes files",
        `${summarize(blockers)}: a rule never allows an option that runs programs or writes files`,
      );
    }
    if (byMode === "ask" && blockers.length > 0) {
      return trace(
        "ask",
        "parser",
        "not fully understood",
        `${summarize(blockers)}: a rule allows only a command the parser fully understands`,
      );
    }
    const parts = shell?.commands.length ?? 0;
    return trace(byMode, "mode", this.currentMode, modeReason(this.currentMode, category, byMode, parts));
  }

  /** The allow rule(s) covering the call, or undefined. A compound command needs every part covered. */
  private findAllow(
    rules: readonly CompiledRule[],
    toolName: string,
    category: ToolCategory,
    targetText: string | undefined,
    shell: ShellAnalysis | undefined,
  ): CompiledRule[] | undefined {
    const candidates = rules.filter((rule) => rule.effect === "allow" && rule.matchesTool(toolName));
    if (candidates.length === 0) return undefined;
    if (!shell) {
      const covering = candidates.find((rule) => rule.matchesTarget(targetText, category));
      return covering ? [covering] : undefined;
    }
    // An exact session rule for this very line was approved as a whole by the user.
    const exact = candidates.find(
      (rule) =>
        rule.origin === "session" && rule.pattern !== undefined && rule.matchesTarget(targetText, category),
    );
    if (exact) return [exact];
    if (shell.commands.length === 0) return undefined;
    const used = new Set<CompiledRule>();
    for (const command of shell.commands) {
      const covering = candidates.find((rule) => rule.matchesTarget(command.text, category));
      if (!covering) return undefined;
      used.add(covering);
    }
    return [...used];
  }
}

/** The rules' texts, as a trace names them. */
function ruleTextList(rules: readonly CompiledRule[]): string {
  return [...new Set(rules.map((rule) => rule.text))].join(", ");
}

/** What the engine reports when it was not told the sandbox state: off, so exec calls ask. */
const SANDBOX_NOT_GIVEN: SandboxState = {
  enabled: false,
  mechanism: "none",
  network: true,
  reason: "the permission engine was not given the sandbox state",
};

/** Texts deny and ask rules are tried on: each simple command as written and with its resolved program. */
function ruleTexts(shell: ShellAnalysis): string[] {
  const texts: string[] = [];
  for (const command of shell.commands) {
    texts.push(command.text);
    if (command.resolvedText !== undefined && command.resolvedText !== command.text)
      texts.push(command.resolvedText);
  }
  return texts;
}

/** Why a deny/ask rule cannot be checked: a program that is only known when the line runs. */
function unknownProgram(shell: ShellAnalysis): string | undefined {
  const command = shell.commands.find((simple) => simple.program === undefined && simple.programIndex >= 0);
  if (command) {
    const word = command.words[command.programIndex]!;
    return `the program \`${word.raw}\` at ${command.at} is only known when the line runs`;
  }
  const unreadable = shell.findings.find(
    (finding) =>
      finding.kind === "unreadable script" ||
      finding.kind === "nesting" ||
      finding.kind === "function definition",
  );
  return unreadable
    ? `the ${unreadable.kind} \`${unreadable.detail}\` at ${unreadable.at} hides which programs run`
    : undefined;
}

/** Reasons a rule may not allow the line: parser findings, and environment assignments (`X=1 cmd`). */
function allowBlockers(shell: ShellAnalysis): string[] {
  const blockers = shell.findings.map(describeFinding);
  for (const command of shell.commands) {
    if (command.assignments.length > 0) {
      const effects = command.assignments.flatMap((assignment) => {
        const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(assignment)?.[0];
        const what = name !== undefined ? environmentEffect(name) : undefined;
        return what !== undefined ? [`${name} ${what}`] : [];
      });
      blockers.push(
        `\`${command.assignments.join(" ")}\` at ${command.at} sets the environment of \`${command.text}\`` +
          (effects.length > 0 ? ` (${effects.join("; ")})` : ""),
      );
    }
  }
  return blockers;
}

/** `git -c core.fsmonitor=… at 1:1 sets a git setting …`: the use, where, and what the row says it can do. */
function describeRisky({ effect, at }: RiskyEffect): string {
  return `\`${effect.use}\` at ${at} ${effect.row.what}`;
}

function summarize(blockers: string[]): string {
  return `${blockers.slice(0, 3).join("; ")}${blockers.length > 3 ? `; and ${blockers.length - 3} more` : ""}`;
}

function describeFinding(finding: ParserFinding): string {
  return `${finding.kind} \`${finding.detail}\` at ${finding.at}`;
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

/**
 * Hidden characters in what the user approves: the command or path, a skill tool's stdin, and for an MCP
 * tool (whose input is all the card can show) every key and string of the input.
 */
function hiddenIn(check: PermissionCheck): string[] {
  const { target } = check;
  const texts = [target.command ?? target.path, target.stdin];
  if (target.mcp !== undefined) texts.push(...stringsOf(check.input));
  return [...new Set(texts.flatMap((text) => (text !== undefined ? findHiddenCharacters(text) : [])))];
}

/** Every key and string value inside a JSON value (bounded: an input is a few kilobytes). */
function stringsOf(value: unknown, depth = 0): string[] {
  if (typeof value === "string") return [value];
  if (value === null || typeof value !== "object" || depth > 64) return [];
  if (Array.isArray(value)) return value.flatMap((item) => stringsOf(item, depth + 1));
  return Object.entries(value).flatMap(([key, item]) => [key, ...stringsOf(item, depth + 1)]);
}

/** The protected area a file tool writes into, if any. */
function protectedFileTarget(check: PermissionCheck): string | undefined {
  const { tool, target } = check;
  if (tool.category !== "write") return undefined;
  if (target.protectedArea) return target.protectedArea;
  if (target.path === undefined) return undefined;
  return protectedAreaOf(target.path) ?? configuredAreaAt(target.cwd, target.path);
}
