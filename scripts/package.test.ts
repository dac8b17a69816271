// The package as a user gets it: `npm pack` (prepack builds the pages and bundles the server), installed
// with `npm install -g --prefix TMP ./pkg.tgz` (it has no dependencies to fetch: the server and the CLI
// are bundled with theirs, and every package.json entry is a devDependency of the repo), then the
// installed bin started with a fresh home in a folder outside the repo, without --workdir: it serves the
// pages with no build step, that folder is the workdir, and a message sent through the page's protocol
// (a real WebSocket client) runs a scripted scenario to a completed stop, loading a builtin skill and
// predicting the prompt cache (the rules file the server reads at run time). Then the bin started inside
// its own package folder plays the demo: a fresh copy of examples/demo-workdir, whose MCP server starts
// (the copy is trusted) and answers a tool call. Slow (minutes): one test.
import { execFile, spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, expect, it } from "vitest";
import { ProtocolClient } from "../server/transport/protocol-client.ts";

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL("..", import.meta.url));
let root: string | undefined;

afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

function waitForUrl(output: () => string, exited: Promise<unknown>): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /PLAYGROUND_URL=(\S+)/.exec(output());
      if (match) {
        clearInterval(timer);
        resolve(match[1]);
      }
    }, 100);
    void exited.then(() => {
      clearInterval(timer);
      reject(new Error(`the installed bin exited before printing its URL:\n${output()}`));
    });
  });
}

interface Started {
  url: URL;
  output: () => string;
  stop: () => Promise<void>;
}

/** Starts the installed bin in `cwd` with a fresh home, and waits for the URL it prints. */
async function startBin(bin: string, cwd: string, home: string): Promise<Started> {
  let output = "";
  const child = spawn(bin, ["--port", "0", "--home", home], {
    cwd,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, HOME: home },
  });
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const stop = async () => {
    process.kill(-child.pid!, "SIGTERM");
    await exited;
  };
  try {
    const url = new URL(await waitForUrl(() => output, exited));
    return { url, output: () => output, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The page's own protocol over a real WebSocket, with the token the bin printed. */
async function connect(url: URL): Promise<ProtocolClient> {
  const token = /token=([0-9a-f]+)/.exec(url.hash)?.[1];
  expect(token).toBeDefined();
  return ProtocolClient.connectTo({ address: url.origin, token: token!, keepMessages: true });
}

it("packs, installs into a temp prefix, and from another folder serves the page and completes a run", async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "package-test-"));
  const packed = await run("npm", ["pack", "--pack-destination", root], {
    cwd: repoRoot,
    maxBuffer: 64 << 20,
  });
  const tarball = path.join(root, packed.stdout.trim().split("\n").at(-1)!);
  expect((await readdir(root)).filter((name) => name.endsWith(".tgz"))).toEqual([path.basename(tarball)]);
  const prefix = path.join(root, "prefix");
  await run(
    "npm",
    ["install", "-g", "--prefix", prefix, tarball, "--prefer-offline", "--no-audit", "--no-fund"],
    { cwd: root, maxBuffer: 64 << 20 },
  );
  // Nothing was fetched: the bundle needs no node_modules of its own.
  const installed = path.join(prefix, "lib", "node_modules", "pseudoclaude-playground");
  expect((await readdir(installed)).sort()).not.toContain("node_modules");
  const bin = path.join(prefix, "bin", "pseudoclaude-playground");

  // A project of the user's own, outside the repo: a CSV with a quoted comma.
  const folder = path.join(root, "some-project");
  await mkdir(path.join(folder, "data"), { recursive: true });
  await writeFile(
    path.join(folder, "data", "sales.csv"),
    'order_id,product,quantity\nA1,"Widget, large",2\nA2,Gizmo,3\n',
  );
  const home = path.join(root, "home");
  await mkdir(home);
  const server = await startBin(bin, folder, home);
  try {
    // No build step: the installed package serves the pages it shipped.
    expect(server.output()).not.toContain("Building the playground pages");
    expect(server.output()).toContain(`workdir: ${await realpath(folder)}`);
    const page = await fetch(new URL("/", server.url));
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("<html");
    const script = /src="(\/_next\/static\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    expect((await fetch(new URL(script!, server.url))).status).toBe(200);

    const client = await connect(server.url);
    try {
      const sessionId = await client.createSession({});
      const stop = await client.sendMessage(sessionId, "a csv report of data/sales.csv");
      expect(stop).toMatchObject({ reason: "completed" });
      const events = client.events(sessionId).map((message) => message.event);
      expect(events.filter((event) => event.type === "session_error")).toEqual([]);
      const activated = events.find((event) => event.type === "skill_activated");
      expect(activated).toMatchObject({ name: "csv-report", source: "builtin" });
      const results = events.flatMap((event) => (event.type === "tool_result" ? [event.result] : []));
      expect(results.map((result) => result.ok)).toEqual(results.map(() => true));
      expect(results.map((result) => result.content).join("\n")).toContain('"Widget, large"');
      // The prompt-cache prediction needs the rules the server reads from the package at run time.
      const requests = events.flatMap((event) =>
        event.type === "request" ? [client.resolveRequest(sessionId, event.snapshot)] : [],
      );
      expect(requests.length).toBeGreaterThan(1);
      for (const snapshot of requests) expect(snapshot.cache?.source).toContain("cache-rules.json");
    } finally {
      await client.close();
    }
  } finally {
    await server.stop();
  }

  // Inside its own package folder the bin plays the demo: a fresh copy of examples/demo-workdir.
  const demoHome = path.join(root, "demo-home");
  await mkdir(demoHome);
  const demo = await startBin(bin, installed, demoHome);
  try {
    expect(demo.output()).toContain("a fresh copy of examples/demo-workdir");
    const client = await connect(demo.url);
    try {
      const sessionId = await client.createSession({});
      const state = await client.waitForEvent("mcp_state", {
        sessionId,
        timeoutMs: 30_000,
        where: (event) => event.servers.some((server) => server.status === "connected"),
      });
      expect(state.event.servers.flatMap((server) => server.tools.map((tool) => tool.name))).toContain(
        "mcp__tickets__search_tickets",
      );
    } finally {
      await client.close();
    }
  } finally {
    await demo.stop();
  }
}, 900_000);
