// The CLI with an MCP server that serves skills (SEP-2640): the SDK-built skills server from the user's
// settings, over stdio under bubblewrap. `catalog --json` lists its skills as mcp:docs (a name a project
// skill has qualified); `run` loads one only with consent (--yes gives it; without, the load is denied),
// the model is told its origin, and a file of it is read through read_file, fetched and verified then.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunnerEvent } from "../protocol/runner-events.ts";
import type { SkillView } from "../protocol/catalog.ts";
import { runCli, type CliResult } from "./testing/run-cli.ts";

const SERVER = fileURLToPath(new URL("../mcp/testing/skills-server.mjs", import.meta.url));
let root: string;
let home: string;
let workdir: string;
let scenario: string;

function cli(args: string[]): Promise<CliResult> {
  return runCli(args);
}

async function put(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
}

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "cli-mcp-skills-"));
  home = path.join(root, "home");
  workdir = path.join(root, "work");
  const served = path.join(root, "served");
  await put(
    path.join(served, "pdf-tools", "SKILL.md"),
    "---\nname: pdf-tools\ndescription: Fill PDF forms.\n---\n# PDF tools\nRead reference/forms.md first.\n",
  );
  await put(path.join(served, "pdf-tools", "reference", "forms.md"), "Field names are case-sensitive.\n");
  await put(
    path.join(served, "review", "SKILL.md"),
    "---\nname: review\ndescription: Server review.\n---\nBody.\n",
  );
  await put(
    path.join(workdir, ".PseudoClaude", "skills", "review", "SKILL.md"),
    "---\nname: review\ndescription: Project review.\n---\nBody.\n",
  );
  await put(
    path.join(home, ".PseudoClaude", "settings.json"),
    JSON.stringify({ mcpServers: { docs: { command: process.execPath, args: [SERVER, served] } } }),
  );
  scenario = path.join(root, "load.yaml");
  await writeFile(
    scenario,
    [
      "name: mcp-skill",
      "turns:",
      "  - tool_calls:",
      "      - { name: load_skill, input: { name: pdf-tools } }",
      "  - tool_calls:",
      '      - { name: read_file, input: { path: "{{skill_dir:pdf-tools}}/reference/forms.md" } }',
      "  - text: done",
      "",
    ].join("\n"),
  );
}, 30_000);

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("cli with an MCP server that serves skills", () => {
  it("catalog --json lists them as mcp:docs, a colliding name qualified", async () => {
    const result = await cli(["catalog", "--workdir", workdir, "--home", home, "--json"]);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as { skills: SkillView[] };
    const byName = new Map(report.skills.map((skill) => [skill.name, skill]));
    expect(byName.get("pdf-tools")!.source).toBe("mcp:docs");
    expect(byName.get("pdf-tools")!.mcp!.uri).toBe("skill://pdf-tools/SKILL.md");
    expect(byName.get("review")!.source).toBe("project");
    expect(byName.get("docs/review")!.source).toBe("mcp:docs");
    const text = await cli(["catalog", "--workdir", workdir, "--home", home]);
    expect(text.stdout).toMatch(/pdf-tools\s+\[mcp:docs\]/);
  }, 60_000);

  it("run loads it with consent, tells the model its origin, and reads its file through read_file", async () => {
    const result = await cli([
      "run",
      "--workdir",
      workdir,
      "--home",
      home,
      "--scenario",
      scenario,
      "--message",
      "fill the form",
      "--json",
      "--yes",
    ]);
    expect(result.code, result.stderr).toBe(0);
    const events = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as RunnerEvent);
    const asked = events.find((event) => event.type === "permission_request");
    expect(asked?.type === "permission_request" && asked.request.trace.reason).toContain(
      "served by MCP server docs",
    );
    const activated = events.find((event) => event.type === "skill_activated");
    expect(activated).toMatchObject({ name: "pdf-tools", source: "mcp:docs" });
    const requests = events.filter((event) => event.type === "request");
    const second = requests[1]!.type === "request" ? requests[1]!.snapshot : undefined;
    expect(second!.system.environment).toContain('<skill name="pdf-tools" source="mcp:docs">');
    expect(events).toContainEqual(
      expect.objectContaining({
        type: "skill_resource_read",
        skill: "pdf-tools",
        path: "reference/forms.md",
      }),
    );
    const read = events.find((event) => event.type === "tool_result" && event.result.tool === "read_file");
    expect(read?.type === "tool_result" && read.result.content).toContain("case-sensitive");
  }, 60_000);

  it("without consent (no --yes) the load is denied and the skill is not activated", async () => {
    const result = await cli([
      "run",
      "--workdir",
      workdir,
      "--home",
      path.join(root, "home"),
      "--scenario",
      scenario,
      "--message",
      "fill the form",
      "--json",
    ]);
    expect(result.code, result.stderr).toBe(0);
    const events = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as RunnerEvent);
    const load = events.find((event) => event.type === "tool_result" && event.result.tool === "load_skill");
    expect(load?.type === "tool_result" && load.result.ok).toBe(false);
    expect(events.some((event) => event.type === "skill_activated")).toBe(false);
  }, 60_000);
});
