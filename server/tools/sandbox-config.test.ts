// SECURITY.md S17, the protection half (issue #20, class 3): every file the playground reads from the
// workdir as configuration is read-only to agent processes (real bubblewrap) and asks before a file tool
// or a shell line writes it, in every mode. The files are taken from the code that reads them, so a reader
// added later without protection fails here.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_EVAL_PATH } from "../eval/triggers-file.ts";
import { mcpConfigFiles } from "../mcp/config.ts";
import { PermissionEngine } from "../permission/engine.ts";
import { settingsPaths } from "../permission/settings.ts";
import type { ToolResult } from "../protocol/model.ts";
import { defaultLayers } from "../skills/catalog.ts";
import { protectedAreaOf } from "./confine.ts";
import { detectSandbox } from "./sandbox.ts";
import { createSystemTools } from "./system/index.ts";
import { createRunCommandTool } from "./system/run-command.ts";
import { ProcessRunner } from "./process-runner.ts";

/** This file's own process runner (the composition root a test is). */
const processes = new ProcessRunner();

let root: string;
let workdir: string;
let home: string;

beforeAll(() => {
  expect(detectSandbox().available, detectSandbox().reason).toBe(true);
});

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), "pc-sandbox-config-"));
  workdir = path.join(root, "work");
  home = path.join(root, "home");
  await mkdir(workdir);
  await mkdir(home);
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function run(command: string): Promise<ToolResult> {
  const execution = await createRunCommandTool().execute(
    { command },
    {
      workdir,
      processes,
      callId: "config",
      signal: new AbortController().signal,
      sandbox: { network: false, homes: [home] },
    },
  );
  return execution.result;
}

/** What the server reads from a workdir as configuration, as its readers name it (relative paths). */
function configurationFiles(): string[] {
  const files = [
    ...mcpConfigFiles(workdir, home)
      .filter((entry) => entry.scope === "workdir")
      .map((entry) => entry.file),
    ...settingsPaths(workdir, home).filter((file) => file.startsWith(workdir)),
    path.join(defaultLayers(workdir, home).project, "notes", "SKILL.md"),
    path.join(workdir, DEFAULT_EVAL_PATH),
  ];
  return [...new Set(files.map((file) => path.relative(workdir, file)))];
}

describe("S17: what the playground reads from the workdir is protected", () => {
  it("the readers' files are the protected ones (settings, MCP config, project skills, evals)", () => {
    const files = configurationFiles();
    expect(files).toEqual(
      expect.arrayContaining([
        ".mcp.json",
        ".PseudoClaude/settings.json",
        ".PseudoClaude/evals/triggers.yaml",
      ]),
    );
    for (const file of files) expect(protectedAreaOf(file), file).toBeDefined();
  });

  it("a file tool's write to any of them asks in every mode", () => {
    const writeFile = createSystemTools().find((tool) => tool.definition.name === "write_file")!;
    for (const file of configurationFiles()) {
      const target = writeFile.describe({ path: file, content: "{}" } as never, { workdir });
      for (const mode of ["default", "acceptEdits", "bypassPermissions"] as const) {
        const engine = new PermissionEngine({ mode });
        const trace = engine.evaluate({
          callId: "c1",
          tool: writeFile.definition,
          input: { path: file },
          target,
        });
        expect(trace, `${mode} ${file}`).toMatchObject({ decision: "ask", source: "protected_path" });
      }
    }
  });

  it("an agent process cannot write any of them, whether they exist or not", async () => {
    for (const file of configurationFiles()) {
      const result = await run(`mkdir -p "$(dirname '${file}')"; echo planted > '${file}'`);
      expect(result.ok, `${file}: ${result.content}`).toBe(false);
      expect(existsSync(path.join(workdir, file)), file).toBe(false);
    }
    for (const file of configurationFiles()) {
      await mkdir(path.dirname(path.join(workdir, file)), { recursive: true });
      await writeFile(path.join(workdir, file), "the user's\n");
    }
    for (const file of configurationFiles()) {
      const result = await run(`echo planted > '${file}'; rm -f '${file}'; mv '${file}' aside`);
      expect(result.ok, file).toBe(false);
      expect(await readFile(path.join(workdir, file), "utf8"), file).toBe("the user's\n");
    }
  });

  it("a `.mcp.json` a call creates is removed and the call fails, naming what it would have started", async () => {
    const result = await run(
      `echo '{"mcpServers":{"x":{"command":"node","args":["payload.js"]}}}' > .mcp.json && echo written`,
    );
    expect(result).toMatchObject({ ok: false, errorType: "sandbox_violation" });
    expect(result.content).toContain("written");
    expect(result.content).toContain(".mcp.json: the playground would start the MCP servers it names");
    expect(existsSync(path.join(workdir, ".mcp.json"))).toBe(false);
  });

  it("an existing `.mcp.json` stays read-only and in place", async () => {
    await writeFile(path.join(workdir, ".mcp.json"), '{"mcpServers":{}}\n');
    const result = await run(`echo '{"mcpServers":{"x":{"command":"sh"}}}' > .mcp.json`);
    expect(result.ok).toBe(false);
    expect(result.content).toContain("Read-only file system");
    expect(await readFile(path.join(workdir, ".mcp.json"), "utf8")).toBe('{"mcpServers":{}}\n');
  });
});
