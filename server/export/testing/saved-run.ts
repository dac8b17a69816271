// A scripted run of the demo project saved as a session log (the CLI's `run --save`, in-process), for the
// export tests and benchmark: a temp copy of examples/demo-workdir, a scenario file, the messages.
import { cp, writeFile } from "node:fs/promises";
import path from "node:path";
import type { StopReason } from "../../protocol/model.ts";
import { REPO_ROOT, jsonEvents, runCli, runFlags } from "../../cli/testing/run-cli.ts";

export interface SavedRun {
  home: string;
  workdir: string;
  sessionId: string;
  /** Each run's stop. */
  outcomes: { reason: StopReason }[];
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
  await cp(path.join(REPO_ROOT, "examples", "demo-workdir"), workdir, { recursive: true });
  const scenarioFile = path.join(root, "scenario.yaml");
  await writeFile(scenarioFile, scenario);
  const result = await runCli([
    ...(override
      ? ["run", "--workdir", workdir, "--home", home, "--provider", override.provider]
      : runFlags(workdir, home, scenarioFile)),
    ...(override ? ["--model", override.model, "--base-url", override.baseUrl] : []),
    ...messages.flatMap((message) => ["--message", message]),
    "--yes",
    "--json",
    "--save",
  ]);
  const output = result.stdout.trim().split("\n");
  const events = jsonEvents(result.stdout) as ({
    type: string;
    sessionId?: string;
    reason?: StopReason;
  } & object)[];
  const saved = events.find((event) => event.type === "session_saved");
  if (!saved?.sessionId)
    throw new Error(
      `the run was not saved (exit ${result.code}): ${result.stderr}${output.slice(-3).join("\n")}`,
    );
  const outcomes = events.flatMap((event) => (event.type === "stop" ? [{ reason: event.reason! }] : []));
  return { home, workdir, sessionId: saved.sessionId, outcomes, output };
}
