// The CLI as a real process — what in-process tests cannot show: `npm run -s cli` end to end, the bundled
// CLI the package ships, the exit code the shell sees, Ctrl-C (SIGINT) in the middle of a run, and an
// environment read when the process starts (which bwrap). Every other CLI test calls main(argv, io)
// in-process (testing/run-cli.ts). Besides npm (tsx), the processes run the bundle: it starts in about a
// second, where tsx compiles every module first.
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundledCli } from "../testing/server-bundle.ts";
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

/**
 * `node --import tsx server/cli.ts` (what `npm run -s cli` runs, minus npm), npm itself, or the bundled
 * CLI the package ships (server/testing/server-bundle.ts).
 */
function cli(
  args: string[],
  options: {
    viaNpm?: boolean;
    bundled?: boolean;
    env?: NodeJS.ProcessEnv;
    onStdout?: (stdout: string, child: ReturnType<typeof spawn>) => void;
  } = {},
): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const command = options.viaNpm
      ? ["npm", "run", "-s", "cli", "--", ...args]
      : [
          process.execPath,
          ...(options.bundled ? [bundledCli()] : ["--import", "tsx", "server/cli.ts"]),
          ...args,
        ];
    const child = spawn(command[0]!, command.slice(1), { cwd: REPO_ROOT, env: options.env });
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

  it("the bundled CLI (what the package runs, plain Node) plays a run to a completed stop", async () => {
    const result = await cli(
      [...runFlags(demo, home, "scenarios/review.yaml"), "--message", "review src/orders.js", "--json"],
      { bundled: true },
    );
    expect(result.code, result.stderr).toBe(0);
    const events = jsonEvents(result.stdout);
    expect(events.some((event) => event.type === "skill_activated")).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: "stop", reason: "completed" });
  });

  it("exits 2 with the reason on stderr for a usage error", async () => {
    const result = await cli(["run", "--workdir", demo], { bundled: true });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(
      "error (invalid_arguments): run with the scripted provider needs --scenario",
    );
  });

  it("Ctrl-C (SIGINT) stops a slow tool: the run ends canceled and the process exits 1, not killed", async () => {
    let sent = false;
    const result = await cli([...runFlags(demo, home, "scenarios/slow-tool.yaml"), "--yes", "--json"], {
      bundled: true,
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
      bundled: true,
      env: { ...process.env, PSEUDOCLAUDE_BWRAP: "/nonexistent/bwrap" },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("sandbox off: /nonexistent/bwrap not found");
  });
});
