// SECURITY S20: every row of the option table (option-table.ts, git-option-table.ts) and of the
// environment table (environment-table.ts) runs its example through the real parser and the engine: a rule
// for the program never allows it, and the question names what the row says it can do. Then the readers
// (sed scripts, awk programs, getopt-style options) on the spellings an attacker would try.
import { describe, expect, it } from "vitest";
import type { SandboxState } from "../protocol/sandbox.ts";
import { createSystemTools } from "../tools/system/index.ts";
import { readAwkProgram } from "./awk-program.ts";
import { PermissionEngine } from "./engine.ts";
import { ENVIRONMENT_ROWS } from "./environment-table.ts";
import { OPTION_ROWS, type OptionRow } from "./option-table.ts";
import { programEffects } from "./program-effects.ts";
import { parseRule } from "./rules.ts";
import { readSedScript } from "./sed-script.ts";
import { analyzeShell } from "./shell-parse.ts";
import type { PermissionCheck } from "./types.ts";

const workdir = "/work/project";
const sandbox: SandboxState = { enabled: true, mechanism: "bubblewrap", network: false };
const runCommand = createSystemTools().find((tool) => tool.definition.name === "run_command")!.definition;

function check(command: string): PermissionCheck {
  return { callId: "c1", tool: runCommand, input: { command }, target: { cwd: workdir, command } };
}

/** An engine whose only rule allows the example's first program (`run_command(git *)`). */
function engineFor(example: string): PermissionEngine {
  const program = example.split(" ").find((word) => !word.includes("="))!;
  const rule = parseRule("allow", `run_command(${program} *)`, "test settings");
  if (typeof rule === "string") throw new Error(rule);
  return new PermissionEngine({ mode: "default", rules: [rule], sandbox });
}

function rowsFound(example: string): OptionRow[] {
  return analyzeShell(example).commands.flatMap((command) =>
    programEffects(command).map((effect) => effect.row),
  );
}

describe("the option table: one test per row", () => {
  it.each(OPTION_ROWS.map((row) => [row.programs[0], row.options.join(" "), row] as const))(
    "%s %s",
    (_program, _options, row) => {
      expect(rowsFound(row.example), "the readers find the row in its example").toContain(row);
      const trace = engineFor(row.example).evaluate(check(row.example));
      expect(trace.decision, trace.reason).toBe("ask");
      if (row.purpose) {
        // What the program is for: only its target is checked (the examples write outside the workdir).
        expect(trace).toMatchObject({ source: "list", rule: "write outside the working directory" });
      } else if (trace.source === "list" && /^option that/.test(trace.rule ?? "")) {
        expect(trace.reason).toContain(row.what);
        expect(trace.rule).toBe(
          row.effect === "runs" ? "option that runs programs" : "option that writes files",
        );
      } else {
        // A row that writes outside the workdir or into .git/ asks for that first.
        expect(row.target, `${trace.source}: ${trace.reason}`).toBe(true);
        expect(trace.source).toMatch(/^(list|protected_path)$/);
      }
    },
  );

  it("every row's `what` says what it can do, and every row has an example", () => {
    for (const row of OPTION_ROWS) {
      expect(row.what, row.options.join()).toMatch(/^[a-z]/);
      expect(row.example.length).toBeGreaterThan(0);
    }
  });
});

describe("the environment table: one test per row", () => {
  it.each(ENVIRONMENT_ROWS.map((row) => [row.names[0], row] as const))("%s", (_name, row) => {
    const trace = engineFor(row.example).evaluate(check(row.example));
    expect(trace.decision).toBe("ask");
    expect(trace.reason).toContain(row.what);
  });

  it("`env NAME=VALUE cmd` sets the environment as a prefix assignment does", () => {
    const engine = engineFor("env *");
    const trace = engine.evaluate(check("env GIT_SSH_COMMAND='touch PWNED' git fetch origin"));
    expect(trace.decision).toBe("ask");
    expect(trace.reason).toContain("names a program the command runs");
  });
});

