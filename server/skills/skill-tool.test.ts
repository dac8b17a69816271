import { mkdir, mkdtemp, rm, symlink, unlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MODEL_OUTPUT_CAP } from "../tools/output-cap.ts";
import { createSkillTool } from "./skill-tool.ts";
import type { SkillToolSpec } from "./types.ts";
import { ProcessRunner } from "../tools/process-runner.ts";

/** This file's own process runner (the composition root a test is). */
const processes = new ProcessRunner();

let root: string;
let skillDir: string;
let workdir: string;

const ECHO_SCRIPT = `
let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const args = JSON.parse(input);
  process.stdout.write(JSON.stringify({ got: args, cwd: process.cwd(), workdir: process.env.PSEUDOCLAUDE_WORKDIR }));
  process.stderr.write("diagnostics on stderr");
});
`;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "skill-tool-"));
  skillDir = path.join(root, "skill");
  workdir = path.join(root, "workdir");
  await mkdir(skillDir, { recursive: true });
  await mkdir(workdir, { recursive: true });
  await writeFile(path.join(skillDir, "echo.mjs"), ECHO_SCRIPT);
  await writeFile(
    path.join(skillDir, "fail.mjs"),
    'process.stderr.write("bad input: missing path"); process.exit(3);',
  );
  await writeFile(
    path.join(skillDir, "big.mjs"),
    `process.stdout.write("x".repeat(${MODEL_OUTPUT_CAP * 2}));`,
  );
  await writeFile(path.join(skillDir, "slow.mjs"), "setTimeout(() => {}, 60_000);");
  await writeFile(path.join(skillDir, "run.sh"), "#!/bin/sh\ncat\n", { mode: 0o755 });
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const spec = (command: string[], extra: Partial<SkillToolSpec> = {}): SkillToolSpec => ({
  name: "demo_tool",
  description: "Demo.",
  input_schema: { type: "object" },
  command,
  ...extra,
});

const context = (signal = new AbortController().signal) => ({ workdir, processes, callId: "c1", signal });

