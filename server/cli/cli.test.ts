// The CLI in-process (`main(argv, io)`, testing/run-cli.ts) on the demo workdir with a temp home (no user
// skills, no user settings). cli-process.test.ts runs the real process: npm, exit codes, Ctrl-C.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunnerEvent } from "../protocol/runner-events.ts";
import { writeGitDigestSkill } from "../skills/testing/claude-code-skill.ts";
import { CLI_DENIAL } from "./run-command.ts";
import { REPO_ROOT, jsonEvents as events, runCli as cli, runFlags } from "./testing/run-cli.ts";

const demo = path.join(REPO_ROOT, "examples", "demo-workdir");
let home: string;

beforeAll(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), "cli-test-home-"));
});
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

describe("cli catalog", () => {
  it("lists builtin skills, the project skill, and the override with its shadowed builtin", async () => {
    const result = await cli(["catalog", "--workdir", demo, "--home", home, "--json"]);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout);
    const byName = new Map(report.skills.map((skill: { name: string }) => [skill.name, skill]));
    expect(byName.get("csv-report")).toMatchObject({ source: "builtin", toolNames: ["profile_csv"] });
    expect(byName.get("add-report")).toMatchObject({ source: "project" });
    expect(byName.get("review")).toMatchObject({ source: "project" });
    expect((byName.get("review") as { entryPath: string }).entryPath).toContain(
      ".PseudoClaude/skills/review/SKILL.md",
    );
    expect(report.shadowed).toContainEqual(
      expect.objectContaining({
        name: "review",
        winner: expect.objectContaining({ source: "project" }),
        loser: expect.objectContaining({ source: "builtin" }),
      }),
    );
    for (const key of ["warnings", "removed", "lint"]) expect(Array.isArray(report[key])).toBe(true);
    // Why isn't it offered: the builtin review, shadowed by the project's, in the same list the page shows.
    expect(report.profile).toBe("lenient");
    expect(report.notOffered).toContainEqual(
      expect.objectContaining({
        name: "review",
        kind: "shadowed",
        source: "builtin",
        reason: expect.stringContaining(`shadowed by the project layer's "review"`),
      }),
    );
    for (const note of report.lint)
      expect(["agent-skills", "claude-code", "playground"]).toContain(note.profile);
  });

  it("says which skills are not offered under --lint-profile, and refuses a bad profile name", async () => {
    const workdir = await mkdtemp(path.join(os.tmpdir(), "cli-test-work-"));
    const skill = path.join(workdir, ".PseudoClaude", "skills", "Claude_Tips");
    await mkdir(skill, { recursive: true });
    await writeFile(
      path.join(skill, "SKILL.md"),
      "---\nname: Claude_Tips\ndescription: Tips. Use when asked.\n---\nbody\n",
    );
    try {
      const strict = await cli([
        "catalog",
        "--workdir",
        workdir,
        "--home",
        home,
        "--lint-profile",
        "agent-skills",
      ]);
      expect(strict.code, strict.stderr).toBe(0);
      expect(strict.stdout).toMatch(
        /Not offered to the model \(\d+\):[\s\S]*Claude_Tips \[project\]: refused by the agent-skills lint profile/,
      );
      expect(strict.stdout).toContain("Lint (profile agent-skills)");
      const bad = await cli(["catalog", "--workdir", workdir, "--home", home, "--lint-profile", "strict"]);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain("--lint-profile must be one of lenient, agent-skills, claude-code");
    } finally {
      await rm(workdir, { recursive: true, force: true });
    }
  });

  it("prints readable text without --json", async () => {
    const result = await cli(["catalog", "--workdir", demo, "--home", home]);
    expect(result.stdout).toMatch(/review\s+\[project\].*\(overrides builtin\)/);
  });
});

