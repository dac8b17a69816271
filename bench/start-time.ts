// Time from launch to the printed URL (wall clock, measured from outside the process): `npm start` with
// the pages already built, and the bin of the packed package installed into a temp prefix (packing and
// installing happen once, untimed). Median of 5 each, after one untimed start.
import { execFile, spawn } from "node:child_process";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { median, round, type Figure, type FigureRow } from "./harness.ts";

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL("../", import.meta.url));
const TARGET_MS = 2000;

/** Milliseconds from spawn to PLAYGROUND_URL on stdout; the process group is then stopped. */
async function timeToUrl(command: string, args: string[], cwd: string): Promise<number> {
  const started = performance.now();
  const child = spawn(command, args, { cwd, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    return await new Promise<number>((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes("PLAYGROUND_URL=")) resolve(performance.now() - started);
      });
      void exited.then(() => reject(new Error(`${command} exited before printing its URL:\n${output}`)));
    });
  } finally {
    process.kill(-child.pid!, "SIGTERM");
    await exited;
  }
}

async function samples(rounds: number, start: () => Promise<number>): Promise<number[]> {
  await start();
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) times.push(await start());
  return times;
}

function row(workload: string, times: number[], note: string): FigureRow {
  const value = median(times);
  return {
    figure: "start-time",
    workload,
    unit: "ms",
    median: round(value, 0),
    baselineMedian: null,
    ratio: null,
    target: "≤ 2 s to the printed URL",
    status: value <= TARGET_MS ? "pass" : "miss",
    note,
    details: { samplesMs: times.map((time) => round(time, 0)) },
  };
}

export const startTimeFigure: Figure = {
  name: "start-time",
  workload: "launch → printed URL: npm start (pages built) and the installed bin",
  target: "≤ 2 s (median of 5)",
  async run({ quick }): Promise<FigureRow[]> {
    const rounds = quick ? 2 : 5;
    const root = await mkdtemp(path.join(os.tmpdir(), "bench-start-"));
    try {
      const home = path.join(root, "home");
      const folder = path.join(root, "project");
      await mkdir(home);
      await mkdir(folder);
      const flags = ["--port", "0", "--home", home];
      const npmStart = await samples(rounds, () =>
        timeToUrl("npm", ["start", "--", ...flags, "--workdir", folder], repoRoot),
      );
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
          "npm start, pages built (tsx server/index.ts)",
          npmStart,
          `wall clock from spawn; load average ${load}`,
        ),
        row(
          "installed bin (dist/ bundle, node)",
          installed,
          `npm install -g --prefix TMP ./pkg.tgz; load average ${load}`,
        ),
      ];
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  },
};
