// A listing that never ends (S19): an MCP server whose every `tools/list` page is empty and names a next
// page kept the client asking forever — the tool count that bounds the listing never grew, so the server
// stayed "starting", its session's MCP tools never came, and the loop ran for as long as the server did.
// Every listing of a server is read for a bounded number of pages (MAX_LIST_PAGES, as `skills/list`).
// A real server written with the SDK (server/mcp/testing/hostile-mcp-server.mjs), under real bubblewrap.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Registry } from "../tools/registry.ts";
import { detectSandbox } from "../tools/sandbox.ts";
import { MAX_LIST_PAGES } from "./mcp-skills.ts";
import { McpServers } from "./mcp-servers.ts";

const HOSTILE_SERVER = path.join(import.meta.dirname, "testing", "hostile-mcp-server.mjs");
let workdir: string;
let home: string;
let servers: McpServers | undefined;

beforeEach(async () => {
  expect(detectSandbox().available, detectSandbox().reason).toBe(true);
  workdir = await mkdtemp(path.join(tmpdir(), "pc-mcp-listing-"));
  home = await mkdtemp(path.join(tmpdir(), "pc-mcp-listing-home-"));
});
afterEach(async () => {
  await servers?.close();
  servers = undefined;
  for (const folder of [workdir, home]) await rm(folder, { recursive: true, force: true });
});

describe("S19: an MCP listing without end", () => {
  it(`stops after ${MAX_LIST_PAGES} pages: the server starts with a warning that says so`, async () => {
    servers = new McpServers({
      registry: new Registry(),
      workdir,
      sandbox: { homes: [home] },
      clientVersion: "test",
    });
    const started = servers.start({
      servers: [
        {
          transport: "stdio",
          name: "pages",
          command: process.execPath,
          args: [HOSTILE_SERVER, "endless-pages"],
          env: {},
          network: false,
          configFile: path.join(workdir, ".mcp.json"),
          scope: "workdir",
        },
      ],
      withheld: [],
      warnings: [],
    });
    // Before the fix the start never ended; a page is a round trip of a millisecond or so.
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      started.then(() => "started"),
      new Promise((resolve) => (timer = setTimeout(() => resolve("still listing after 60 s"), 60_000))),
    ]);
    clearTimeout(timer);
    expect(outcome).toBe("started");
    const view = servers.views()[0]!;
    expect(view.status).toBe("connected");
    expect(JSON.stringify(view)).toContain(`${MAX_LIST_PAGES} pages`);
  }, 90_000);
});
