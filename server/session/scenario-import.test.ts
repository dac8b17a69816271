// Import scenario: a valid YAML is stored 0600 under the session's folder and becomes its scripted
// scenario (a recording marks the session as a replay); a broken one is refused with file and field.
import { mkdtemp, readFile, readdir, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importScenario, importedScenariosDirectory } from "./scenario-import.ts";

let home: string;
beforeAll(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), "scenario-import-"));
});
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

describe("importScenario", () => {
  it("stores a recorded scenario and returns the settings that replay it", async () => {
    const yaml = "name: Replay of X\nrecorded: { session: 20260101-000000-abcd }\nturns:\n  - text: hi\n";
    const changes = await importScenario(home, "s1", "/somewhere/else/replay.yaml", yaml);
    const folder = importedScenariosDirectory(home, "s1");
    const [stored] = await readdir(folder);
    expect(stored).toMatch(/^\d+-replay-of-x\.yaml$/);
    expect(changes).toEqual({
      provider: "scripted",
      scenario: path.join(folder, stored),
      replayOf: "20260101-000000-abcd",
    });
    expect(await readFile(path.join(folder, stored), "utf8")).toBe(yaml);
    expect((await stat(path.join(folder, stored))).mode & 0o777).toBe(0o600);
  });

  it("refuses a scenario with a mistake, naming the file and the field, and stores nothing", async () => {
    await expect(importScenario(home, "s2", "bad.yaml", "name: x\nturns:\n  - txt: hi\n")).rejects.toThrow(
      "bad.yaml: turns[0].txt is not a known field",
    );
    await expect(readdir(importedScenariosDirectory(home, "s2"))).rejects.toThrow("ENOENT");
  });
});
