// SECURITY.md S16 for MCP servers: a server's configured `env` (LD_PRELOAD, LD_LIBRARY_PATH, PATH,
// NODE_OPTIONS) reaches the server inside the sandbox and never the host-side launcher. Through real
// bubblewrap and the real reference server (server-everything over stdio).
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import { plantHostileEnvironment, processView } from "../tools/fixtures/hostile-environment.ts";
import { Registry } from "../tools/registry.ts";
import { detectSandbox } from "../tools/sandbox.ts";
import { McpServers } from "./mcp-servers.ts";
import { EVERYTHING_SERVER } from "./testing/processes.ts";

let root: string;
let workdir: string;
let outside: string;
let servers: McpServers | undefined;

beforeAll(() => {
  expect(detectSandbox().available, detectSandbox().reason).toBe(true);
});

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), "pc-mcp-launch-"));
  workdir = path.join(root, "work");
  await mkdir(workdir);
  outside = await mkdtemp("/var/tmp/pc-mcp-launch-outside-");
});

afterEach(async () => {
  await servers?.close();
  servers = undefined;
  for (const folder of [root, outside]) await rm(folder, { recursive: true, force: true });
});

it("S16: an MCP server's configured LD_PRELOAD, LD_LIBRARY_PATH, PATH and NODE_OPTIONS reach the server in the sandbox, not the launcher", async () => {
  const hostile = await plantHostileEnvironment(workdir, outside);
  servers = new McpServers({
    registry: new Registry(),
    workdir,
    sandbox: { homes: [] },
    clientVersion: "test",
  });
  await servers.start({
    servers: [
      {
        transport: "stdio",
        name: "everything",
        command: process.execPath,
        args: [EVERYTHING_SERVER, "stdio"],
        env: hostile.env,
        network: false,
        configFile: path.join(workdir, ".mcp.json"),
        scope: "workdir",
      },
    ],
    withheld: [],
    warnings: [],
  });
  const connection = servers.connection("everything")!;
  expect(connection.status, `${connection.error} ${connection.view().stderrTail}`).toBe("connected");

  const launcher = processView(connection.pid!);
  for (const name of Object.keys(hostile.env)) {
    if (name === "PATH") expect(launcher.env.PATH ?? "").not.toContain(workdir);
    else expect(launcher.env[name], name).toBeUndefined();
  }
  expect(launcher.mapped.filter((file) => file.startsWith(workdir))).toEqual([]);
  expect(existsSync(hostile.fakeBwrapRan)).toBe(false);

  // NODE_OPTIONS' script ran in the server (inside the sandbox) and saw every variable and the library.
  const reports = (await readFile(hostile.nodeReport, "utf8"))
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { env: Record<string, string>; preloaded: boolean });
  expect(reports.length).toBeGreaterThan(0);
  expect(reports[0]).toEqual({ env: hostile.env, preloaded: true });
});
