// Reopening a session re-activates its skills with the arguments they were loaded with (issue #11,
// item 7): events come from a real Runner run over a real workspace, and are restored into a fresh one.
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ProcessRunner } from "../tools/process-runner.ts";
import type { ChatMessage } from "../protocol/model.ts";
import type { RunnerEvent } from "../protocol/runner-events.ts";
import { parseScenario } from "../providers/scenario.ts";
import { ScriptedProvider } from "../providers/scripted.ts";
import { runUserMessage } from "../runner/slash.ts";
import { TestPermission } from "../testing/runner-harness.ts";
import { RequestCounter } from "../runner/types.ts";
import type { SequencedEvent } from "./event-stream.ts";
import { loggedActivations, restoreActiveSkills } from "./session-restore.ts";
import { createWorkspace, type Workspace } from "./workspace.ts";
import { loggedEvents } from "./testing/logged-events.ts";

/** This file's own process runner (its tools' processes), ended after each test. */
const processes = new ProcessRunner();

let root: string;
let workdir: string;
let builtin: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), "session-restore-")));
  workdir = path.join(root, "work");
  builtin = path.join(root, "builtin");
  await mkdir(workdir, { recursive: true });
  for (const [name, mode] of [
    ["review", "shared"],
    ["notes", "shared"],
  ] as const) {
    await mkdir(path.join(builtin, name), { recursive: true });
    await writeFile(
      path.join(builtin, name, "SKILL.md"),
      `---\nname: ${name}\ndescription: The ${name} skill.\nmode: ${mode}\n---\n\n${name.toUpperCase()}-SOP for $ARGUMENTS.\n`,
    );
  }
});
afterEach(async () => {
  await processes.killAll();
  await rm(root, { recursive: true, force: true });
});

function workspace(): Promise<Workspace> {
  return createWorkspace({ workdir, home: path.join(root, "home"), builtinDir: builtin });
}

/** Runs one user message through the real Runner and returns its events as a log would replay them. */
async function loggedRun(
  on: Workspace,
  text: string,
  turns: string,
  history: ChatMessage[] = [],
): Promise<SequencedEvent[]> {
  const events: RunnerEvent[] = [];
  await runUserMessage(
    text,
    on.runnerDependencies({
      processes,
      provider: new ScriptedProvider(parseScenario(`name: t\nturns:\n${turns}`, "inline.yaml")),
      permission: new TestPermission("allow"),
      onEvent: (event) => events.push(event),
      history,
      requestCounter: new RequestCounter(),
    }),
  );
  return loggedEvents(events).map((event, index) => ({ seq: index + 1, event }));
}

describe("restoreActiveSkills", () => {
  it("re-activates each skill with the arguments of its latest activation, in activation order", async () => {
    const first = await workspace();
    const history: ChatMessage[] = [];
    const logged = [
      ...(await loggedRun(
        first,
        "go",
        '  - tool_calls:\n      - { name: load_skill, input: { name: notes, arguments: "docs/a.md" } }\n  - text: ok\n',
        history,
      )),
      ...(await loggedRun(first, "/review src/app.ts --strict", "  - text: reviewed\n", history)),
      ...(await loggedRun(
        first,
        "again",
        '  - tool_calls:\n      - { name: load_skill, input: { name: notes, arguments: "docs/b.md" } }\n  - text: ok\n',
        history,
      )),
    ];
    const activated = logged.flatMap(({ event }) => (event.type === "skill_activated" ? [event] : []));
    expect(activated.map((event) => event.arguments)).toEqual([
      "docs/a.md",
      "src/app.ts --strict",
      "docs/b.md",
    ]);

    const reopened = await workspace();
    const problems: string[] = [];
    await restoreActiveSkills(reopened, logged, (problem) => problems.push(problem));
    expect(problems).toEqual([]);
    expect(reopened.activeSkills.list().map(({ name, arguments: args }) => ({ name, args }))).toEqual([
      { name: "notes", args: "docs/b.md" },
      { name: "review", args: "src/app.ts --strict" },
    ]);
    expect(reopened.activeSkills.get("review")?.body).toContain("REVIEW-SOP for src/app.ts --strict.");
    // The same environment as before the reopen: names, order, rendered bodies and arguments.
    const shown = (on: Workspace) => on.activeSkills.list().map(({ activations: _count, ...skill }) => skill);
    expect(shown(reopened)).toEqual(shown(first));
  });

  it("old logs: skill_activated without arguments takes them from the load_skill call, else none", async () => {
    const first = await workspace();
    const logged = await loggedRun(
      first,
      "go",
      '  - tool_calls:\n      - { name: load_skill, input: { name: notes, arguments: "docs/a.md" } }\n  - text: ok\n',
    );
    // The shape written before skill_activated carried the arguments, plus a slash activation (no call).
    const old = logged.map(({ seq, event }) => {
      if (event.type !== "skill_activated") return { seq, event };
      const { arguments: _dropped, ...rest } = event;
      return { seq, event: rest };
    });
    old.push({
      seq: 99,
      event: { type: "skill_activated", runId: "r2", name: "review", source: "builtin", position: 1 },
    });
    expect(loggedActivations(old)).toEqual([{ name: "notes", arguments: "docs/a.md" }, { name: "review" }]);

    const reopened = await workspace();
    await restoreActiveSkills(reopened, old, (problem) => {
      throw new Error(problem);
    });
    expect(reopened.activeSkills.get("notes")).toMatchObject({ arguments: "docs/a.md" });
    expect(reopened.activeSkills.get("review")).toMatchObject({ arguments: "" });
  });

  it("a skill gone from the catalog is reported, the others still restored", async () => {
    const logged: SequencedEvent[] = [
      {
        seq: 1,
        event: {
          type: "skill_activated",
          runId: "r",
          name: "gone",
          source: "builtin",
          position: 0,
          arguments: "x",
        },
      },
      {
        seq: 2,
        event: {
          type: "skill_activated",
          runId: "r",
          name: "notes",
          source: "builtin",
          position: 1,
          arguments: "y",
        },
      },
    ];
    const reopened = await workspace();
    const problems: string[] = [];
    await restoreActiveSkills(reopened, logged, (problem) => problems.push(problem));
    expect(problems).toEqual([
      expect.stringContaining('could not re-activate skill "gone" on reopen: unknown skill "gone"'),
    ]);
    expect(reopened.activeSkills.get("notes")).toMatchObject({ arguments: "y" });
  });
});
