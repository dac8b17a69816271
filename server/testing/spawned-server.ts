// server/index.ts (bundled) as a real child process on a temp home, workdir and scenario folder, for tests
// that need the whole server: its stdout/stderr, a crash (`kill -9`) and a restart on the same home.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import type { TestServer } from "../transport/testing/harness.ts";
import { serverBundle } from "./server-bundle.ts";

export interface SpawnedServer {
  child: ChildProcess;
  port: number;
  token: string;
  /** What the harness's TestClient needs to connect. */
  target: TestServer;
  stdout(): string;
  stderr(): string;
  exited: Promise<void>;
}

export interface SpawnOptions {
  home: string;
  workdir: string;
  scenarios: string;
  env?: Record<string, string>;
}

export async function spawnServer(options: SpawnOptions): Promise<SpawnedServer> {
  const child = spawn(
    process.execPath,
    [
      // server/index.ts bundled once per state of the sources (server-bundle.ts): a start in about 1 s.
      serverBundle(),
      "--port",
      "0",
      "--home",
      options.home,
      "--workdir",
      options.workdir,
      "--scenarios",
      options.scenarios,
    ],
    { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...options.env } },
  );
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const deadline = Date.now() + 20_000;
  while (!/PLAYGROUND_URL=\S+/.test(stdout)) {
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill("SIGKILL");
      throw new Error(`server did not start: ${stdout}${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const url = /PLAYGROUND_URL=(\S+)/.exec(stdout)![1];
  const parsed = /^http:\/\/127\.0\.0\.1:(\d+)\/#token=([0-9a-f]{64})$/.exec(url);
  if (!parsed) throw new Error(`unexpected URL ${url}`);
  const port = Number(parsed[1]);
  const token = parsed[2];
  return {
    child,
    port,
    token,
    target: { port, token, origin: `http://127.0.0.1:${port}` } as TestServer,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
  };
}

/** PIDs of processes whose command line contains `pattern` (pgrep -f; none is an empty list). */
export function processesMatching(pattern: string): number[] {
  try {
    return execFileSync("pgrep", ["-f", pattern], { encoding: "utf8" })
      .trim()
      .split("\n")
      .filter(Boolean)
      .map(Number);
  } catch (error) {
    if ((error as { status?: number }).status === 1) return []; // pgrep: nothing matched
    throw error;
  }
}

/** Polls `condition` until it holds or the deadline passes; returns whether it held. */
export async function eventually(
  condition: () => boolean | Promise<boolean>,
  timeoutMs: number,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
