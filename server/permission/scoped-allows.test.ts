// A loaded skill's allowed-tools as scoped allow rules: they allow what the mode would ask for, name the
// skill in the trace, and never outrank a deny, the dangerous list, a protected path, a parser finding,
// a sandbox that is off or strict mode.
import { describe, expect, it } from "vitest";
import type { SandboxState } from "../protocol/sandbox.ts";
import { PermissionEngine } from "./engine.ts";
import { parseRule, type CompiledRule } from "./rules.ts";
import { skillAllowRule, type ScopedAllowRule } from "./scoped-allows.ts";
import { SANDBOX_ON, commandCheck, fileToolCheck } from "./testing/checks.ts";

const sandbox = SANDBOX_ON;
const command = commandCheck;
const write = (relative: string) => fileToolCheck("write_file", relative);

function rule(skill: string, entry: string, text: string): ScopedAllowRule {
  const compiled = skillAllowRule(skill, entry, text);
  if (typeof compiled === "string") throw new Error(compiled);
  return compiled;
}

function engine(
  scoped: ScopedAllowRule[],
  options: { mode?: "default" | "strict"; rules?: CompiledRule[]; sandbox?: SandboxState } = {},
) {
  const built = new PermissionEngine({
    mode: options.mode ?? "default",
    rules: options.rules ?? [],
    sandbox: options.sandbox ?? sandbox,
  });
  built.setScopedAllows(() => scoped);
  return built;
}

const gitLog = rule("git-digest", "Bash(git log:*)", "run_command(git log:*)");

describe("scoped allow rules (allowed-tools)", () => {
  it("allow what default mode asks for, and the trace names the skill and its entry", () => {
    const trace = engine([gitLog]).evaluate(command("git log --oneline -5"));
    expect(trace).toMatchObject({
      decision: "allow",
      source: "rule",
      rule: "allow run_command(git log:*)",
      preApprovedBy: ["git-digest"],
    });
    expect(trace.reason).toContain('skill "git-digest" (allowed-tools: Bash(git log:*))');
    // Without them (the setting off, or the skill not active) the same call asks.
    expect(engine([]).evaluate(command("git log --oneline -5")).decision).toBe("ask");
  });

  it("cover only what they name: another program, or a compound line with an uncovered part, asks", () => {
    expect(engine([gitLog]).evaluate(command("git push origin main")).decision).toBe("ask");
    expect(engine([gitLog]).evaluate(command("git log -1 && curl http://x")).decision).toBe("ask");
    const settingsRule = parseRule("allow", "run_command(npm test)", "settings.json") as CompiledRule;
    const mixed = engine([gitLog], { rules: [settingsRule] }).evaluate(command("git log -1 && npm test"));
    expect(mixed).toMatchObject({ decision: "allow", preApprovedBy: ["git-digest"] });
  });

  it("never outrank a deny rule, the dangerous list, a protected path, a parser finding, strict mode or a sandbox that is off", () => {
    const everything = [rule("wide", "Bash", "run_command"), rule("wide", "Write", "write_file")];
    const deny = parseRule("deny", "run_command(git log*)", "settings.json") as CompiledRule;
    expect(engine(everything, { rules: [deny] }).evaluate(command("git log")).decision).toBe("deny");
    expect(engine(everything).evaluate(command("rm -rf /")).decision).toBe("deny");
    expect(engine(everything).evaluate(write(".git/config")).decision).toBe("ask");
    expect(engine(everything).evaluate(command("echo $(cat /etc/passwd)")).decision).toBe("ask");
    expect(engine(everything, { mode: "strict" }).evaluate(command("ls")).decision).toBe("ask");
    const off: SandboxState = { enabled: false, mechanism: "none", network: true, reason: "no bwrap" };
    expect(engine(everything, { sandbox: off }).evaluate(command("ls")).decision).toBe("ask");
    // What they may allow, they do.
    expect(engine(everything).evaluate(write("notes.md"))).toMatchObject({
      decision: "allow",
      preApprovedBy: ["wide"],
    });
  });

  it("are read at every call, so a skill that is no longer active stops allowing at once", () => {
    let active: ScopedAllowRule[] = [gitLog];
    const built = new PermissionEngine({ mode: "default", rules: [], sandbox });
    built.setScopedAllows(() => active);
    expect(built.evaluate(command("git log")).decision).toBe("allow");
    active = [];
    expect(built.evaluate(command("git log")).decision).toBe("ask");
  });
});