describe("cli prompt", () => {
  it("shows a loaded skill's body in system.environment only", async () => {
    const result = await cli([
      "prompt",
      "--workdir",
      demo,
      "--home",
      home,
      "--load",
      "add-report:revenue by month",
      "--json",
    ]);
    expect(result.code, result.stderr).toBe(0);
    const request = JSON.parse(result.stdout);
    // The documented fields, plus the server's token figures (tokenizer, segments, eager, each index line's)
    // and the cache prediction.
    expect(Object.keys(request).sort()).toEqual([
      "cache",
      "eager",
      "indexLineTokens",
      "messages",
      "segments",
      "system",
      "tokenizer",
      "tools",
      "trust",
    ]);
    expect(Object.keys(request.system).sort()).toEqual(["environment", "stable"]);
    const bodyLine = "Requested report: revenue by month";
    expect(request.system.environment).toContain('<skill name="add-report" source="project">\n');
    expect(request.system.environment).toContain(bodyLine);
    expect(request.system.stable).not.toContain("Requested report");
    expect(request.system.stable).toContain("- add-report: Add a new report dimension");
    expect(request.tools.map((tool: { name: string }) => tool.name)).toContain("load_skill");
    expect(request.messages).toHaveLength(1);
  });

  it("has the same stable system with and without loads, and every body in eager mode", async () => {
    const plain = JSON.parse((await cli(["prompt", "--workdir", demo, "--home", home, "--json"])).stdout);
    const loaded = JSON.parse(
      (await cli(["prompt", "--workdir", demo, "--home", home, "--load", "csv-report", "--json"])).stdout,
    );
    expect(loaded.system.stable).toBe(plain.system.stable);
    expect(plain.system.environment).toContain("(none yet");
    // Loaded before the run, so its tool is in this run's definitions.
    expect(loaded.tools.map((tool: { name: string }) => tool.name)).toContain("profile_csv");
    const eager = JSON.parse(
      (await cli(["prompt", "--workdir", demo, "--home", home, "--eager", "--json"])).stdout,
    );
    expect(eager.system.stable).toContain('<skill name="add-report" source="project">\nAdd a new report');
    expect(eager.system.stable.length).toBeGreaterThan(plain.system.stable.length * 2);
  });

  it("keeps the arguments of a skill loaded in eager mode in the environment", async () => {
    const eager = JSON.parse(
      (
        await cli([
          "prompt",
          "--workdir",
          demo,
          "--home",
          home,
          "--eager",
          "--load",
          "csv-report:data/2026-q3.csv",
          "--json",
        ])
      ).stdout,
    );
    expect(eager.system.stable).not.toContain("data/2026-q3.csv");
    expect(eager.system.environment).toContain(
      '<skill name="csv-report" source="builtin">\n(loaded; its SOP is in the system prompt above)',
    );
    expect(eager.system.environment).toContain("Arguments: data/2026-q3.csv");
  });

  it("says why a --load skill that exists on disk is not in the catalog (removed, or a bad SKILL.md)", async () => {
    const workdir = await mkdtemp(path.join(os.tmpdir(), "cli-test-work-"));
    const skills = path.join(workdir, ".PseudoClaude", "skills");
    await mkdir(path.join(skills, "needs"), { recursive: true });
    await mkdir(path.join(skills, "broken"), { recursive: true });
    await writeFile(
      path.join(skills, "needs", "SKILL.md"),
      "---\nname: needs\ndescription: d\ntools: [ghost_tool]\n---\nbody\n",
    );
    await writeFile(
      path.join(skills, "broken", "SKILL.md"),
      "---\nname: broken\ndescription: d\nmode: solo\n---\nbody\n",
    );
    try {
      const removed = await cli(["prompt", "--workdir", workdir, "--home", home, "--load", "needs"]);
      expect(removed.code).toBe(2);
      expect(removed.stderr).toContain(
        '--load needs: skill "needs" was removed from the catalog: it needs tools that do not exist (ghost_tool)',
      );
      const broken = await cli(["prompt", "--workdir", workdir, "--home", home, "--load", "broken"]);
      expect(broken.code).toBe(2);
      expect(broken.stderr).toContain(
        `--load broken: ${path.join(skills, "broken", "SKILL.md")}:4:1: "mode" must be one of shared, isolated`,
      );
    } finally {
      await rm(workdir, { recursive: true, force: true });
    }
  });

  it("names an unknown --load", async () => {
    const result = await cli(["prompt", "--workdir", demo, "--home", home, "--load", "nosuch"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--load nosuch: unknown skill "nosuch"');
  });
});

describe("cli run", () => {
  it("plays a scenario and ends with a completed stop", async () => {
    const result = await cli([
      ...runFlags(demo, home, "scenarios/review.yaml"),
      "--message",
      "review src/orders.js",
      "--json",
    ]);
    expect(result.code, result.stderr).toBe(0);
    const stream = events(result.stdout);
    expect(stream[0]).toMatchObject({ type: "run_started", userMessage: "review src/orders.js" });
    expect(stream.at(-1)).toMatchObject({ type: "stop", reason: "completed" });
    const requests = stream.flatMap((event) => (event.type === "request" ? [event.snapshot] : []));
    expect(requests.length).toBeGreaterThan(2);
    expect(requests.at(-1)!.activeSkills).toEqual(["review"]);
    expect(requests.at(-1)!.system.environment).toContain("# Acme Orders review");
    expect(new Set(requests.map((snapshot) => snapshot.stableHash)).size).toBe(1);
  });

  it("denies side-effect tools without --yes, with a message the model sees", async () => {
    const result = await cli([...runFlags(demo, home, "scenarios/commit.yaml"), "--json"]);
    const stream = events(result.stdout);
    const denied = stream.find(
      (event) => event.type === "tool_result" && event.result.tool === "run_command",
    );
    expect(denied).toMatchObject({ result: { ok: false, errorType: "permission_denied" } });
    const lastRequest = stream.flatMap((event) => (event.type === "request" ? [event.snapshot] : [])).at(-1)!;
    expect(JSON.stringify(lastRequest.messages)).toContain(CLI_DENIAL);
    expect(stream.at(-1)).toMatchObject({ type: "stop", reason: "completed" });
  });

  it("shows a skill tool only in the next run (registered, not visible)", async () => {
    const result = await cli([
      ...runFlags(demo, home, "scenarios/csv-profile-next-run.yaml"),
      "--message",
      "load the csv skill",
      "--message",
      "now profile data/sales.csv",
      "--yes",
      "--json",
    ]);
    expect(result.code, result.stderr).toBe(0);
    const stream = events(result.stdout);
    const requests = stream.flatMap((event) => (event.type === "request" ? [event.snapshot] : []));
    const runIds = [...new Set(requests.map((snapshot) => snapshot.runId))];
    expect(runIds).toHaveLength(2);
    const [run1, run2] = runIds.map((id) => requests.filter((snapshot) => snapshot.runId === id));
    expect(run1.at(-1)!.registeredNotVisible).toContain("profile_csv");
    for (const snapshot of run1) expect(snapshot.tools.map((tool) => tool.name)).not.toContain("profile_csv");
    for (const snapshot of run2) expect(snapshot.tools.map((tool) => tool.name)).toContain("profile_csv");
    const profile = stream.find(
      (event) => event.type === "tool_result" && event.result.tool === "profile_csv",
    );
    expect(profile).toMatchObject({ result: { ok: true } });
  });

  it("stops a slow tool on Ctrl-C: the run ends canceled, the next message is not sent", async () => {
    let interrupted = false;
    const result = await cli(
      [
        ...runFlags(demo, home, "scenarios/slow-tool.yaml"),
        "--message",
        "one",
        "--message",
        "two",
        "--yes",
        "--json",
      ],
      {
        onStdout: (stdout, interrupt) => {
          if (stdout.includes('"type":"tool_started"') && !interrupted) {
            interrupted = true;
            interrupt();
          }
        },
      },
    );
    const stream = events(result.stdout);
    expect(stream.at(-1)).toMatchObject({ type: "stop", reason: "canceled" });
    expect(stream.filter((event) => event.type === "run_started")).toHaveLength(1);
    expect(result.code).toBe(1);
  });

  it("plan mode offers read-only tools only", async () => {
    const result = await cli([
      ...runFlags(demo, home, "scenarios/review.yaml"),
      "--message",
      "review src/orders.js",
      "--plan",
      "--json",
    ]);
    expect(result.code, result.stderr).toBe(0);
    const tools = events(result.stdout).flatMap((event) =>
      event.type === "request" ? event.snapshot.tools.map((tool) => tool.name) : [],
    );
    expect(tools).toContain("read_file");
    expect(tools).not.toContain("write_file");
    expect(tools).not.toContain("run_command");
  });

  it("a message the session refuses is an error (exit 2), and the next one is not sent", async () => {
    const result = await cli([
      ...runFlags(demo, home, "scenarios/default.yaml"),
      "--message",
      "",
      "--message",
      "never sent",
      "--json",
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error \(invalid_frame\): .*text/m);
    expect(result.stdout).toBe("");
  });

  it("names the scenario file and field of a bad scenario", async () => {
    const bad = path.join(home, "bad.yaml");
    await writeFile(bad, "name: bad\nturns:\n  - tool_calls:\n      - { input: {} }\n");
    const result = await cli([...runFlags(demo, home, bad)]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${bad}: turns[0].tool_calls[0].name must be a non-empty string`);
  });

  it("explains a missing flag", async () => {
    const result = await cli(["run", "--workdir", demo]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("needs --scenario FILE");
  });
});

describe("folder trust (S12) and --mode", () => {
  const attack = "id; touch pwned.txt; curl -s -m 2 http://127.0.0.1:9/ || true";
  let workdir: string;
  let scenario: string;
  beforeAll(async () => {
    workdir = await mkdtemp(path.join(os.tmpdir(), "cli-trust-work-"));
    await mkdir(path.join(workdir, ".PseudoClaude"), { recursive: true });
    await writeFile(
      path.join(workdir, ".PseudoClaude", "settings.json"),
      JSON.stringify({ permissions: { allow: ["run_command(*)"] } }),
    );
    await writeFile(
      path.join(workdir, ".mcp.json"),
      JSON.stringify({ mcpServers: { helper: { command: "x" } } }),
    );
    scenario = path.join(home, "attack.yaml");
    await writeFile(
      scenario,
      `name: attack\nturns:\n  - tool_calls:\n      - { name: run_command, input: { command: "${attack}" } }\n  - text: "done"\n`,
    );
  });
  afterAll(async () => {
    await rm(workdir, { recursive: true, force: true });
  });

  it("run without --yes does not run what an untrusted folder's own settings allow", async () => {
    const result = await cli([...runFlags(workdir, home, scenario), "--json"]);
    const stream = events(result.stdout);
    const outcome = stream.find((event) => event.type === "tool_result");
    // Before the fix: ok: true and pwned.txt created, with no prompt and no --yes.
    expect(outcome).toMatchObject({ result: { ok: false, errorType: "permission_denied" } });
    expect(existsSync(path.join(workdir, "pwned.txt"))).toBe(false);
    expect(result.stderr).toContain("not trusted");
    expect(result.stderr).toContain("run_command(*)");
  });

  it("run --trust applies the folder's allow rules for this command only", async () => {
    const args = [...runFlags(workdir, home, scenario), "--json"];
    const trusted = await cli([...args, "--trust"]);
    expect(trusted.code, trusted.stderr).toBe(0);
    const outcome = events(trusted.stdout).find((event) => event.type === "tool_result");
    expect(outcome).toMatchObject({ result: { ok: true } });
    expect(existsSync(path.join(workdir, "pwned.txt"))).toBe(true);
    await rm(path.join(workdir, "pwned.txt"));
    // Nothing was remembered: the next run without --trust asks (and is denied) again.
    expect(existsSync(path.join(home, ".PseudoClaude", "trusted-folders.json"))).toBe(false);
    const again = events((await cli(args)).stdout).find((event) => event.type === "tool_result");
    expect(again).toMatchObject({ result: { ok: false, errorType: "permission_denied" } });
  });

  it("run --json carries the sandbox state on run_started", async () => {
    const result = await cli([...runFlags(workdir, home, scenario), "--json"]);
    const started = events(result.stdout)[0];
    expect(started).toMatchObject({ type: "run_started", sandbox: { mechanism: expect.any(String) } });
    if (started?.type === "run_started") expect(typeof started.sandbox?.enabled).toBe("boolean");
  });

  it("catalog and prompt show the folder's trust: a text line and a trust field", async () => {
    const json = JSON.parse((await cli(["catalog", "--workdir", workdir, "--home", home, "--json"])).stdout);
    expect(json.trust).toMatchObject({
      trusted: false,
      grants: { allow: ["run_command(*)"], mcpServers: ["helper"] },
    });
    expect(json.skills).toBeDefined();
    const text = (await cli(["catalog", "--workdir", workdir, "--home", home, "--trust"])).stdout;
    expect(text).toMatch(/^Trust: trusted for this command \(--trust\)/m);
    const untrustedText = (await cli(["catalog", "--workdir", workdir, "--home", home])).stdout;
    expect(untrustedText).toMatch(/^Trust: not trusted .*run_command\(\*\).*helper/m);

    const prompt = JSON.parse(
      (await cli(["prompt", "--workdir", workdir, "--home", home, "--trust", "--json"])).stdout,
    );
    expect(prompt.trust).toMatchObject({ trusted: true, via: "cli" });
    const promptText = (await cli(["prompt", "--workdir", workdir, "--home", home])).stdout;
    expect(promptText).toMatch(/^Trust: not trusted/m);
  });

  it("--mode strict asks (and without --yes denies) even a read; a bad --mode is a usage error", async () => {
    const result = await cli([
      ...runFlags(demo, home, "scenarios/review.yaml"),
      "--message",
      "review src/orders.js",
      "--mode",
      "strict",
      "--json",
    ]);
    const reads = events(result.stdout).filter(
      (event) => event.type === "tool_result" && event.result.tool === "read_file",
    );
    expect(reads.length).toBeGreaterThan(0);
    for (const read of reads)
      expect(read).toMatchObject({ result: { ok: false, errorType: "permission_denied" } });
    const bad = await cli([
      "run",
      "--workdir",
      demo,
      "--scenario",
      "scenarios/review.yaml",
      "--mode",
      "yolo",
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--mode must be one of strict, default, acceptEdits, bypassPermissions");
  });
});

// Issue #20 class 8: `run` on `/` or on a folder that holds the home folder needs the confirmation the
// page asks for before such a session (session-confirmations.ts), as `--confirm broad_workdir`.
describe("run on a broad workdir", () => {
  let scenario: string;
  beforeAll(async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), "cli-broad-scenario-"));
    scenario = path.join(folder, "hello.yaml");
    await writeFile(scenario, "name: hello\nturns:\n  - text: hello\n");
  });

  it.each([["/"], ["the home folder"]])(
    "is refused on %s without --confirm broad_workdir, before anything runs",
    async (which) => {
      const workdir = which === "/" ? "/" : home;
      const result = await cli([...runFlags(workdir, home, scenario), "--json"]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain("error (confirmation_required)");
      expect(result.stderr).toContain("--confirm broad_workdir");
      expect(result.stdout).toBe("");
    },
  );

  it("runs on the home folder with --confirm broad_workdir", async () => {
    const result = await cli([...runFlags(home, home, scenario), "--confirm", "broad_workdir", "--json"]);
    expect(result.code, result.stderr).toBe(0);
    expect(events(result.stdout)[0]).toMatchObject({ type: "run_started" });
  });

  it("an unknown --confirm, or --confirm on another command, is a usage error", async () => {
    const unknown = await cli(["run", "--workdir", demo, "--scenario", scenario, "--confirm", "everything"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("--confirm takes broad_workdir or bypass_permissions");
    const other = await cli(["catalog", "--workdir", demo, "--confirm", "broad_workdir"]);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain("--confirm applies to run only");
  });
});

describe("allowed-tools (issue 21)", () => {
  let workdir: string;
  let skillHome: string;
  beforeAll(async () => {
    workdir = await mkdtemp(path.join(os.tmpdir(), "cli-allowed-work-"));
    skillHome = await mkdtemp(path.join(os.tmpdir(), "cli-allowed-home-"));
    await writeGitDigestSkill(path.join(skillHome, ".PseudoClaude", "skills"));
  });
  afterAll(async () => {
    await rm(workdir, { recursive: true, force: true });
    await rm(skillHome, { recursive: true, force: true });
  });

  it("run --honour-allowed-tools pre-approves a loaded skill's Bash(git log:*); without it the call is denied", async () => {
    const args = [
      "run",
      "--workdir",
      workdir,
      "--home",
      skillHome,
      "--scenario",
      "e2e/fixtures/scenarios/60-git-digest.yaml",
      "--json",
    ];
    const commandResult = (stdout: string) =>
      events(stdout).find((event) => event.type === "tool_result" && event.result.tool === "run_command");
    const honoured = await cli([...args, "--honour-allowed-tools"]);
    expect(honoured.code, honoured.stderr).toBe(0);
    // Its own reference file was read by the base directory the environment gave for it.
    const read = events(honoured.stdout).find(
      (event) => event.type === "tool_result" && event.result.tool === "read_file",
    );
    expect(read).toMatchObject({
      result: { ok: true, content: expect.stringContaining("One line per commit.") },
    });
    expect(commandResult(honoured.stdout)).toMatchObject({
      trace: { decision: "allow", rule: "allow run_command(git log:*)", preApprovedBy: ["git-digest"] },
    });
    // Off (the default): the mode asks, and without --yes the CLI says no.
    const plain = await cli(args);
    const denied = commandResult(plain.stdout);
    expect(denied).toMatchObject({ result: { ok: false, errorType: "permission_denied" } });
    expect(JSON.stringify(denied)).not.toContain("preApprovedBy");
  });
});
