import { spawn, type ChildProcess } from "node:child_process";
import {
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rename,
  rm,
  unlink,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ToolExecution } from "../types.ts";
import { createSystemTools, type SystemTool } from "./index.ts";
import { ProcessRunner } from "../process-runner.ts";

/** This file's own process runner (the composition root a test is). */
const processes = new ProcessRunner();

// SECURITY X12: another process swaps a folder of the workdir for a symlink to a folder outside it (and
// back) as fast as it can while the file tools run. No call may return outside content or land a write
// outside, no temp file may be left anywhere, and a call that loses the race is a result, never a throw.

/** Calls per tool; each phase also stops at its deadline so the suite stays fast on a loaded machine. */
const TRIES = 300;
const WALK_TRIES = 100;
const PHASE_DEADLINE_MS = 6_000;
/**
 * Stat calls the swapper keeps the folder in place for between swaps: up to HOLD_CALLS (a swap hits any
 * point of a call), or, with the given share, up to 50 times that (long enough for a whole call to succeed,
 * fsync included, so the test also shows the tools still work).
 */
const HOLD_CALLS = 8;
const LONG_HOLDS = { reads: 0.1, writes: 0.7 };
/** edit_file edits a fresh file each call, so a file removed by one lost race does not end the phase. */
const TWINS = TRIES;

const OUTSIDE_MARK = "OUTSIDE-CONTENT";

let base: string;
let workdir: string;
let outside: string;
/** The swapped folder; while it is swapped out it waits in `parked`, outside the workdir. */
let swap: string;
let parked: string;
let spare: string;
let swapper: ChildProcess | undefined;
/** Every file outside with its content, before the race. */
let outsideBefore: Map<string, string>;
const tools = new Map(createSystemTools().map((tool) => [tool.definition.name, tool]));
const created: string[] = [];

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "pc-races-")));
  created.push(base);
  workdir = path.join(base, "ws");
  outside = path.join(base, "outside");
  swap = path.join(workdir, "swap");
  parked = path.join(base, "parked");
  spare = path.join(base, "spare-link");
  await mkdir(swap, { recursive: true });
  await mkdir(outside);
  await writeFile(path.join(swap, "f.txt"), "inside A-side\n");
  await writeFile(path.join(outside, "f.txt"), `${OUTSIDE_MARK} A-side\n`);
  await writeFile(path.join(outside, "only-outside.txt"), `${OUTSIDE_MARK}\n`);
  outsideBefore = await snapshot(outside);
});

/** Files in the swapped folder, each with a twin of the same name outside. */
async function writeTwins(): Promise<void> {
  for (let index = 0; index < TWINS; index++) {
    await writeFile(path.join(swap, `twin-${index}.txt`), "inside A-side\n");
    await writeFile(path.join(outside, `twin-${index}.txt`), `${OUTSIDE_MARK} A-side\n`);
  }
  outsideBefore = await snapshot(outside);
}

afterEach(async () => {
  await stopSwapper();
});

afterAll(async () => {
  for (const folder of created) await rm(folder, { recursive: true, force: true });
});

