// Plays one scenario file on a workdir with `cli run --yes --trust --json`, in-process (main(argv, io)),
// and returns the run outcomes (each run's stop) and every event (the tests of the demo's scenarios).
import type { StopReason } from "../../protocol/model.ts";
import type { RunnerEvent } from "../../protocol/runner-events.ts";
import { jsonEvents, runCli, runFlags } from "./run-cli.ts";

export async function playScenario(options: {
  workdir: string;
  home: string;
  scenario: string;
  messages: string[];
}): Promise<{ outcomes: { reason: StopReason }[]; events: RunnerEvent[]; code: number; stderr: string }> {
  const result = await runCli([
    ...runFlags(options.workdir, options.home, options.scenario),
    ...options.messages.flatMap((message) => ["--message", message]),
    "--yes",
    // The demo copy `npm start` makes is trusted, so its MCP server (.mcp.json) starts.
    "--trust",
    "--json",
  ]);
  const events = jsonEvents(result.stdout);
  const outcomes = events.flatMap((event) => (event.type === "stop" ? [{ reason: event.reason }] : []));
  return { outcomes, events, code: result.code, stderr: result.stderr };
}
