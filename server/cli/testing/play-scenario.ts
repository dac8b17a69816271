// Plays one scenario file on a workdir as `cli run --yes --trust --json` would, in process, and returns
// the run outcomes and every event (the tests of the demo's scenarios).
import type { RunnerEvent } from "../../protocol/runner-events.ts";
import { createWorkspace } from "../../session/workspace.ts";
import { runConversation } from "../run-command.ts";

export async function playScenario(options: {
  workdir: string;
  home: string;
  scenario: string;
  messages: string[];
}): Promise<{ outcomes: Awaited<ReturnType<typeof runConversation>>; events: RunnerEvent[] }> {
  const workspace = await createWorkspace({ workdir: options.workdir, home: options.home });
  const events: RunnerEvent[] = [];
  try {
    const outcomes = await runConversation(workspace, {
      provider: "scripted",
      scenario: options.scenario,
      messages: options.messages,
      yes: true,
      json: true,
      disclosure: "progressive",
      planMode: false,
      refreshTools: false,
      // The demo copy `npm start` makes is trusted, so its MCP server (.mcp.json) starts.
      trust: true,
      write: (line) => events.push(JSON.parse(line) as RunnerEvent),
    });
    return { outcomes, events };
  } finally {
    await workspace.mcp.close();
  }
}
