// S11 for the command line: `cli run --yes` with a scenario whose approved command prints the keys
// configured in the environment and in <home>/.PseudoClaude/providers.json. Neither --json nor the text
// output may show them. The CLI in-process, a real shell, real files.
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REDACTED } from "../providers/redact.ts";
import { runCli } from "./testing/run-cli.ts";

// Not key-shaped: only registering the configured values catches them (the scripted CLI builds no
// provider that would load providers.json).
const ENV_KEY = "cli-env-openai-key-5b8c0e1f";
const FILE_KEY = "cli-file-anthropic-key-9a4d2c";

let root: string;
let home: string;
let workdir: string;
let scenario: string;

beforeAll(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), "cli-redaction-")));
  home = path.join(root, "home");
  workdir = path.join(root, "work");
  await mkdir(path.join(home, ".PseudoClaude"), { recursive: true });
  await mkdir(workdir, { recursive: true });
  await writeFile(
    path.join(home, ".PseudoClaude", "providers.json"),
    JSON.stringify({ anthropic: { apiKey: FILE_KEY } }),
  );
  await writeFile(path.join(workdir, "keys.txt"), `env=${ENV_KEY}\nfile=${FILE_KEY}\n`);
  scenario = path.join(root, "leak.yaml");
  await writeFile(
    scenario,
    `name: leak\nturns:\n  - tool_calls:\n      - { name: run_command, input: { command: "cat keys.txt" } }\n  - text: "printed"\n`,
  );
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function runRun(extra: string[]) {
  // The key reaches the CLI as the environment a shell gives it (the in-process `io.env`).
  return runCli(
    [
      "run",
      "--workdir",
      workdir,
      "--home",
      home,
      "--provider",
      "scripted",
      "--scenario",
      scenario,
      "--yes",
      "--message",
      "print the keys",
      ...extra,
    ],
    { env: { ...process.env, OPENAI_API_KEY: ENV_KEY } },
  );
}

describe("cli run output (S11)", () => {
  it.each([
    { mode: "--json", flags: ["--json"] },
    { mode: "text", flags: [] },
  ])(
    "no configured key in the $mode output of cli run",
    async ({ flags }) => {
      const result = await runRun(flags);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain(`env=${REDACTED}`);
      expect(result.stdout).toContain(`file=${REDACTED}`);
      for (const text of [result.stdout, result.stderr]) {
        expect(text).not.toContain(ENV_KEY);
        expect(text).not.toContain(FILE_KEY);
      }
    },
    30_000,
  );
});
