import { execFileSync } from "node:child_process";
import {
  lstat,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  realpath,
  rm,
  stat,
  symlink,
  writeFile,
  chmod,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { MODEL_OUTPUT_CAP } from "../output-cap.ts";
import { ProcessRunner } from "../process-runner.ts";
import { Registry } from "../registry.ts";
import type { ToolContext, ToolExecution } from "../types.ts";
import { openConfined, writeConfined } from "./confined-fs.ts";
import { createSystemTools, registerSystemTools, SYSTEM_TOOL_NAMES, type SystemTool } from "./index.ts";
import { READ_FILE_CAP_BYTES } from "./read-file.ts";
import { createSearchCodeTool } from "./search-code.ts";

/** This file's own process runner (the composition root a test is). */
const processes = new ProcessRunner();

// The built-in tools against real files in a temp workdir (with real symlinks pointing outside it).

let base: string;
let workdir: string;
let outside: string;
const tools = new Map(createSystemTools().map((tool) => [tool.definition.name, tool]));
const created: string[] = [];

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "pc-tools-")));
  created.push(base);
  workdir = path.join(base, "ws");
  outside = path.join(base, "outside");
  await mkdir(path.join(workdir, "src", "nested"), { recursive: true });
  await mkdir(outside);
  await writeFile(path.join(workdir, "src", "a.ts"), "export const a = 1;\nexport const b = 2;\n");
  await writeFile(path.join(workdir, "src", "nested", "c.md"), "# title\nTODO: fix\n");
  await writeFile(path.join(workdir, "README.md"), "hello\nTODO: docs\n");
  await writeFile(path.join(outside, "secret.txt"), "secret\n");
});

afterAll(async () => {
  for (const folder of created) await rm(folder, { recursive: true, force: true });
});

function context(): ToolContext {
  return { workdir, processes, callId: "call-1", signal: new AbortController().signal };
}

