// Time from launch to the printed URL (wall clock, measured from outside the process): `npm start` with
// the pages already built — warm (the server's cached bundle is current) and cold (the cache emptied
// before each start, so it bundles first: what the first start after a source change costs) — and the
// bin of the packed package installed into a temp prefix (packing and installing happen once, untimed).
// Median of 5 each, after one untimed start.
import { execFile, spawn } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { BUNDLE_CACHE } from "../scripts/server-bundle.mjs";
import { median, round, type Figure, type FigureRow } from "./harness.ts";

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL("../", import.meta.url));
/** Issue 23: `npm start` with built pages → printed URL. */
const NPM_START_TARGET_MS = 1500;
/** The installed bin's target (issue 13). */
const BIN_TARGET_MS = 2000;

/** CPU milliseconds (user + system) so far of the processes in `group` and the children they reaped. */
function groupCpuMs(group: number): number {
  let ticks = 0;
  for (const pid of readdirSync("/proc").filter((entry) => /^\d+$/.test(entry))) {
    try {
      // Fields after "(comm) ": state ppid pgrp … utime(14) stime(15) cutime(16) cstime(17), 1-based.
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      if (Number(fields[2]) !== group) continue;
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    } catch {
      // The process ended between the listing and the read: its time is in its parent's cutime.
      continue;
    }
  }
  return (ticks * 1000) / CLOCK_TICKS;
}
const CLOCK_TICKS = 100;

interface Start {
  /** Wall clock from spawn to PLAYGROUND_URL on stdout. */
  wallMs: number;
  /** CPU the launch used by then (the figure a loaded machine does not inflate). */
  cpuMs: number;
}

/** Spawn to PLAYGROUND_URL on stdout; the process group is then stopped. */
async function timeToUrl(command: string, args: string[], cwd: string): Promise<Start> {
  const started = performance.now();
  const child = spawn(command, args, { cwd, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    return await new Promise<Start>((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes("PLAYGROUND_URL="))
          resolve({ wallMs: performance.now() - started, cpuMs: groupCpuMs(child.pid!) });
      });
      void exited.then(() => reject(new Error(`${command} exited before printing its URL:\n${output}`)));
    });
  } finally {
    process.kill(-child.pid!, "SIGTERM");
    await exited;
  }
}

async function samples(rounds: number, start: () => Promise<Start>): Promise<Start[]> {
  await start();
  const times: Start[] = [];
  for (let round = 0; round < rounds; round++) times.push(await start());
  return times;
}

function row(
  workload: string,
  starts: Start[],
  note: string,
  targetMs: number | null,
  baseline?: Start[],
): FigureRow {
  const value = median(starts.map((start) => start.wallMs));
  const baselineValue = baseline ? median(baseline.map((start) => start.wallMs)) : null;
  const cpu = median(starts.map((start) => start.cpuMs));
  return {
    figure: "start-time",
    workload,
    unit: "ms",
    median: round(value, 0),
    baselineMedian: baselineValue === null ? null : round(baselineValue, 0),
    ratio: baselineValue === null ? null : round(value / baselineValue, 2),
    target: targetMs === null ? "report" : `≤ ${targetMs / 1000} s to the printed URL`,
    status: targetMs === null ? "report" : value <= targetMs ? "pass" : "miss",
    note: `${note}; CPU median ${round(cpu, 0)} ms${
      baseline ? ` (baseline ${round(median(baseline.map((start) => start.cpuMs)), 0)} ms)` : ""
    }`,
    details: {
      samplesMs: starts.map((start) => round(start.wallMs, 0)),
      cpuSamplesMs: starts.map((start) => round(start.cpuMs, 0)),
      ...(baseline ? { baselineSamplesMs: baseline.map((start) => round(start.wallMs, 0)) } : {}),
    },
  };
}

export const startTimeFigure: Figure = {
  name: "start-time",
  workload:
    "launch → printed URL: npm start (pages built; bundle cached, and bundle rebuilt) and the installed bin",
  target: "npm start ≤ 1.5 s, installed bin ≤ 2 s (median of 5)",
  async run({ quick }): Promise<FigureRow[]> {
    const rounds = quick ? 2 : 5;
    const root = await mkdtemp(path.join(os.tmpdir(), "bench-start-"));
    try {
      const home = path.join(root, "home");
      const folder = path.join(root, "project");
      await mkdir(home);
      await mkdir(folder);
      const flags = ["--port", "0", "--home", home];
      const npmStart = () => timeToUrl("npm", ["start", "--", ...flags, "--workdir", folder], repoRoot);
      // Same-run baseline: `npm run dev` is what `npm start` was (ensure-build, then tsx server/index.ts).
      const tsx = await samples(rounds, () =>
        timeToUrl("npm", ["run", "dev", "--", ...flags, "--workdir", folder], repoRoot),
      );
      const warm = await samples(rounds, npmStart);
      const cold = await samples(rounds, async () => {
        await rm(BUNDLE_CACHE, { recursive: true, force: true });
        return npmStart();
      });
      // Packing runs prepack (pages, if stale, and the server bundle); installing resolves the
      // dependencies from the npm cache or registry. Neither is timed.
      const packed = await run("npm", ["pack", "--pack-destination", root], {
        cwd: repoRoot,
        maxBuffer: 64 << 20,
      });
      const tarball = path.join(root, packed.stdout.trim().split("\n").at(-1)!);
      const prefix = path.join(root, "prefix");
      await run(
        "npm",
        ["install", "-g", "--prefix", prefix, tarball, "--prefer-offline", "--no-audit", "--no-fund"],
        {
          cwd: root,
          maxBuffer: 64 << 20,
        },
      );
      const bin = path.join(prefix, "bin", "pseudoclaude-playground");
      const installed = await samples(rounds, () => timeToUrl(bin, flags, folder));
      const load = os.loadavg()[0].toFixed(1);
      return [
        row(
          "npm start, pages built, server bundle cached (scripts/start.mjs)",
          warm,
          `wall clock from spawn, baseline npm run dev (tsx, as npm start was); load average ${load}`,
          NPM_START_TARGET_MS,
          tsx,
        ),
        row(
          "npm start, pages built, server bundle rebuilt (first start after a source change)",
          cold,
          `the bundle cache emptied before each start; load average ${load}`,
          null,
        ),
        row(
          "installed bin (dist/ bundle, node)",
          installed,
          `npm install -g --prefix TMP ./pkg.tgz; load average ${load}`,
          BIN_TARGET_MS,
        ),
      ];
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  },
};
