// Issue #20 class 8, SECURITY S22: with the workdir = the home folder and bypassPermissions confirmed, the
// dangerous list still refuses deleting the home folder however the line names it (`.`, `*`, `$PWD`,
// `find . -delete`, `cd ..` and the home's own name). The rule: a recursive delete never reaches `/`, a
// home folder, or a folder above one, nor all the entries of one.
import { describe, expect, it } from "vitest";
import type { SandboxState } from "../protocol/sandbox.ts";
import { createSystemTools } from "../tools/system/index.ts";
import { PermissionEngine } from "./engine.ts";
import type { PermissionCheck } from "./types.ts";

const home = "/home/alice";
const sandbox: SandboxState = { enabled: true, mechanism: "bubblewrap", network: false };
const runCommand = createSystemTools().find((tool) => tool.definition.name === "run_command")!.definition;
const engine = new PermissionEngine({ mode: "bypassPermissions", sandbox, homes: [home] });

function check(command: string, cwd: string): PermissionCheck {
  return { callId: "c1", tool: runCommand, input: { command }, target: { cwd, command } };
}

describe("S22: the workdir is the home folder, bypassPermissions", () => {
  it.each([
    "rm -rf .",
    "rm -rf ./",
    "rm -rf *",
    "rm -rf ./*",
    "rm -rf .[!.]* *",
    "rm -fr -- *",
    "rm -r -f .",
    'rm -rf "$PWD"',
    'rm -rf "$PWD"/*',
    "find . -delete",
    "find -delete",
    "find -L . -mindepth 1 -delete",
    "find . -exec rm -rf {} +",
    "cd .. && rm -rf alice",
    "cd .. && rm -rf *",
    "cd .. && rm -rf ./alice/",
    "rm -rf ../alice",
    "rm -rf ..",
    "cd ../.. && find . -delete",
  ])("`%s` is refused by the dangerous list", (line) => {
    expect(engine.evaluate(check(line, home))).toMatchObject({ decision: "deny", source: "list" });
  });

  it.each([
    "rm -rf node_modules",
    "rm -rf ./build dist",
    "rm -rf *.log",
    "find ./tmp -delete",
    "rm -f notes.txt",
  ])("`%s` stays allowed (a folder or files inside the home)", (line) => {
    expect(engine.evaluate(check(line, home)).decision).toBe("allow");
  });
});

describe("S22: a project inside the home folder", () => {
  const project = `${home}/work/project`;

  it("deleting the project's own contents is the user's business", () => {
    for (const line of ["rm -rf .", "rm -rf *", "find . -delete"])
      expect(engine.evaluate(check(line, project)).decision, line).toBe("allow");
  });

  it("a delete that climbs to the home folder or above is refused", () => {
    for (const line of ["rm -rf ../..", "cd ../.. && rm -rf *", "cd ../../.. && rm -rf alice", "rm -rf ~/*"])
      expect(engine.evaluate(check(line, project)), line).toMatchObject({ decision: "deny", source: "list" });
  });
});
