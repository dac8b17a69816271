// server/index.ts (its cached bundle, as `npm start` runs it) as a real child process: the banner and
// machine-readable URL (what the browser tests parse), and X8 — SIGTERM stops runs and kills every tool
// process before exiting.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sessionsDirectory } from "./session/session-hub.ts";
import { readSessionLog } from "./session/session-log.ts";
import { TestClient, rawRequest, type TestServer } from "./transport/testing/harness.ts";
import { serverBundle } from "./testing/server-bundle.ts";

const SLEEP_SCENARIO = `name: sleep
match: "sleep"
turns:
  - tool_calls:
      - { name: run_command, input: { command: "sleep 647" } }
  - text: "never"
`;

let root: string;
let child: ChildProcess | undefined;
afterEach(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await rm(root, { recursive: true, force: true });
});

function processesMatching(pattern: string): string[] {
  try {
    return execFileSync("pgrep", ["-f", pattern], { encoding: "utf8" }).trim().split("\n").filter(Boolean);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}

async function startCli(
  options: { demo?: boolean; scenarios?: string; env?: Record<string, string> } = {},
): Promise<{
  url: string;
  port: number;
  token: string;
  stdout: () => string;
  stderr: () => string;
}> {
  root = await realpath(await mkdtemp(path.join(tmpdir(), "playground-cli-")));
  const workdir = path.join(root, "work");
  const scenarios = path.join(root, "scenarios");
  await mkdir(workdir, { recursive: true });
  await mkdir(scenarios, { recursive: true });
  await writeFile(path.join(scenarios, "sleep.yaml"), SLEEP_SCENARIO);
  child = spawn(
    process.execPath,
    [
      // server/index.ts bundled (the bundle npm start runs, rebuilt when a source changes): no tsx compile.
      serverBundle(),
      "--port",
      "0",
      "--home",
      path.join(root, "home"),
      ...(options.demo ? [] : ["--workdir", workdir]),
      "--scenarios",
      options.scenarios ?? scenarios,
    ],
    { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...options.env } },
  );
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const deadline = Date.now() + 20_000;
  while (!/PLAYGROUND_URL=\S+/.test(stdout)) {
    if (Date.now() > deadline || child.exitCode !== null)
      throw new Error(`server did not start: ${stdout}${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const url = /PLAYGROUND_URL=(\S+)/.exec(stdout)![1];
  const parsed = /^http:\/\/127\.0\.0\.1:(\d+)\/#token=([0-9a-f]{64})$/.exec(url);
  if (!parsed) throw new Error(`unexpected URL ${url}`);
  return { url, port: Number(parsed[1]), token: parsed[2], stdout: () => stdout, stderr: () => stderr };
}

describe("server/index.ts", () => {
  it("--help names the commands a user starts it with, not the file a developer runs", async () => {
    root = await realpath(await mkdtemp(path.join(tmpdir(), "playground-cli-")));
    // The installed package's bin passes --help through to this same bundle (bin/pseudoclaude-playground.mjs).
    const help = execFileSync(process.execPath, [serverBundle(), "--help"], { encoding: "utf8" });
    expect(help).toMatch(/^usage: npm start -- \[--port N\]/);
    expect(help).toContain("pseudoclaude-playground [--port N]");
    expect(help).not.toContain("tsx server/index.ts");
    // What --workdir defaults to, for each of the two ways in.
    expect(help).toContain("the installed command: the current folder");
  });

  it("prints one authorised URL, the start time and PLAYGROUND_URL; serves the page", async () => {
    const started = await startCli();
    expect(started.stdout()).toMatch(/ready in \d+ ms/);
    expect(started.stdout()).toContain("sandbox: on (bubblewrap; network off unless a session allows it)");
    expect(started.stdout().split(started.token).length - 1).toBe(2); // the banner URL and PLAYGROUND_URL only
    const page = await rawRequest(started.port, {
      path: "/",
      headers: { Host: `127.0.0.1:${started.port}` },
    });
    expect(page.status).toBeLessThan(600);
    expect(started.stderr()).not.toContain(started.token);
  }, 30_000);

  it("X8: SIGTERM cancels the run, kills its tool processes and exits 0", async () => {
    const started = await startCli();
    const server = {
      port: started.port,
      token: started.token,
      origin: `http://127.0.0.1:${started.port}`,
    } as TestServer;
    const client = await TestClient.connect(server);
    const sessionId = await client.createSession();
    client.send({ type: "send_message", sessionId, text: "sleep now" });
    await client.answerNextApproval(sessionId);
    await client.waitForEvent("tool_started", { sessionId });
    const deadline = Date.now() + 5_000;
    while (processesMatching("sleep 647").length === 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(processesMatching("sleep 647").length).toBeGreaterThan(0);

    const exited = new Promise<number | null>((resolve) => child!.on("exit", (code) => resolve(code)));
    child!.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(processesMatching("sleep 647")).toEqual([]);
    // The run's end was written to the log before the process exited.
    const log = await readSessionLog(
      path.join(sessionsDirectory(path.join(root, "home")), `${sessionId}.jsonl`),
    );
    const stop = log.events.map((record) => record.event).find((event) => event.type === "stop");
    expect(stop).toMatchObject({ type: "stop", reason: "canceled" });
    client.close();
  }, 30_000);

  it("without --workdir, the demo copy is trusted for this start and never written to the trust store", async () => {
    const started = await startCli({ demo: true });
    const demo = /^workdir: (\S+) \(a fresh copy of examples\/demo-workdir, trusted for this start\)$/m.exec(
      started.stdout(),
    )?.[1];
    expect(demo, started.stdout()).toBeDefined();
    try {
      const server = { port: started.port, token: started.token, origin: `http://127.0.0.1:${started.port}` };
      const client = await TestClient.connect(server as TestServer);
      const sessionId = await client.createSession();
      const opened = await client.waitForEvent("session_opened", { sessionId });
      expect(opened.event.session.trust).toMatchObject({ folder: demo, trusted: true, via: "demo" });
      client.close();
      expect(existsSync(path.join(root, "home", ".PseudoClaude", "trusted-folders.json"))).toBe(false);
    } finally {
      await rm(demo!, { recursive: true, force: true });
    }
  }, 30_000);

  it("without --workdir, the demo copy's own MCP server starts, and the MCP scenario calls its tools", async () => {
    const started = await startCli({
      demo: true,
      scenarios: path.join(import.meta.dirname, "..", "scenarios"),
    });
    const demo = /^workdir: (\S+) \(a fresh copy/m.exec(started.stdout())?.[1];
    try {
      const server = { port: started.port, token: started.token, origin: `http://127.0.0.1:${started.port}` };
      const client = await TestClient.connect(server as TestServer);
      const sessionId = await client.createSession();
      const connected = await client.waitForEvent("mcp_state", {
        sessionId,
        timeoutMs: 20_000,
        where: (event) => event.servers.some((entry) => entry.status === "connected"),
      });
      expect(connected.event.servers[0]).toMatchObject({ name: "tickets", scope: "workdir" });
      expect(connected.event.servers[0].tools.map((tool) => tool.name)).toEqual([
        "mcp__tickets__search_tickets",
        "mcp__tickets__get_ticket",
      ]);
      client.send({ type: "send_message", sessionId, text: "which ticket tracks the cents bug?" });
      // Every MCP call asks, whatever the server says about itself.
      const first = await client.answerNextApproval(sessionId);
      await client.answerNextApproval(
        sessionId,
        { kind: "allow_once" },
        { from: client.messages.indexOf(first) + 1 },
      );
      const stop = await client.waitForEvent("stop", { sessionId, timeoutMs: 20_000 });
      expect(stop.event.reason).toBe("completed");
      const results = client
        .events(sessionId)
        .flatMap((message) => (message.event.type === "tool_result" ? [message.event.result] : []));
      expect(results.map((result) => [result.tool, result.ok])).toEqual([
        ["mcp__tickets__search_tickets", true],
        ["mcp__tickets__get_ticket", true],
      ]);
      expect(results[1].content).toContain("ACME-101 [open] Revenue is off by a cent on Sprocket lines");
      // One count per definition: the MCP panel's figure is the request's tool segment.
      const segments = client.requests(sessionId)[0]?.segments ?? [];
      for (const tool of connected.event.servers[0].tools) {
        expect(segments.find((segment) => segment.name === tool.name)?.tokens).toBe(tool.definitionTokens);
      }
      client.close();
    } finally {
      if (demo) await rm(demo, { recursive: true, force: true });
    }
  }, 60_000);
  for (const [signal, what] of [
    ["SIGINT", "Ctrl-C"],
    ["SIGTERM", "a service stop"],
  ] as const) {
    it(`without --workdir, ${signal} (${what}) removes the demo copy before exiting`, async () => {
      const temp = await realpath(await mkdtemp(path.join(tmpdir(), "playground-demo-tmp-")));
      try {
        const started = await startCli({ demo: true, env: { TMPDIR: temp } });
        const demo = /^workdir: (\S+) \(a fresh copy/m.exec(started.stdout())?.[1];
        expect(demo, started.stdout()).toBeDefined();
        expect(path.dirname(demo!)).toBe(temp);
        expect(existsSync(path.join(demo!, "data", "sales.csv"))).toBe(true);
        // A session on the copy, so it is in use when the signal comes.
        const server = {
          port: started.port,
          token: started.token,
          origin: `http://127.0.0.1:${started.port}`,
        };
        const client = await TestClient.connect(server as TestServer);
        await client.waitForEvent("catalog_snapshot", { sessionId: await client.createSession() });
        const exited = new Promise<number | null>((resolve) => child!.on("exit", (code) => resolve(code)));
        child!.kill(signal);
        expect(await exited).toBe(0);
        expect(existsSync(demo!)).toBe(false);
        expect(started.stderr()).toContain(`removed the demo copy ${demo}`);
        client.close();
      } finally {
        await rm(temp, { recursive: true, force: true });
      }
    }, 30_000);
  }
});
