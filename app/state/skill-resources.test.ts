// The lane's per-file states, from the events only: listed → read; a referenced file unread when a run
// ends → never read.
import { describe, expect, it } from "vitest";
import type { WireRunnerEvent as RunnerEvent } from "../../server/protocol/index.ts";
import { filesAt, neverReadFiles, readTokens, skillFileRows } from "./skill-files.ts";
import { playEvents } from "./test-builders.ts";

const play = playEvents;

const activated: RunnerEvent = {
  type: "skill_activated",
  runId: "r1",
  name: "csv-report",
  source: "builtin",
  position: 0,
  arguments: "",
  indexTokens: 46,
  resources: {
    baseDir: "/skills/csv-report",
    files: [
      { path: "reference/column-types.md", bytes: 1200 },
      { path: "scripts/column-types.mjs", bytes: 900 },
      { path: "profile-csv.mjs", bytes: 5000 },
    ],
    more: 0,
    referenced: ["reference/column-types.md", "scripts/column-types.mjs"],
  },
};

describe("skill resources in the UI state", () => {
  it("moves a file from listed to read, and an unread referenced one to never read when the run ends", () => {
    const loaded = play([activated]).session!.skillResources!["csv-report"]!;
    expect(skillFileRows(filesAt(loaded)).map((row) => row.state)).toEqual(["listed", "listed", "listed"]);

    const read: RunnerEvent = {
      type: "skill_resource_read",
      runId: "r1",
      skill: "csv-report",
      path: "reference/column-types.md",
      bytes: 1200,
      tokens: 300,
    };
    const stop: RunnerEvent = { type: "stop", runId: "r1", reason: "completed", iterations: 3 };
    const during = play([activated, read]).session!.skillResources!["csv-report"]!;
    expect(skillFileRows(filesAt(during)).map((row) => row.state)).toEqual(["read", "listed", "listed"]);
    expect(readTokens(filesAt(during))).toBe(300);

    const after = play([activated, read, read, stop]).session!.skillResources!["csv-report"]!;
    expect(skillFileRows(filesAt(after)).map((row) => [row.path, row.state])).toEqual([
      ["reference/column-types.md", "read"],
      ["scripts/column-types.mjs", "never-read"],
      ["profile-csv.mjs", "listed"],
    ]);
    expect(filesAt(after).reads["reference/column-types.md"]).toEqual({ reads: 2, bytes: 2400, tokens: 600 });
    expect(neverReadFiles(after)).toEqual(["scripts/column-types.mjs"]);
    expect(after.indexTokens).toBe(46);
  });

  it("marks a script the run executed as ran, a file a command named as used, and hints at neither (issue 22 item 5)", () => {
    const used = (path: string, how: "ran" | "named"): RunnerEvent => ({
      type: "skill_resource_used",
      runId: "r1",
      callId: "c2",
      tool: "run_command",
      skill: "csv-report",
      path,
      how,
    });
    const stop: RunnerEvent = { type: "stop", runId: "r1", reason: "completed", iterations: 3 };
    const after = play([
      activated,
      used("scripts/column-types.mjs", "ran"),
      used("reference/column-types.md", "named"),
      stop,
    ]).session!.skillResources!["csv-report"]!;
    expect(skillFileRows(filesAt(after)).map((row) => [row.path, row.state])).toEqual([
      ["reference/column-types.md", "used"],
      ["scripts/column-types.mjs", "ran"],
      ["profile-csv.mjs", "listed"],
    ]);
    expect(neverReadFiles(after)).toEqual([]);
    expect(filesAt(after).uses["scripts/column-types.mjs"]).toEqual({
      ran: 1,
      named: 0,
      tool: "run_command",
    });
    // Uses survive a reload of the skill (a second load_skill), as reads do.
    const reloaded = play([activated, used("scripts/column-types.mjs", "ran"), activated, stop]).session!
      .skillResources!["csv-report"]!;
    expect(neverReadFiles(reloaded)).toEqual(["reference/column-types.md"]);
    // A file beyond the manifest's bound that a command ran still gets its row.
    const beyond = play([activated, used("scripts/more/extra.sh", "ran")]).session!.skillResources![
      "csv-report"
    ]!;
    expect(skillFileRows(filesAt(beyond)).at(-1)).toMatchObject({
      path: "scripts/more/extra.sh",
      state: "ran",
    });
  });

  it("ignores a read of a skill it never saw loaded, and a log without manifests", () => {
    const old: RunnerEvent = { ...activated, resources: undefined } as RunnerEvent;
    const state = play([
      old,
      { type: "skill_resource_read", runId: "r1", skill: "x", path: "a.md", bytes: 1, tokens: 1 },
    ]);
    expect(state.session!.skillResources).toBeUndefined();
  });
});
