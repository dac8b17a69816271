// The CLI as a real process — what in-process tests cannot show: `npm run -s cli` end to end, the exit
// code the shell sees, Ctrl-C (SIGINT) in the middle of a run, and an environment read when the process
// starts (which bwrap). Every other CLI test calls main(argv, io) in-process (testing/run-cli.ts).
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, jsonEvents, runFlags } from "./testing/run-cli.ts";

const demo = path.join(REPO_ROOT, "examples", "demo-workdir");
let home: string;
beforeAll(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), "cli-process-home-"));
});
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

interface ProcessResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** `node --import tsx server/cli.ts` (what `npm run -s cli` runs, minus npm), or npm itself. */
function cli(
  args: string[],
  options: {
    viaNpm?: boolean;
    env?: NodeJS.ProcessEnv;
    onStdout?: (stdout: string, child: ReturnType<typeof spawn>) => void;
  } = {},
): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = options.viaNpm
      ? spawn("npm", ["run", "-s", "cli", "--", ...args], { cwd: REPO_ROOT, env: options.env })
      : spawn(process.execPath, ["--import", "tsx", "server/cli.ts", ...args], {
          cwd: REPO_ROOT,
          env: options.env,
        });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      options.onStdout?.(stdout, child);
    });
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

describe("the cli process", () => {
  it("npm run -s cli -- catalog --json prints the catalog and exits 0", async () => {
    const result = await cli(["catalog", "--workdir", demo, "--home", home, "--json"], { viaNpm: true });
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as { skills: { name: string; source: string }[] };
    expect(report.skills).toContainEqual(expect.objectContaining({ name: "review", source: "project" }));
  });

  it("exits 2 with the reason on stderr for a usage error", async () => {
    const result = await cli(["run", "--workdir", demo]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(
      "error (invalid_arguments): run with the scripted provider needs --scenario",
    );
  });

  it("Ctrl-C (SIGINT) stops a slow tool: the run ends canceled and the process exits 1, not killed", async () => {
    let sent = false;
    const result = await cli([...runFlags(demo, home, "scenarios/slow-tool.yaml"), "--yes", "--json"], {
      onStdout: (stdout, child) => {
        if (stdout.includes('"type":"tool_started"') && !sent) {
          sent = true;
          child.kill("SIGINT");
        }
      },
    });
    expect(sent).toBe(true);
    expect(result.signal).toBeNull();
    expect(jsonEvents(result.stdout).at(-1)).toMatchObject({ type: "stop", reason: "canceled" });
    expect(result.code).toBe(1);
  });

  it("says `sandbox off: <reason>` when the bwrap it is told to use is missing, and still runs", async () => {
    const result = await cli([...runFlags(demo, home, "scenarios/default.yaml"), "--message", "hi"], {
      env: { ...process.env, PSEUDOCLAUDE_BWRAP: "/nonexistent/bwrap" },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("sandbox off: /nonexistent/bwrap not found");
  });
});
