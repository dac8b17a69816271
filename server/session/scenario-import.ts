// "Import scenario": a scenario YAML from the browser (a recorded session, or any scenario) is checked as
// the scripted provider checks one, kept under <home>/.PseudoClaude/playground/scenarios/<session>/, and
// becomes the scenario the session's scripted model plays. A recorded one marks the session as a replay
// and carries the recorded user messages, which the page offers to send in order.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { SessionSettings } from "../protocol/wire.ts";
import { parseScenario, type Scenario } from "../providers/scenario.ts";

export function importedScenariosDirectory(home: string, sessionId: string): string {
  return path.join(home, ".PseudoClaude", "playground", "scenarios", sessionId);
}

/** Checks a scenario file without storing it (throws invalid_scenario with the file, field and fix). */
export function checkImportedScenario(fileName: string, yaml: string): Scenario {
  return parseScenario(yaml, path.basename(fileName));
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
  const scenario = checkImportedScenario(fileName, yaml);
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
    ...(scenario.recorded?.messages?.length ? { replayMessages: scenario.recorded.messages } : {}),
  };
}
