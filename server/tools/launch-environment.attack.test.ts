// SECURITY.md S16 for the tools' processes (run_command, skill tools): variables a caller configures for a
// process reach that process, inside the sandbox, and never the host-side launcher. Through real
// bubblewrap, with real shared libraries and a fake `bwrap` first on the configured PATH.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, readlink, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import { plantHostileEnvironment, processView } from "./fixtures/hostile-environment.ts";
import { findProgram } from "./find-program.ts";
import { ProcessRunner } from "./process-runner.ts";
import { detectSandbox, sandboxPolicy } from "./sandbox.ts";

/** This file's own process runner (the composition root a test is). */
const processes = new ProcessRunner();

let root: string;
let workdir: string;
/** Outside the workdir and outside /tmp: where the fake bwrap would leave its mark on the host. */
let outside: string;

beforeAll(() => {
  expect(detectSandbox().available, detectSandbox().reason).toBe(true);
});

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), "pc-launch-env-"));
  workdir = path.join(root, "work");
  await mkdir(workdir);
  outside = await mkdtemp("/var/tmp/pc-launch-env-outside-");
});

afterEach(async () => {
  for (const folder of [root, outside]) await rm(folder, { recursive: true, force: true });
});

it("S16: a configured LD_PRELOAD, LD_LIBRARY_PATH, PATH and NODE_OPTIONS reach only the sandboxed process; the launcher is the real bwrap with a fixed environment", async () => {
  const hostile = await plantHostileEnvironment(workdir, outside);
  // The call and the test meet through two FIFOs outside the workdir (the call's writes to the workdir are
  // held until it ends, and a FIFO on the read-only root can still be opened).
  const ready = path.join(outside, "ready.fifo");
  const go = path.join(outside, "go.fifo");
  for (const fifo of [ready, go]) execFileSync("mkfifo", [fifo]);
  // Inside: record the environment and whether the preloaded library is mapped, then wait to be released,
  // so the host-side launcher can be looked at while it runs.
  const command = [
    `tr '\\0' '\\n' < /proc/$$/environ > inside-env.txt`,
    `grep -cF '${hostile.preloadLibrary}' /proc/$$/maps > inside-preloaded.txt`,
    `echo ready > ${ready}`,
    `read released < ${go}`,
  ].join("; ");
  let launcherPid: number | undefined;
  const running = processes.run({
    shellCommand: command,
    cwd: workdir,
    timeoutMs: 30_000,
    env: hostile.env,
    sandbox: sandboxPolicy({ workdir, settings: { network: false, homes: [] } }),
    onStart: (pid) => (launcherPid = pid),
  });
  expect(await readFile(ready, "utf8")).toBe("ready\n");
  const launcher = processView(launcherPid!);
  await writeFile(go, "go\n");
  const outcome = await running;
  expect(outcome.exitCode, outcome.stderr).toBe(0);

  // The host side: the real bubblewrap, none of the configured variables, nothing loaded from the workdir.
  expect(await readlink(`/proc/${launcherPid}/exe`).catch(() => "(gone)")).not.toContain(workdir);
  expect(await realpath(findProgram("bwrap")!)).toBe(launcher.mapped.find((file) => /bwrap$/.test(file)));
  for (const name of Object.keys(hostile.env)) {
    if (name === "PATH") expect(launcher.env.PATH ?? "").not.toContain(workdir);
    else expect(launcher.env[name], name).toBeUndefined();
  }
  expect(launcher.mapped.filter((file) => file.startsWith(workdir))).toEqual([]);
  expect(existsSync(hostile.fakeBwrapRan)).toBe(false);

  // Inside: every configured variable arrived, and the preloaded library is really loaded there.
  const inside = (await readFile(path.join(workdir, "inside-env.txt"), "utf8")).split("\n");
  for (const [name, value] of Object.entries(hostile.env)) expect(inside).toContain(`${name}=${value}`);
  expect(Number((await readFile(path.join(workdir, "inside-preloaded.txt"), "utf8")).trim())).toBeGreaterThan(
    0,
  );
});