/** A real child process looping: folder → (parked outside) symlink to `outside` → folder → … */
async function startSwapper(longShare: number): Promise<void> {
  // Renames only (creating a symlink is much slower than renaming one): a prepared link waits in `spare`.
  const script = `
    const fs = require("node:fs");
    const [swap, parked, spare, outside, holdCalls, longShare] = process.argv.slice(1);
    fs.symlinkSync(outside, spare);
    let recreated = 0;
    // Puts the real folder back; a folder a tool created while ours was away is moved aside (outside).
    function settle() {
      for (;;) {
        try {
          const info = fs.lstatSync(swap, { throwIfNoEntry: false });
          if (info && info.isSymbolicLink()) fs.renameSync(swap, spare);
          else if (info) fs.renameSync(swap, parked + "-recreated-" + recreated++);
          fs.renameSync(parked, swap);
          return;
        } catch {}
      }
    }
    for (;;) {
      // Keeps the folder in place for a random number of cheap system calls (see HOLD_CALLS).
      const hold = Math.random() * (Math.random() >= longShare ? holdCalls : holdCalls * 50);
      for (let count = Math.floor(hold); count > 0; count--) fs.statSync(outside);
      fs.renameSync(swap, parked);
      try {
        fs.renameSync(spare, swap);
        fs.renameSync(swap, spare);
        fs.renameSync(parked, swap);
      } catch {
        settle();
      }
    }`;
  const child = spawn(
    process.execPath,
    ["-e", script, swap, parked, spare, outside, String(HOLD_CALLS), String(longShare)],
    { stdio: "ignore" },
  );
  swapper = child;
  // Wait until the swap is really happening: the folder is seen as a symlink at least once.
  const deadline = Date.now() + 5_000;
  for (;;) {
    const info = await lstat(swap).catch(() => undefined);
    if (info?.isSymbolicLink()) return;
    if (child.exitCode !== null) throw new Error(`the swapper exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error("the swapper never swapped the folder for a symlink");
  }
}

/** Kills the swapper and puts the real folder back where it belongs. */
async function stopSwapper(): Promise<void> {
  const child = swapper;
  swapper = undefined;
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  }
  await rm(spare, { force: true });
  if (!(await lstat(parked).catch(() => undefined))) return;
  const current = await lstat(swap).catch(() => undefined);
  if (current?.isSymbolicLink()) await unlink(swap);
  else if (current) await rename(swap, `${parked}-recreated-last`);
  await rename(parked, swap);
}

function tool(name: string): SystemTool {
  const found = tools.get(name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
}

/** Runs up to `tries` calls (or until the deadline) while the swapper runs; every call must resolve. */
async function race(
  name: string,
  tries: number,
  input: (index: number) => Record<string, unknown>,
): Promise<ToolExecution[]> {
  await startSwapper(name === "write_file" || name === "edit_file" ? LONG_HOLDS.writes : LONG_HOLDS.reads);
  const executions: ToolExecution[] = [];
  const deadline = Date.now() + PHASE_DEADLINE_MS;
  for (let index = 0; index < tries && Date.now() < deadline; index++) {
    executions.push(
      await tool(name).execute(input(index), {
        workdir,
        processes,
        callId: `race-${index}`,
        signal: new AbortController().signal,
      }),
    );
  }
  await stopSwapper();
  return executions;
}

/** Every file below `folder` (not following symlinks), relative to it. */
async function allFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => !entry.isDirectory())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)))
    .sort();
}

async function snapshot(folder: string): Promise<Map<string, string>> {
  const files = await allFiles(folder);
  const contents = await Promise.all(files.map((file) => readFile(path.join(folder, file), "utf8")));
  return new Map(files.map((file, index) => [file, contents[index]!]));
}

/** What escaped the workdir in a phase: calls that returned outside content, outside files added or
 *  changed, temp files left anywhere. */
async function escapes(executions: ToolExecution[], leakMark: string) {
  const leakedCalls = executions.filter(({ result }) => String(result.content).includes(leakMark)).length;
  const outsideNow = await snapshot(outside);
  const outsideChanged = [...new Set([...outsideBefore.keys(), ...outsideNow.keys()])].filter(
    (file) => outsideBefore.get(file) !== outsideNow.get(file),
  );
  const tempFiles = (await allFiles(base)).filter((file) => file.endsWith(".tmp"));
  return { leakedCalls, outsideChanged, tempFiles, calls: summary(executions) };
}

const NOTHING_ESCAPED = { leakedCalls: 0, outsideChanged: [], tempFiles: [] };

/** A lost race is a refusal that says what happened, or the file being absent at that instant. */
function expectRefusalsExplained(executions: ToolExecution[]): void {
  for (const { result } of executions) {
    if (result.ok) continue;
    expect(["path_refused", "not_found"]).toContain(result.errorType);
    if (result.errorType === "path_refused") {
      expect(result.content).toMatch(/changed while|symlink/);
    }
  }
}

function summary(executions: ToolExecution[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { result } of executions) {
    const key = result.ok ? "ok" : result.errorType!;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

describe("X12: a folder swapped for a symlink while file tools run", () => {
  it("read_file never returns outside content", async () => {
    const executions = await race("read_file", TRIES, () => ({ path: "swap/f.txt" }));
    expect(await escapes(executions, OUTSIDE_MARK)).toMatchObject(NOTHING_ESCAPED);
    expect(executions.some(({ result }) => result.ok)).toBe(true);
    expectRefusalsExplained(executions);
  });

  it("write_file never lands a file outside and leaves no temp files", async () => {
    const executions = await race("write_file", TRIES, (index) => ({
      path: `swap/new-${index}.txt`,
      content: `written ${index}\n`,
    }));
    expect(await escapes(executions, OUTSIDE_MARK)).toMatchObject(NOTHING_ESCAPED);
    expect(summary(executions).ok ?? 0).toBeGreaterThan(0);
    expectRefusalsExplained(executions);
    // What was reported written is in the folder, with the content reported. (A write that found the folder
    // away creates it anew, and the swapper then moves that folder aside: still where the tool wrote it.)
    const folders = [swap, ...(await readdir(base)).filter((name) => name.includes("-recreated-"))];
    for (const [index, { result }] of executions.entries()) {
      if (!result.ok) continue;
      const copies = await Promise.all(
        folders.map((folder) =>
          readFile(path.resolve(base, folder, `new-${index}.txt`), "utf8").catch(() => undefined),
        ),
      );
      expect(copies).toContain(`written ${index}\n`);
    }
  });

  it("edit_file never reads or rewrites an outside file", async () => {
    await writeTwins();
    const executions = await race("edit_file", TRIES, (index) => ({
      path: `swap/twin-${index}.txt`,
      old_string: "A-side",
      new_string: "A-side+",
    }));
    expect(await escapes(executions, OUTSIDE_MARK)).toMatchObject(NOTHING_ESCAPED);
    expect(summary(executions).ok ?? 0).toBeGreaterThan(0);
    expectRefusalsExplained(executions);
    for (const [index, { result }] of executions.entries()) {
      const edited = await readFile(path.join(swap, `twin-${index}.txt`), "utf8").catch(() => undefined);
      if (result.ok) expect(edited).toBe("inside A-side+\n");
      // A write whose folder moved away right after its rename is removed again (it may have landed
      // outside), and the refusal says so; any other refused edit left the file as it was.
      else if (result.content.includes("the file written was removed")) expect(edited).toBeUndefined();
      else expect(edited).toBe("inside A-side\n");
    }
  });

  it("list_files never lists the outside folder", async () => {
    const executions = await race("list_files", WALK_TRIES, (index) => ({
      path: index % 2 === 0 ? "swap" : ".",
    }));
    expect(await escapes(executions, "only-outside.txt")).toMatchObject(NOTHING_ESCAPED);
    expect(executions.some(({ result }) => result.ok && result.content.includes("swap/f.txt"))).toBe(true);
    expectRefusalsExplained(executions);
  });

  it("search_code never searches the outside folder", async () => {
    const executions = await race("search_code", WALK_TRIES, (index) => ({
      pattern: "OUTSIDE|inside",
      path: index % 2 === 0 ? "swap" : ".",
    }));
    expect(await escapes(executions, OUTSIDE_MARK)).toMatchObject(NOTHING_ESCAPED);
    expect(executions.some(({ result }) => result.ok && result.content.includes("swap/f.txt:1"))).toBe(true);
    expectRefusalsExplained(executions);
  });
});
