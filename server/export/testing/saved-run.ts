// A scripted run of the demo project saved as a session log (the CLI's `run --save`, in-process), for the
// export tests and benchmark: a temp copy of examples/demo-workdir, a scenario file, the messages.
import { cp, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { runConversation } from "../../cli/run-command.ts";
import type { RunOutcome } from "../../runner/types.ts";
import { createWorkspace } from "../../session/workspace.ts";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));

export interface SavedRun {
  home: string;
  workdir: string;
  sessionId: string;
  outcomes: RunOutcome[];
  /** Every line the run printed (JSON events). */
  output: string[];
}

/** A real provider (pointed at a local fake of its API) instead of the scripted model. */
export interface ProviderOverride {
  provider: string;
  model: string;
  baseUrl: string;
}

/**
 * Runs `messages` against `scenario` (YAML text) under `root` and saves the session; with `override`, the
 * messages go to that provider instead (the scenario is then unused).
 */
export async function saveScriptedRun(
  root: string,
  scenario: string,
  messages: string[],
  override?: ProviderOverride,
): Promise<SavedRun> {
  const workdir = path.join(root, "work");
  const home = path.join(root, "home");
  await cp(path.join(repoRoot, "examples", "demo-workdir"), workdir, { recursive: true });
  const scenarioFile = path.join(root, "scenario.yaml");
  await writeFile(scenarioFile, scenario);
  const output: string[] = [];
  const outcomes = await runConversation(await createWorkspace({ workdir, home }), {
    ...(override ?? { provider: "scripted", scenario: scenarioFile }),
    messages,
    yes: true,
    json: true,
    disclosure: "progressive",
    planMode: false,
    refreshTools: false,
    save: true,
    write: (line) => output.push(line),
  });
  const saved = output
    .map((line) => JSON.parse(line) as { type: string; sessionId?: string })
    .find((event) => event.type === "session_saved");
  if (!saved?.sessionId) throw new Error(`the run was not saved: ${output.slice(-3).join("\n")}`);
  return { home, workdir, sessionId: saved.sessionId, outcomes, output };
}