function tool(name: string): SystemTool {
  const found = tools.get(name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
}

async function call(name: string, input: Record<string, unknown>): Promise<ToolExecution> {
  return tool(name).execute(input, context());
}

describe("registration and definitions", () => {
  it("registers the six tools as protected system tools with the right safety and category", () => {
    const registry = new Registry();
    registerSystemTools(registry);
    expect(registry.names()).toEqual([...SYSTEM_TOOL_NAMES]);
    for (const name of SYSTEM_TOOL_NAMES) expect(registry.isProtected(name)).toBe(true);
    const byName = Object.fromEntries(
      registry.definitions().map((definition) => [definition.name, definition]),
    );
    expect(byName.read_file).toMatchObject({ safety: "read_only", category: "read", origin: "system" });
    expect(byName.list_files).toMatchObject({ safety: "read_only", category: "read" });
    expect(byName.search_code).toMatchObject({ safety: "read_only", category: "read" });
    expect(byName.write_file).toMatchObject({ safety: "side_effect", category: "write" });
    expect(byName.edit_file).toMatchObject({ safety: "side_effect", category: "write" });
    expect(byName.run_command).toMatchObject({ safety: "side_effect", category: "exec" });
    const replacement = {
      ...tool("read_file"),
      definition: { ...tool("read_file").definition, origin: "skill" as const },
    };
    expect(registry.registerOrReplace(replacement)).toBe(false);
  });

  it("validates arguments through the registry schema", () => {
    const registry = new Registry();
    registerSystemTools(registry);
    expect(registry.validate("read_file", { path: "a" })).toBeNull();
    expect(registry.validate("read_file", {})?.errorType).toBe("invalid_arguments");
    expect(registry.validate("run_command", { command: "ls", timeout_ms: 700_000 })?.errorType).toBe(
      "invalid_arguments",
    );
  });
});

describe("read_file", () => {
  it("reads a file and a line range", async () => {
    expect((await call("read_file", { path: "src/a.ts" })).result).toMatchObject({
      ok: true,
      content: "export const a = 1;\nexport const b = 2;\n",
    });
    expect((await call("read_file", { path: "src/a.ts", start_line: 2, end_line: 2 })).result.content).toBe(
      "export const b = 2;",
    );
  });

  it("caps at 256 KiB with a note, and caps the model's copy at 30,000 characters", async () => {
    await writeFile(path.join(workdir, "big.txt"), "0123456789abcdef\n".repeat(40_000));
    const execution = await call("read_file", { path: "big.txt" });
    expect(execution.result.ok).toBe(true);
    expect(execution.result.content.length).toBeLessThanOrEqual(MODEL_OUTPUT_CAP);
    expect(execution.result.content).toContain("characters cut from the middle");
    expect(execution.fullOutput).toContain(`only the first ${READ_FILE_CAP_BYTES} bytes`);
    expect(execution.fullOutput!.length).toBeLessThan(READ_FILE_CAP_BYTES + 500);
  });

  it("refuses binary files and folders clearly", async () => {
    await writeFile(path.join(workdir, "image.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13]));
    expect((await call("read_file", { path: "image.png" })).result).toMatchObject({
      ok: false,
      errorType: "binary_file",
    });
    expect((await call("read_file", { path: "src" })).result).toMatchObject({
      ok: false,
      errorType: "is_directory",
    });
    expect((await call("read_file", { path: "absent.txt" })).result).toMatchObject({
      ok: false,
      errorType: "not_found",
    });
  });

  it("P1/P2/P3/P8: refuses paths outside the workdir with the reason", async () => {
    await symlink(outside, path.join(workdir, "out"));
    for (const bad of ["../outside/secret.txt", "/etc/passwd", "~/x", "out/secret.txt", "src/a.ts\0"]) {
      const { result } = await call("read_file", { path: bad });
      expect(result.ok).toBe(false);
      expect(result.errorType).toBe("path_refused");
      expect(result.content).not.toContain("secret\n");
    }
  });
});

describe("list_files and search_code", () => {
  it("lists files by glob and skips .git and node_modules", async () => {
    await mkdir(path.join(workdir, ".git"));
    await writeFile(path.join(workdir, ".git", "HEAD"), "ref\n");
    await mkdir(path.join(workdir, "node_modules", "x"), { recursive: true });
    await writeFile(path.join(workdir, "node_modules", "x", "i.ts"), "");
    const all = (await call("list_files", {})).result.content.split("\n");
    expect(all).toEqual(["README.md", "src/a.ts", "src/nested/c.md"]);
    expect((await call("list_files", { pattern: "**/*.md" })).result.content).toBe(
      "README.md\nsrc/nested/c.md",
    );
    expect((await call("list_files", { pattern: "*.ts", path: "src" })).result.content).toBe("src/a.ts");
  });

  it("caps the number of listed paths", async () => {
    const many = path.join(workdir, "many");
    await mkdir(many);
    await Promise.all(
      Array.from({ length: 620 }, (_, index) => writeFile(path.join(many, `f${index}.txt`), "")),
    );
    const { result } = await call("list_files", { path: "many" });
    expect(result.content).toContain("120 more matching paths not shown");
    expect(result.metadata).toMatchObject({ matched: 620, shown: 500 });
  });

  it("does not follow a symlinked folder out of the workdir", async () => {
    await symlink(outside, path.join(workdir, "out"));
    const { result } = await call("list_files", {});
    expect(result.content).not.toContain("secret.txt");
    expect((await call("list_files", { path: "out" })).result.errorType).toBe("path_refused");
  });

  it("searches with a regex and reports file:line", async () => {
    const { result } = await call("search_code", { pattern: "TODO:\\s+\\w+" });
    expect(result.content.split("\n")).toEqual(["README.md:2: TODO: docs", "src/nested/c.md:2: TODO: fix"]);
    const filtered = await call("search_code", {
      pattern: "todo",
      case_insensitive: true,
      glob: "**/*.md",
      path: "src",
    });
    expect(filtered.result.content).toBe("src/nested/c.md:2: TODO: fix");
    expect((await call("search_code", { pattern: "(" })).result.errorType).toBe("invalid_arguments");
    // A glob whose class is not a valid range is the caller's mistake, told as such, like list_files does.
    const badGlob = await call("search_code", { pattern: "TODO", glob: "[z-a]" });
    expect(badGlob.result.errorType).toBe("invalid_arguments");
    expect(badGlob.result.content).toMatch(/invalid glob "\[z-a\]"/);
  });

  it("caps matches", async () => {
    await writeFile(path.join(workdir, "lots.txt"), "match\n".repeat(1000));
    const { result } = await call("search_code", { pattern: "match", path: "lots.txt" });
    expect(result.content.split("\n").filter((line) => line.startsWith("lots.txt:"))).toHaveLength(200);
    expect(result.content).toContain("more matches not shown");
  });
});

describe("write_file and edit_file", () => {
  it("creates parents and writes atomically, leaving no temp files", async () => {
    const { result } = await call("write_file", { path: "deep/new/file.txt", content: "hi\n" });
    expect(result).toMatchObject({ ok: true, metadata: { created: true } });
    expect(await readFile(path.join(workdir, "deep/new/file.txt"), "utf8")).toBe("hi\n");
    expect(await readdir(path.join(workdir, "deep/new"))).toEqual(["file.txt"]);
  });

  it("keeps the mode of a file it replaces", async () => {
    const script = path.join(workdir, "run.sh");
    await writeFile(script, "#!/bin/sh\n");
    await chmod(script, 0o755);
    await call("write_file", { path: "run.sh", content: "#!/bin/sh\necho hi\n" });
    expect((await stat(script)).mode & 0o777).toBe(0o755);
  });

  it("P3/P5: nothing is written through a symlink that leads outside", async () => {
    await symlink(outside, path.join(workdir, "link"));
    const direct = await call("write_file", { path: "link/secret.txt", content: "pwned" });
    expect(direct.result.errorType).toBe("path_refused");
    const deep = await call("write_file", { path: "link/new/deep.txt", content: "pwned" });
    expect(deep.result.errorType).toBe("path_refused");
    expect(await readFile(path.join(outside, "secret.txt"), "utf8")).toBe("secret\n");
    expect(await readdir(outside)).toEqual(["secret.txt"]);
  });

  it("P6: a final component swapped for a symlink after the check is replaced, not followed", async () => {
    const target = path.join(workdir, "swapped.txt");
    // The confinement check saw an absent file inside; then an attacker plants a link to outside.
    await symlink(path.join(outside, "secret.txt"), target);
    await writeConfined({ root: workdir, relative: "swapped.txt" }, "new content\n");
    expect(await readFile(path.join(outside, "secret.txt"), "utf8")).toBe("secret\n");
    expect((await lstat(target)).isSymbolicLink()).toBe(false);
    expect(await readFile(target, "utf8")).toBe("new content\n");
  });

  it("P6: a parent folder swapped for a symlink after the check is refused", async () => {
    const folder = path.join(workdir, "later");
    await symlink(outside, folder);
    await expect(writeConfined({ root: workdir, relative: "later/f.txt" }, "x")).rejects.toThrow(
      /outside the working directory/,
    );
    expect(await readdir(outside)).toEqual(["secret.txt"]);
  });

  it("edits an exact unique string and fails clearly otherwise", async () => {
    const ok = await call("edit_file", { path: "src/a.ts", old_string: "a = 1", new_string: "a = $& 42" });
    expect(ok.result).toMatchObject({ ok: true, metadata: { replacements: 1 } });
    expect(await readFile(path.join(workdir, "src/a.ts"), "utf8")).toBe(
      "export const a = $& 42;\nexport const b = 2;\n",
    );
    const absent = await call("edit_file", { path: "src/a.ts", old_string: "zzz", new_string: "y" });
    expect(absent.result).toMatchObject({ ok: false, errorType: "edit_no_match" });
    const twice = await call("edit_file", {
      path: "src/a.ts",
      old_string: "export const",
      new_string: "const",
    });
    expect(twice.result).toMatchObject({ ok: false, errorType: "edit_not_unique" });
    expect(twice.result.content).toContain("occurs 2 times");
    const all = await call("edit_file", {
      path: "src/a.ts",
      old_string: "export const",
      new_string: "const",
      replace_all: true,
    });
    expect(all.result).toMatchObject({ ok: true, metadata: { replacements: 2 } });
  });

  it("P10: describe() flags .git and .PseudoClaude targets; outside paths carry the refusal", () => {
    expect(tool("write_file").describe({ path: ".git/hooks/pre-commit" }, { workdir })).toMatchObject({
      path: ".git/hooks/pre-commit",
      protectedArea: ".git",
    });
    expect(tool("edit_file").describe({ path: ".PseudoClaude/settings.json" }, { workdir })).toMatchObject({
      protectedArea: ".PseudoClaude",
    });
    expect(tool("write_file").describe({ path: "../x" }, { workdir }).refusal).toContain(
      "outside the working directory",
    );
    // Input that is not an object never reaches describe(): the Registry refuses it first.
    const registry = new Registry();
    registerSystemTools(registry);
    expect(registry.prepare("write_file", "not an object")).toMatchObject({
      ok: false,
      result: { errorType: "invalid_arguments" },
    });
  });
});

describe("P10 with symlinked protected folders", () => {
  it("write_file and edit_file report .PseudoClaude and .git by either name, so the engine asks", async () => {
    await mkdir(path.join(workdir, "pc", "skills"), { recursive: true });
    await mkdir(path.join(workdir, "gitdir", "hooks"), { recursive: true });
    await symlink("pc", path.join(workdir, ".PseudoClaude"));
    await symlink("gitdir", path.join(workdir, ".git"));
    for (const name of ["write_file", "edit_file"]) {
      for (const given of [".PseudoClaude/settings.json", "pc/settings.json", "pc/skills/x/SKILL.md"]) {
        expect(tool(name).describe({ path: given }, { workdir }), `${name} ${given}`).toMatchObject({
          protectedArea: ".PseudoClaude",
        });
      }
      for (const given of [".git/hooks/pre-commit", "gitdir/hooks/pre-commit"]) {
        expect(tool(name).describe({ path: given }, { workdir }), `${name} ${given}`).toMatchObject({
          protectedArea: ".git",
        });
      }
      expect(tool(name).describe({ path: "src/a.ts" }, { workdir }).protectedArea).toBeUndefined();
    }
  });
});

describe("confined-fs: every open is checked where it is used", () => {
  it("a write does not recreate a folder that existed at the check and vanished since", async () => {
    await expect(writeConfined({ root: workdir, relative: "vanished/file.txt" }, "x", 0)).rejects.toThrow(
      /vanished changed while writing \(the folder was removed or moved\)/,
    );
    await expect(readdir(workdir)).resolves.not.toContain("vanished");
    // The folders confinement saw missing are created.
    await writeConfined({ root: workdir, relative: "fresh/deep/file.txt" }, "x", 2);
    expect(await readFile(path.join(workdir, "fresh/deep/file.txt"), "utf8")).toBe("x");
  });

  it("a symlink on the way is never followed once the path was checked, even one pointing inside", async () => {
    await symlink("src", path.join(workdir, "src-link"));
    await expect(openConfined({ root: workdir, relative: "src-link/a.ts" }, "reading")).rejects.toThrow(
      /src-link changed while reading \(a symlink was swapped in\)/,
    );
    await expect(writeConfined({ root: workdir, relative: "src-link/new.txt" }, "x", 0)).rejects.toThrow(
      /a symlink was swapped in/,
    );
    expect(await readdir(path.join(workdir, "src"))).toEqual(["a.ts", "nested"]);
    // The final component too: a file swapped for a symlink is refused, not read through.
    await symlink(path.join(outside, "secret.txt"), path.join(workdir, "src", "b.ts"));
    await expect(openConfined({ root: workdir, relative: "src/b.ts" }, "reading")).rejects.toThrow(
      /src\/b.ts changed while reading/,
    );
  });

  it("read_file of a FIFO returns at once (opened non-blocking, refused from its type)", async () => {
    const fifo = path.join(workdir, "pipe");
    execFileSync("mkfifo", [fifo]);
    const started = Date.now();
    expect((await call("read_file", { path: "pipe" })).result).toMatchObject({
      ok: false,
      errorType: "not_a_file",
    });
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it("list_files of an empty folder says nothing matches (it used to throw)", async () => {
    await mkdir(path.join(workdir, "empty"));
    expect((await call("list_files", { path: "empty" })).result).toMatchObject({
      ok: true,
      content: 'no files match "**/*" in empty',
    });
  });
});

describe("run_command", () => {
  it("a call given no process runner fails by name instead of starting a process nobody owns", async () => {
    const { processes: _none, ...withoutRunner } = context();
    await expect(tool("run_command").execute({ command: "true" }, withoutRunner)).rejects.toThrow(
      /run_command starts a process, but its call was given no process runner/,
    );
  });

  it("runs in the workdir and reports output and exit code", async () => {
    const { result } = await call("run_command", { command: "pwd; echo oops >&2; exit 2" });
    expect(result).toMatchObject({ ok: false, errorType: "command_failed", metadata: { exitCode: 2 } });
    expect(result.content).toContain(workdir);
    expect(result.content).toContain("[stderr]\noops");
    expect(result.content).toContain("[exit code 2]");
    expect(tool("run_command").describe({ command: "ls -la" }, { workdir })).toEqual({
      cwd: workdir,
      command: "ls -la",
    });
  });

  it("X9: `cat` with no arguments returns at once because stdin is closed", async () => {
    const started = Date.now();
    const { result } = await call("run_command", { command: "cat" });
    expect(result).toMatchObject({ ok: true, content: "(no output)" });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("X1: times out and says so", async () => {
    const { result } = await call("run_command", { command: "sleep 600", timeout_ms: 300 });
    expect(result).toMatchObject({ ok: false, errorType: "timeout", metadata: { timedOut: true } });
  });

  it("caps the model's copy and keeps the full output for the UI", async () => {
    const execution = await call("run_command", { command: "seq 1 20000" });
    expect(execution.result.ok).toBe(true);
    expect(execution.result.content.length).toBeLessThanOrEqual(MODEL_OUTPUT_CAP);
    expect(execution.result.content.startsWith("1\n2\n")).toBe(true);
    expect(execution.result.content.endsWith("19999\n20000")).toBe(true);
    expect(execution.fullOutput?.split("\n")).toHaveLength(20000);
  });

  it("X7: an aborted call is canceled", async () => {
    const controller = new AbortController();
    const running = tool("run_command").execute(
      { command: "sleep 600" },
      { workdir, processes, callId: "c", signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 100);
    const { result } = await running;
    expect(result).toMatchObject({ ok: false, errorType: "canceled" });
  });
});

describe("search_code guards", () => {
  it("runs the model's pattern in the linear-time engine: a catastrophically backtracking one answers at once (S18)", async () => {
    await writeFile(path.join(workdir, "evil.txt"), `${"a".repeat(5000)}b\n${"a".repeat(40)}\n`);
    const search = createSearchCodeTool();
    const { result } = await search.execute({ pattern: "^(a+)+$", path: "evil.txt" }, context());
    expect(result).toMatchObject({ ok: true, metadata: { matches: 1 } });
    expect(result.content).toBe(`evil.txt:2: ${"a".repeat(40)}`);
  });

  it("refuses what the engine cannot run, saying why", async () => {
    await writeFile(path.join(workdir, "a.txt"), "abc\n");
    const { result } = await createSearchCodeTool().execute({ pattern: "a(?=b)" }, context());
    expect(result).toMatchObject({ ok: false, errorType: "invalid_arguments" });
    expect(result.content).toMatch(/invalid regular expression: .*lookahead/);
  });

  it("stops a search that overruns its time budget and says how far it got", async () => {
    await writeFile(path.join(workdir, "one.txt"), "needle\n");
    await writeFile(path.join(workdir, "two.txt"), "needle\n");
    const { result } = await createSearchCodeTool({ timeBudgetMs: -1 }).execute(
      { pattern: "needle" },
      context(),
    );
    expect(result.content).toMatch(
      /\[search stopped at \S+ after .* \(0 of \d+ files searched\); narrow the path or glob\]/,
    );
  });
});
