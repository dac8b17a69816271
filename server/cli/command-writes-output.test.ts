// What a command wrote reaches every place a run is read, in the tool card's words
// (server/shared/command-writes.ts): `cli run`'s text output and the HTML export (`cli export`, share).
// Real parts: the CLI in-process on a copy of the demo, a scripted run_command under real bubblewrap with
// its writes held, the saved log read back and exported.
import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SecretRedactor } from "../providers/redact.ts";
import { exportSession, readExportedSession } from "../export/index.ts";
import { saveScriptedRun } from "../export/testing/saved-run.ts";
import { expectHeldWritesHere } from "../tools/fixtures/git-attack.ts";
import { REPO_ROOT, runCli, runFlags } from "./testing/run-cli.ts";

const SCENARIO = `name: writes
turns:
  - text: "Writing the notes."
    tool_calls:
      - name: run_command
        input: { command: "mkdir -p notes && printf 'a\\\\n' > notes/out.txt && rm README.md", description: "write notes" }
  - text: "Done."
`;
const SUMMARY = "Wrote 2 files: README.md (removed), notes/out.txt (added)";

let root: string;
beforeAll(async () => {
  expectHeldWritesHere();
  root = await mkdtemp(path.join(os.tmpdir(), "command-writes-output-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("a command's written files", () => {
  it("are listed under its result in `cli run`'s text output", async () => {
    const workdir = path.join(root, "cli-work");
    await cp(path.join(REPO_ROOT, "examples", "demo-workdir"), workdir, { recursive: true });
    const scenario = path.join(root, "writes.yaml");
    await writeFile(scenario, SCENARIO);
    const result = await runCli([
      ...runFlags(workdir, path.join(root, "cli-home"), scenario),
      "--message",
      "write the notes",
      "--yes",
    ]);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.split("\n");
    const at = lines.findIndex((line) => line === `  ${SUMMARY}`);
    expect(at, result.stdout).toBeGreaterThan(-1);
    // Both paths are named in the summary line: no row repeats them.
    expect(lines[at + 1] ?? "", result.stdout).not.toMatch(/^ {4}- /);
  });

  it("are listed under its result in the HTML export", async () => {
    const saved = await saveScriptedRun(path.join(root, "export"), SCENARIO, ["write the notes"]);
    expect(saved.outcomes.map((outcome) => outcome.reason)).toEqual(["completed"]);
    const session = await readExportedSession(saved.home, saved.sessionId, new SecretRedactor());
    const html = exportSession(session, "html").text;
    expect(html).toContain(
      `<details class="writes" data-testid="export-tool-writes"><summary>${SUMMARY}</summary><ul><li>README.md (removed)</li><li>notes/out.txt (added)</li></ul></details>`,
    );
  });
});
