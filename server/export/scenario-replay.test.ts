// Record once, replay offline: `cli run --save` → `cli export --format scenario` → `cli run --scenario`
// reaches the same tool calls (the CLI in-process); replayed in another workdir, the run says where it
// diverged; every scenario in scenarios/ still parses (the format only gained optional fields).
import { appendFile, cp, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunnerEvent } from "../protocol/runner-events.ts";
import { loadScenario } from "../providers/scenario.ts";
import { REPO_ROOT as repoRoot, runCli } from "../cli/testing/run-cli.ts";

async function cli(args: string[]): Promise<{ stdout: string; stderr: string }> {
  const result = await runCli(args);
  if (result.code !== 0) throw new Error(`cli ${args.join(" ")} exited ${result.code}: ${result.stderr}`);
  return result;
}

function events(stdout: string): (RunnerEvent | { type: "session_saved"; sessionId: string })[] {
  return stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as RunnerEvent);
}

function toolCalls(stdout: string): { name: string; input: unknown }[] {
  return events(stdout).flatMap((event) =>
    event.type === "tool_call" ? [{ name: event.call.name, input: event.call.input }] : [],
  );
}

let root: string;
let home: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "scenario-replay-"));
  home = path.join(root, "home");
  for (const name of ["recorded", "other"])
    await cp(path.join(repoRoot, "examples", "demo-workdir"), path.join(root, name), { recursive: true });
  await appendFile(path.join(root, "other", "src", "orders.js"), "\n// changed after the recording\n");
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("session → scenario → replay", () => {
  it("replays a saved run to the same tool calls, and says where a replay in another workdir diverges", async () => {
    const message = "review src/orders.js";
    const recorded = await cli([
      "run",
      "--workdir",
      path.join(root, "recorded"),
      "--home",
      home,
      "--scenario",
      path.join(repoRoot, "scenarios", "review.yaml"),
      "--message",
      message,
      "--yes",
      "--json",
      "--save",
    ]);
    const saved = events(recorded.stdout).at(-1);
    expect(saved?.type).toBe("session_saved");
    const sessionId = (saved as { sessionId: string }).sessionId;
    expect(await readdir(path.join(home, ".PseudoClaude", "playground", "sessions"))).toEqual([
      `${sessionId}.jsonl`,
    ]);
    const scenarioFile = path.join(root, "replay.yaml");
    await cli(["export", sessionId, "--home", home, "--format", "scenario", "--out", scenarioFile]);
    const scenario = await loadScenario(scenarioFile);
    expect(scenario.recorded).toMatchObject({ session: sessionId, messages: [message] });
    expect(scenario.matcher?.test(message)).toBe(true);

    const replay = await cli([
      "run",
      "--workdir",
      path.join(root, "recorded"),
      "--home",
      home,
      "--scenario",
      scenarioFile,
      "--message",
      message,
      "--yes",
      "--json",
    ]);
    expect(toolCalls(replay.stdout)).toEqual(toolCalls(recorded.stdout));
    expect(toolCalls(replay.stdout).length).toBeGreaterThan(1);
    const payloads = events(replay.stdout).filter((event) => event.type === "provider_payload");
    expect(payloads.map((event) => (event.payload as { divergence?: unknown }).divergence)).toEqual(
      payloads.map(() => undefined),
    );

    const elsewhere = await cli([
      "run",
      "--workdir",
      path.join(root, "other"),
      "--home",
      home,
      "--scenario",
      scenarioFile,
      "--message",
      message,
      "--yes",
    ]);
    expect(elsewhere.stderr).toContain("replay of a recorded session");
    expect(elsewhere.stdout).toContain("replay diverged from the recording at request #1");
    expect(elsewhere.stdout).toContain(`working directory differs: recorded ${path.join(root, "recorded")}`);
    expect(elsewhere.stdout).toContain("the result of read_file differs from the recording");
  }, 240_000);

  it("still reads every scenario of scenarios/ (the format only gained optional fields)", async () => {
    const folder = path.join(repoRoot, "scenarios");
    for (const file of (await readdir(folder)).filter((name) => name.endsWith(".yaml"))) {
      const scenario = await loadScenario(path.join(folder, file));
      expect(scenario.turns.length).toBeGreaterThan(0);
      expect(scenario.recorded).toBeUndefined();
    }
    expect(await readFile(path.join(folder, "review.yaml"), "utf8")).not.toContain("request:");
  });
});