describe("the sed reader", () => {
  const constructs = (script: string) => readSedScript(script).map((found) => found.construct);

  it.each([
    ["1e touch x", ["e"]],
    ["1!{e touch x\n}", ["e"]],
    [":a;e touch x", ["e"]],
    ["b end;e touch x\n:end", ["e"]],
    ["y/ab/cd/;e touch x", ["e"]],
    ["s/[/]/x/e", ["s///e"]],
    ["s|a|b|gpe", ["s///e"]],
    ["/x/I,+3{w out\n}", ["w"]],
    ["p # note\ne touch x", ["e"]],
    ["a text;e touch x", ["e"]],
    ["s/a/b/w out.txt", ["s///w"]],
    ["$!W out", ["W"]],
    ["0~2{p;d}", []],
    ["s/a\\/b/c/g;1!G;h;$!d", []],
  ])("`%s` is read as %j", (script, expected) => {
    expect(constructs(script)).toEqual(expected);
  });

  it("a command sed does not have, or an unterminated regex, makes the script unreadable", () => {
    expect(constructs("k")).toEqual(["unreadable"]);
    expect(constructs("s/a[/b/e")).toEqual(["unreadable"]);
  });

  it("sed's options are read as sed reads them", () => {
    const uses = (line: string) => rowsFound(line).map((row) => row.options[0]);
    expect(uses("sed --sandbox 'e touch x' f")).toEqual([]);
    expect(uses("sed -n -e p -e 'e touch x' f")).toEqual(["e"]);
    expect(uses("sed --expression='w out' f")).toEqual(["w"]);
    expect(uses("sed -ie 's/x/y/' f")).toEqual([]);
    expect(uses("sed -f edit.sed f")).toEqual(["-f"]);
  });
});

describe("the awk reader", () => {
  const constructs = (program: string) => readAwkProgram(program).map((found) => found.construct);

  it.each([
    ["/a|b/ { n++ } END { print n }", []],
    ['{ print "a|b" }', []],
    ["$1 > 5 || $2 < 3 { print $1 }", []],
    ["{ print ($1 > $2) }", []],
    ["{ print $1 # system(x)\n}", []],
    ['{ print > "out" }', ["print >"]],
    ['{ printf("%s", $1) >> "out" }', ["printf >"]],
    ['BEGIN { i++ / 2; system("touch x") }', ["system()"]],
    ['BEGIN { "date" | getline d }', ["|"]],
    ['BEGIN { print "x" |& "cmd" }', ["|"]],
    ['BEGIN { f = "system"; @f("touch x") }', ["@"]],
    ['/[/]/ { system("x") }', ["system()"]],
  ])("`%s` is read as %j", (program, expected) => {
    expect(constructs(program)).toEqual(expected);
  });

  it("gawk's --sandbox turns them off; a program from a file asks", () => {
    expect(rowsFound("gawk --sandbox 'BEGIN { system(\"x\") }'")).toEqual([]);
    expect(rowsFound("awk -f x.awk data").map((row) => row.options[0])).toEqual(["-f"]);
  });
});

describe("options are found however they are written", () => {
  const found = (line: string) => rowsFound(line).map((row) => row.options[0]);

  it.each([
    ["sort -no out.txt in.txt", "-o"],
    ["sort -oout.txt in.txt", "-o"],
    ["sort --out=out.txt in.txt", "-o"],
    ["sort in.txt -o out.txt", "-o"],
    ["tar cvfC notes.tar /tmp --checkpoint-action=exec=x", "--checkpoint-action"],
    ["tar -x --to-com='sh -c x' -f notes.tar", "--to-command"],
    ["zip -qTT 'touch x' -T a.zip f", "-TT"],
    ["perl -le 'print 1'", "-e"],
    ["python3 -Bc 'print(1)'", "-c"],
    ["node --eval=1", "-e"],
    ["git --no-pager -c x=y log", "-c"],
    ["time -o /tmp/out ls", "-o"],
    ["xargs -I{} git {} < args.txt", "(arguments read from stdin)"],
    ["find . -exec git -c x=y status ;", "-c"],
  ])("`%s` uses %s", (line, option) => {
    expect(found(line)).toContain(option);
  });

  it.each([
    ["perl -pie 's/a/b/' notes.txt"],
    ["python3 script.py -c x"],
    ["node app.js -e x"],
    ["git log -c -1"],
    ["git commit -m 'fix -c flag'"],
    ["tar -xf notes.tar"],
    ["awk -v x=1 -F, '{ print $1 }' notes.csv"],
  ])("`%s` uses no row that a rule must not allow", (line) => {
    expect(
      rowsFound(line).filter((row) => !row.purpose && row.options[1] !== "(the folder the line is in)"),
    ).toEqual([]);
  });
});
