// "Import scenario": a scenario YAML from the browser (a recorded session, or any scenario) is checked as
// the scripted provider checks one, kept under <home>/.PseudoClaude/playground/scenarios/<session>/, and
// becomes the scenario the session's scripted model plays. A recorded one marks the session as a replay.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { SessionSettings } from "../protocol/wire.ts";
import { parseScenario } from "../providers/scenario.ts";

export function importedScenariosDirectory(home: string, sessionId: string): string {
  return path.join(home, ".PseudoClaude", "playground", "scenarios", sessionId);
}

/**
 * Checks and stores the scenario; returns the settings change that makes the session play it.
 * A scenario with a mistake is refused with the file, the field and the fix (invalid_scenario).
 */
export async function importScenario(
  home: string,
  sessionId: string,
  fileName: string,
  yaml: string,
): Promise<Partial<SessionSettings>> {
  const shownName = path.basename(fileName);
  const scenario = parseScenario(yaml, shownName);
  const directory = importedScenariosDirectory(home, sessionId);
  await mkdir(directory, { recursive: true, mode: 0o700 });
  const slug =
    scenario.name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "")
      .slice(0, 60) || "scenario";
  const file = path.join(directory, `${Date.now()}-${slug}.yaml`);
  await writeFile(file, yaml, { mode: 0o600 });
  return {
    provider: "scripted",
    scenario: file,
    ...(scenario.recorded ? { replayOf: scenario.recorded.session ?? scenario.name } : {}),
  };
}
