// The CLI with MCP servers: the reference server-everything over stdio from a workdir's .mcp.json (with
// --trust), a skill that needs one of its tools and one that needs a missing server, a scripted echo call
// allowed (--yes) and denied, a server whose command does not exist, and no server process left once the
// command has returned (in-process: `main` ends every server it started).
import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunnerEvent } from "../protocol/runner-events.ts";
import { EVERYTHING_SERVER, processesWithArgument } from "../mcp/testing/processes.ts";
import { runCli as cli } from "./testing/run-cli.ts";

let home: string;
let workdir: string;
let scenario: string;
const marker = `cli-mcp-${randomBytes(6).toString("hex")}`;

beforeAll(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), "cli-mcp-home-"));
  workdir = await mkdtemp(path.join(os.tmpdir(), "cli-mcp-work-"));
  await writeFile(
    path.join(workdir, ".mcp.json"),
    JSON.stringify({
      mcpServers: {
        everything: { command: "node", args: [EVERYTHING_SERVER, "stdio", marker] },
        ghost: { command: "no-such-mcp-server-program" },
      },
    }),
  );
  const skills = path.join(workdir, ".PseudoClaude", "skills");
  await mkdir(path.join(skills, "echoer"), { recursive: true });
  await writeFile(
    path.join(skills, "echoer", "SKILL.md"),
    "---\nname: echoer\ndescription: Echo a message through MCP\ntools: [mcp__everything__echo]\n---\nCall the echo tool.\n",
  );
  await mkdir(path.join(skills, "needs-missing"), { recursive: true });
  await writeFile(
    path.join(skills, "needs-missing", "SKILL.md"),
    "---\nname: needs-missing\ndescription: Needs a server that is not configured\ntools: [mcp__missing__x]\n---\nBody.\n",
  );
  scenario = path.join(workdir, "echo.yaml");
  await writeFile(
    scenario,
    [
      "name: mcp-echo",
      "turns:",
      "  - tool_calls:",
      "      - { name: mcp__everything__echo, input: { message: hello from the scenario } }",
      '  - text: "done"',
      "",
    ].join("\n"),
  );
});
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
  await rm(workdir, { recursive: true, force: true });
});

describe("cli with MCP servers", () => {
  it("catalog --json --trust lists the server's tools, keeps the skill that needs one, removes the one naming a missing server; a missing command is a warning", async () => {
    const result = await cli(["catalog", "--workdir", workdir, "--home", home, "--trust", "--json"]);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as {
      tools: { name: string; origin: string; mcpServer?: string }[];
      skills: { name: string }[];
      removed: { name: string; missing: string[]; reasons?: string[] }[];
      mcp: { name: string; status: string; error?: string; definitionTokens: number }[];
    };
    const names = report.tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(["mcp__everything__echo", "mcp__everything__get-sum"]));
    expect(report.tools.find((tool) => tool.name === "mcp__everything__echo")).toMatchObject({
      origin: "main",
      mcpServer: "everything",
    });
    expect(report.skills.map((skill) => skill.name)).toContain("echoer");
    expect(report.removed).toEqual([
      expect.objectContaining({
        name: "needs-missing",
        missing: ["mcp__missing__x"],
        reasons: ["server missing not connected"],
      }),
    ]);
    expect(report.mcp.find((server) => server.name === "ghost")).toMatchObject({
      status: "failed",
      error: "command not found: no-such-mcp-server-program",
    });
    expect(report.mcp.find((server) => server.name === "everything")!.definitionTokens).toBeGreaterThan(100);
    expect(result.stderr).toContain(
      "warning: MCP server ghost failed: command not found: no-such-mcp-server-program",
    );
    expect(processesWithArgument(marker)).toEqual([]);
  });

  it("without --trust the folder's servers do not start, and the skill that needs one is removed", async () => {
    const result = await cli(["catalog", "--workdir", workdir, "--home", home, "--json"]);
    const report = JSON.parse(result.stdout) as {
      removed: { name: string; reasons?: string[] }[];
      mcp: { status: string }[];
    };
    expect(report.mcp.map((server) => server.status)).toEqual(["withheld", "withheld"]);
    expect(report.removed.find((entry) => entry.name === "echoer")?.reasons).toEqual([
      "server everything not connected",
    ]);
    expect(result.stderr).toContain("not started: the folder is not trusted");
  });

  it("run: a scripted echo call returns the server's Echo when approved, and no server process is left after exit", async () => {
    const result = await cli([
      "run",
      "--workdir",
      workdir,
      "--home",
      home,
      "--trust",
      "--scenario",
      scenario,
      "--yes",
      "--json",
    ]);
    expect(result.code).toBe(0);
    const events = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as RunnerEvent);
    const request = events.find((event) => event.type === "request");
    expect(request?.type === "request" && request.snapshot.tools.map((tool) => tool.name)).toContain(
      "mcp__everything__echo",
    );
    const toolResult = events.find((event) => event.type === "tool_result");
    expect(toolResult).toMatchObject({ result: { ok: true, content: "Echo: hello from the scenario" } });
    expect(processesWithArgument(marker)).toEqual([]);
  });

  it("run without --yes: the call asks, is denied, and never reaches the server", async () => {
    const result = await cli([
      "run",
      "--workdir",
      workdir,
      "--home",
      home,
      "--trust",
      "--scenario",
      scenario,
      "--json",
    ]);
    const events = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as RunnerEvent);
    const toolResult = events.find((event) => event.type === "tool_result");
    expect(toolResult).toMatchObject({ result: { ok: false, errorType: "permission_denied" } });
    expect(events.some((event) => event.type === "tool_started")).toBe(false);
    expect(processesWithArgument(marker)).toEqual([]);
  });
});
