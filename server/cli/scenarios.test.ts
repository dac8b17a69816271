// Every scenario in scenarios/ plays to a completed stop on the demo workdir (in-process, same code as `cli run`).
import { mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunnerEvent } from "../protocol/runner-events.ts";
import { createWorkspace } from "../session/workspace.ts";
import { runConversation } from "./run-command.ts";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const scenariosDir = path.join(repoRoot, "scenarios");
const demo = path.join(repoRoot, "examples", "demo-workdir");
/** slow-tool is for the Stop test (cli.test.ts); csv-profile-next-run spans two messages. */
const SKIPPED = new Set(["slow-tool.yaml"]);
const MESSAGES: Record<string, string[]> = {
  "csv-profile-next-run.yaml": ["load the csv skill", "now profile data/sales.csv"],
};

let home: string;
beforeAll(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), "scenarios-test-home-"));
});
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

describe("scenarios/ on examples/demo-workdir", async () => {
  const files = (await readdir(scenariosDir)).filter((file) => file.endsWith(".yaml") && !SKIPPED.has(file));

  it.each(files)(
    "%s ends every run with a completed stop, with no unknown tool or bad arguments",
    async (file) => {
      const workspace = await createWorkspace({ workdir: demo, home });
      const events: RunnerEvent[] = [];
      const outcomes = await runConversation(workspace, {
        provider: "scripted",
        scenario: path.join(scenariosDir, file),
        messages: MESSAGES[file] ?? [],
        yes: true,
        json: true,
        disclosure: "progressive",
        planMode: false,
        refreshTools: false,
        write: (line) => events.push(JSON.parse(line) as RunnerEvent),
      });
      expect(outcomes.map((outcome) => outcome.reason)).toEqual(outcomes.map(() => "completed"));
      const failures = events.flatMap((event) =>
        event.type === "tool_result" && !event.result.ok ? [event.result.errorType] : [],
      );
      expect(failures.filter((type) => type !== "command_failed")).toEqual([]);
      // Every scenario but the fallback demonstrates a skill: load_skill first.
      const activated = events.filter((event) => event.type === "skill_activated");
      if (file !== "default.yaml") expect(activated.length).toBeGreaterThan(0);
    },
  );
});
