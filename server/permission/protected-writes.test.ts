// SECURITY.md S15 and S17 (the permission half): a write a host program would later read as configuration
// (tools/protected-paths.ts states the rule) asks in every mode, whether a file tool or a shell line makes
// it, and whatever a narrow allow rule says. The file tools' targets are described on a real folder.
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PermissionMode } from "../protocol/model.ts";
import type { SandboxState } from "../protocol/sandbox.ts";
import { createSystemTools } from "../tools/system/index.ts";
import { PermissionEngine } from "./engine.ts";
import { parseRule, type CompiledRule } from "./rules.ts";
import type { PermissionCheck } from "./types.ts";

const sandbox: SandboxState = { enabled: true, mechanism: "bubblewrap", network: false };
const tools = new Map(createSystemTools().map((tool) => [tool.definition.name, tool] as const));
let workdir: string;

beforeAll(async () => {
  workdir = await mkdtemp(path.join(tmpdir(), "pc-protected-writes-"));
  // A bare repository the user keeps, a folder halfway to one, and ordinary folders with git-like names.
  execFileSync("git", ["init", "-q", "--bare", path.join(workdir, "vendor", "mirror.git")]);
  await mkdir(path.join(workdir, "lib", "refs"), { recursive: true });
  await writeFile(path.join(workdir, "lib", "HEAD"), "ref: refs/heads/main\n");
  await mkdir(path.join(workdir, "src", "config"), { recursive: true });
  await mkdir(path.join(workdir, "src", "objects"), { recursive: true });
});

afterAll(async () => {
  await rm(workdir, { recursive: true, force: true });
});

function rules(...texts: string[]): CompiledRule[] {
  return texts.map((text) => {
    const rule = parseRule("allow", text, "test settings");
    if (typeof rule === "string") throw new Error(rule);
    return rule;
  });
}

function engine(mode: PermissionMode, ...allow: string[]): PermissionEngine {
  return new PermissionEngine({ sandbox, mode, rules: rules(...allow) });
}

function shell(line: string): PermissionCheck {
  return {
    callId: "c1",
    tool: tools.get("run_command")!.definition,
    input: { command: line },
    target: { cwd: workdir, command: line },
  };
}

/** A file tool's check, described the way the Runner does it (on the real folder). */
function file(tool: "write_file" | "edit_file", relative: string): PermissionCheck {
  const found = tools.get(tool)!;
  const input = { path: relative, content: "x", old_string: "a", new_string: "b" };
  return {
    callId: "c2",
    tool: found.definition,
    input,
    target: found.describe(input as never, { workdir }),
  };
}

describe("a shell line that writes what git or the playground reads asks, whatever the rule", () => {
  it.each([
    ["git log -1 > HEAD", "run_command(git *)", "git repository"],
    ["git show HEAD:a.txt > lib/commondir", "run_command(git *)", "git repository"],
    ["cp plan.json .mcp.json", "run_command(cp *)", ".mcp.json"],
    ["tee sub/.mcp.json < servers.json", "run_command(tee *)", ".mcp.json"],
    ["echo 'gitdir: ../.git' > docs/.git", "run_command(echo *)", ".git"],
  ])("`%s` under `%s` asks (%s)", (line, rule, area) => {
    for (const mode of ["default", "acceptEdits", "bypassPermissions"] as const) {
      const trace = engine(mode, rule).evaluate(shell(line));
      expect(trace, `${mode}: ${line}`).toMatchObject({
        decision: "ask",
        source: "protected_path",
        rule: area,
      });
    }
  });

  it("the reason names what would read it", () => {
    expect(engine("acceptEdits", "run_command(git *)").evaluate(shell("git log -1 > HEAD")).reason).toMatch(
      /git on this machine would take the folder for a repository/,
    );
    expect(engine("acceptEdits", "run_command(cp *)").evaluate(shell("cp x .mcp.json")).reason).toMatch(
      /starts the MCP servers it names/,
    );
  });

  it("a glob that may match .mcp.json is a write to an unknown target", () => {
    expect(engine("bypassPermissions").evaluate(shell("cp x .m*")).decision).toBe("ask");
  });
});

