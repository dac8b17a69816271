import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Catalog } from "./catalog.ts";
import { MAX_SKILL_FILE_BYTES, readBounded } from "./read-bounded.ts";

let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "read-bounded-"));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("readBounded", () => {
  it("returns the whole text, multi-byte characters and files over one read buffer included", async () => {
    const text = `---\nname: ü\n---\n${"ö€😀 line\n".repeat(5000)}`;
    await writeFile(path.join(root, "big.md"), text);
    await writeFile(path.join(root, "empty.md"), "");
    expect(await readBounded(path.join(root, "big.md"))).toBe(text);
    expect(await readBounded(path.join(root, "empty.md"))).toBe("");
  });

  it("refuses a file over the limit, naming its size", async () => {
    await writeFile(path.join(root, "huge.md"), "x".repeat(MAX_SKILL_FILE_BYTES + 1));
    await expect(readBounded(path.join(root, "huge.md"))).rejects.toThrow(
      `file is ${MAX_SKILL_FILE_BYTES + 1} bytes; the limit is ${MAX_SKILL_FILE_BYTES}`,
    );
    await writeFile(path.join(root, "small.md"), "12345");
    await expect(readBounded(path.join(root, "small.md"), 4)).rejects.toThrow(
      "file is 5 bytes; the limit is 4",
    );
  });

  it("rejects with the file system's code: ENOENT for a missing file, EISDIR for a folder", async () => {
    await mkdir(path.join(root, "folder"));
    await expect(readBounded(path.join(root, "absent.md"))).rejects.toMatchObject({ code: "ENOENT" });
    await expect(readBounded(path.join(root, "folder"))).rejects.toMatchObject({ code: "EISDIR" });
  });

  it.skipIf(process.platform === "win32")(
    "refuses a FIFO at once instead of waiting forever for a writer (SKILL.md, tools.json, loose *.md)",
    async () => {
      execFileSync("mkfifo", [path.join(root, "pipe.md")]);
      await expect(readBounded(path.join(root, "pipe.md"))).rejects.toThrow(
        "not a regular file (a FIFO, socket or device)",
      );
      const project = path.join(root, "project");
      await mkdir(path.join(project, "fifo-skill"), { recursive: true });
      await mkdir(path.join(project, "fifo-tools"), { recursive: true });
      execFileSync("mkfifo", [path.join(project, "fifo-skill", "SKILL.md")]);
      execFileSync("mkfifo", [path.join(project, "loose.md")]);
      await writeFile(
        path.join(project, "fifo-tools", "SKILL.md"),
        "---\nname: fifo-tools\ndescription: d\n---\nbody\n",
      );
      execFileSync("mkfifo", [path.join(project, "fifo-tools", "tools.json")]);
      const catalog = await Catalog.create({
        builtin: path.join(root, "none-builtin"),
        user: path.join(root, "none-user"),
        project,
      });
      const reasons = catalog
        .warnings()
        .map((warning) => `${path.relative(project, warning.path)}: ${warning.reason}`);
      expect(reasons.sort()).toEqual([
        expect.stringMatching(/^fifo-skill\/SKILL\.md: .*not a regular file/),
        expect.stringMatching(/^fifo-tools\/tools\.json: .*not a regular file/),
        expect.stringMatching(/^loose\.md: .*not a regular file/),
      ]);
    },
    10_000,
  );

  it.skipIf(process.platform !== "linux")(
    "reads files that report size 0 (procfs) to the end, still bounded",
    async () => {
      expect(await readBounded("/proc/self/status")).toMatch(/^Name:/);
      await expect(readBounded("/proc/self/status", 10)).rejects.toThrow("the limit is 10");
    },
  );
});