describe("skill command tool", () => {
  it("sends the arguments as JSON on stdin, runs in the skill root, returns stdout as content", async () => {
    const tool = createSkillTool({ name: "demo", rootDir: skillDir }, spec(["node", "echo.mjs"]));
    expect(tool.definition).toMatchObject({
      name: "demo_tool",
      origin: "skill",
      skill: "demo",
      safety: "side_effect",
      category: "exec",
    });
    const { result } = await tool.execute({ path: "data.csv", n: 2 }, context());
    expect(result.ok).toBe(true);
    expect(JSON.parse(result.content)).toEqual({ got: { path: "data.csv", n: 2 }, cwd: skillDir, workdir });
    expect(result.metadata).toMatchObject({
      exitCode: 0,
      stderr: "diagnostics on stderr",
      stdoutTruncated: false,
      modelTruncated: false,
    });
    expect(typeof result.metadata?.durationMs).toBe("number");
  });

  it("describe() shows the exact argv, cwd and stdin for the approval card", () => {
    const tool = createSkillTool({ name: "demo", rootDir: skillDir }, spec(["node", "echo.mjs", "--fast"]));
    expect(tool.describe({ a: 1 }, { workdir })).toEqual({
      command: "node echo.mjs --fast",
      cwd: skillDir,
      stdin: '{"a":1}',
    });
  });

  it("runs a path program inside the skill folder", async () => {
    const tool = createSkillTool({ name: "demo", rootDir: skillDir }, spec(["./run.sh"]));
    const { result } = await tool.execute({ hello: "world" }, context());
    expect(result).toMatchObject({ ok: true, content: '{"hello":"world"}' });
  });

  it("a failing exit becomes command_failed with the exit code and stderr", async () => {
    const tool = createSkillTool({ name: "demo", rootDir: skillDir }, spec(["node", "fail.mjs"]));
    const { result } = await tool.execute({}, context());
    expect(result).toMatchObject({ ok: false, errorType: "command_failed", metadata: { exitCode: 3 } });
    expect(result.error).toMatch(/\[stderr\]\nbad input: missing path\n\[exit code 3\]/);
  });

  it("a missing program becomes spawn_failed", async () => {
    await writeFile(path.join(skillDir, "gone.sh"), "#!/bin/sh\n", { mode: 0o755 });
    const removedAfterLoad = createSkillTool({ name: "demo", rootDir: skillDir }, spec(["./gone.sh"]));
    await unlink(path.join(skillDir, "gone.sh"));
    expect((await removedAfterLoad.execute({}, context())).result).toMatchObject({
      ok: false,
      errorType: "spawn_failed",
    });

    const notOnPath = createSkillTool({ name: "demo", rootDir: skillDir }, spec(["no-such-program-xyz"]));
    const notOnPathResult = (await notOnPath.execute({}, context())).result;
    expect(notOnPathResult).toMatchObject({ ok: false, errorType: "spawn_failed" });
    expect(notOnPathResult.error).toMatch(/not found on PATH/);

    const missingFolder = createSkillTool(
      { name: "demo", rootDir: path.join(skillDir, "no-such-dir") },
      spec(["node", "echo.mjs"]),
    );
    expect((await missingFolder.execute({}, context())).result).toMatchObject({
      ok: false,
      errorType: "spawn_failed",
    });
  });

  it("re-checks the command escape at run time (symlink swapped in after load)", async () => {
    await writeFile(path.join(root, "evil.sh"), "#!/bin/sh\necho escaped\n", { mode: 0o755 });
    const tool = createSkillTool({ name: "demo", rootDir: skillDir }, spec(["./run.sh"]));
    await unlink(path.join(skillDir, "run.sh"));
    await symlink(path.join(root, "evil.sh"), path.join(skillDir, "run.sh"));
    const { result } = await tool.execute({}, context());
    expect(result).toMatchObject({ ok: false, errorType: "path_refused" });
    expect(result.content).not.toMatch(/escaped/);
  });

  it("times out and kills the process", async () => {
    const tool = createSkillTool(
      { name: "demo", rootDir: skillDir },
      spec(["node", "slow.mjs"], { timeout_ms: 500 }),
    );
    const started = Date.now();
    const { result } = await tool.execute({}, context());
    expect(result).toMatchObject({ ok: false, errorType: "timeout", metadata: { timeoutMs: 500 } });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("cancellation through the signal is typed canceled", async () => {
    const tool = createSkillTool({ name: "demo", rootDir: skillDir }, spec(["node", "slow.mjs"]));
    const controller = new AbortController();
    const pending = tool.execute({}, context(controller.signal));
    setTimeout(() => controller.abort(), 300);
    expect((await pending).result).toMatchObject({ ok: false, errorType: "canceled" });
  });

  it("a script that never reads stdin still finishes when given 1 MB of arguments (EPIPE handled)", async () => {
    await writeFile(path.join(skillDir, "ignore-stdin.mjs"), 'process.stdout.write("done");');
    const tool = createSkillTool({ name: "demo", rootDir: skillDir }, spec(["node", "ignore-stdin.mjs"]));
    const { result } = await tool.execute({ blob: "x".repeat(1024 * 1024) }, context());
    expect(result).toMatchObject({ ok: true, content: "done" });
  });

  it("caps the model's copy of stdout and returns the full output for the UI", async () => {
    const tool = createSkillTool({ name: "demo", rootDir: skillDir }, spec(["node", "big.mjs"]));
    const execution = await tool.execute({}, context());
    expect(execution.result.ok).toBe(true);
    expect(execution.result.content.length).toBeLessThanOrEqual(MODEL_OUTPUT_CAP + 200);
    expect(execution.result.metadata?.modelTruncated).toBe(true);
    expect(execution.fullOutput).toHaveLength(MODEL_OUTPUT_CAP * 2);
  });

  it("runs sandboxed: its own folder read-only, the session's workdir writable, no network", async () => {
    await writeFile(
      path.join(skillDir, "write.mjs"),
      `import { writeFileSync } from "node:fs";
const attempt = (target) => { try { writeFileSync(target, "x"); return "written"; } catch (error) { return error.code; } };
process.stdout.write(JSON.stringify({
  workdir: attempt(process.env.PSEUDOCLAUDE_WORKDIR + "/made.txt"),
  own: attempt("own.txt"),
}));`,
    );
    const tool = createSkillTool({ name: "demo", rootDir: skillDir }, spec(["node", "write.mjs"]));
    const { result } = await tool.execute({}, { ...context(), sandbox: { network: false, homes: [] } });
    expect(result.ok, result.content).toBe(true);
    expect(JSON.parse(result.content)).toEqual({ workdir: "written", own: "EROFS" });
    expect(result.metadata?.sandbox).toMatchObject({
      enabled: true,
      network: false,
      writable: [workdir],
      readOnly: expect.arrayContaining([skillDir]),
    });
  });
});