describe("a file tool's write asks when git or the playground would read it", () => {
  it.each([
    ["write_file", ".mcp.json", ".mcp.json"],
    ["edit_file", ".mcp.json", ".mcp.json"],
    ["write_file", "HEAD", "git repository"],
    // lib/ holds HEAD and refs/: objects/ would make it a repository.
    ["write_file", "lib/objects/info/packs", "git repository"],
    ["edit_file", "vendor/mirror.git/config", "git repository"],
    ["write_file", "vendor/mirror.git/hooks/pre-receive", "git repository"],
    ["write_file", "docs/.git", ".git"],
  ] as const)("%s %s asks in every mode (%s)", (tool, relative, area) => {
    for (const mode of ["default", "acceptEdits", "bypassPermissions"] as const) {
      const trace = engine(mode, `${tool}(**)`).evaluate(file(tool, relative));
      expect(trace, `${mode}: ${tool} ${relative}`).toMatchObject({
        decision: "ask",
        source: "protected_path",
        rule: area,
      });
    }
  });

  it.each(["src/config/app.json", "src/objects/model.ts", "lib/index.ts", "notes/refs.md"])(
    "%s (git-like names, no repository) is an ordinary write",
    (relative) => {
      expect(engine("acceptEdits").evaluate(file("write_file", relative)).decision).toBe("allow");
    },
  );
});

describe("a write to what a repository's git configuration names asks (its hooks, includes, programs)", () => {
  let repository: string;
  const git = (...args: string[]): string =>
    execFileSync("git", args, { cwd: repository, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

  beforeAll(async () => {
    repository = await mkdtemp(path.join(tmpdir(), "pc-protected-configured-"));
    git("init", "-q");
    await mkdir(path.join(repository, ".husky", "_"), { recursive: true });
    await writeFile(path.join(repository, ".husky", "pre-commit"), "exit 0\n");
    await mkdir(path.join(repository, "tools"));
    await writeFile(path.join(repository, "tools", "show.sh"), "cat\n");
    await writeFile(path.join(repository, "tidy.sh"), "cat\n");
    git("config", "core.hooksPath", ".husky/_");
    git("config", "diff.show.textconv", "./tools/show.sh");
    git("config", "filter.tidy.clean", "sh tidy.sh");
    git("config", "include.path", "../shared.gitconfig");
    // A named program that is a symbolic link: the file it leads to is what git runs.
    await mkdir(path.join(repository, "lib"));
    await writeFile(path.join(repository, "lib", "lint.sh"), "exit 0\n");
    await symlink("../lib/lint.sh", path.join(repository, "tools", "lint.sh"));
    git("config", "alias.lint", "!tools/lint.sh");
  });

  afterAll(async () => {
    await rm(repository, { recursive: true, force: true });
  });

  function fileHere(tool: "write_file" | "edit_file", relative: string): PermissionCheck {
    const found = tools.get(tool)!;
    const input = { path: relative, content: "x", old_string: "a", new_string: "b" };
    return {
      callId: "c3",
      tool: found.definition,
      input,
      target: found.describe(input as never, { workdir: repository }),
    };
  }
  const shellHere = (line: string): PermissionCheck => ({
    callId: "c4",
    tool: tools.get("run_command")!.definition,
    input: { command: line },
    target: { cwd: repository, command: line },
  });

  it.each([
    [".husky/pre-commit", "core.hookspath"],
    [".husky/post-merge", "core.hookspath"],
    [".husky/_/pre-commit", "core.hookspath"],
    ["tools/show.sh", "diff.show.textconv"],
    ["tidy.sh", "filter.tidy.clean"],
    ["shared.gitconfig", "include.path"],
    ["lib/lint.sh", "alias.lint"],
  ])("write_file %s asks in every mode, naming %s", (relative, key) => {
    for (const mode of ["default", "acceptEdits", "bypassPermissions"] as const) {
      const trace = engine(mode, "write_file(**)").evaluate(fileHere("write_file", relative));
      expect(trace, `${mode}: ${relative}`).toMatchObject({ decision: "ask", source: "protected_path" });
      expect(trace.rule).toContain(key);
      expect(trace.reason).toMatch(/git configuration names it/);
    }
  });

  it("a shell line writing one asks under a rule that allows the program", () => {
    const trace = engine("acceptEdits", "run_command(printf *)").evaluate(
      shellHere("printf 'echo pwned' > tools/show.sh"),
    );
    expect(trace).toMatchObject({ decision: "ask", source: "protected_path" });
    expect(trace.rule).toContain("diff.show.textconv");
  });

  it.each(["src/app.ts", "tools/other.sh", "README.md"])(
    "%s (named by nothing) is an ordinary write",
    (relative) => {
      expect(engine("acceptEdits").evaluate(fileHere("write_file", relative)).decision).toBe("allow");
    },
  );
});
