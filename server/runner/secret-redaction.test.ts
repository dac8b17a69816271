// S11, second wall: whatever a tool prints, a configured key value never reaches the model's history or
// an event. Real workspace, real run_command (a real shell cats a real file holding the keys), the
// scripted provider playing an inline scenario, real providers.json in a temp home.
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ProcessRunner } from "../tools/process-runner.ts";
import type { ChatMessage } from "../protocol/model.ts";
import type { RunnerEvent } from "../protocol/runner-events.ts";
import { registerConfiguredSecrets, settingsFilePath } from "../providers/config.ts";
import { REDACTED, SecretRedactor, SecretScope } from "../providers/redact.ts";
import { parseScenario } from "../providers/scenario.ts";
import { ScriptedProvider } from "../providers/scripted.ts";
import { createWorkspace } from "../session/workspace.ts";
import { TestPermission } from "../testing/runner-harness.ts";
import { runUserMessage } from "./slash.ts";
import { RequestCounter } from "./types.ts";

/** This file's own process runner (its tools' processes), ended after each test. */
const processes = new ProcessRunner();

// Neither is key-shaped (no `sk-`): only registration of the configured values can catch them.
const FILE_KEY = "openai-file-key-8e2f4a6c1d3b";
const ENV_KEY = "anthropic-env-key-3c9d7e1f0a2b";
// A key no one configured, shaped like one: caught by the key-shaped rule.
const STRAY_KEY = "sk-proj-Zx81Lq0Wn4Vb7Tc2Rk9Ys5Hd";

let root: string;
let previousEnvKey: string | undefined;
beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), "runner-redaction-")));
  previousEnvKey = process.env.ANTHROPIC_API_KEY;
  process.env.ANTHROPIC_API_KEY = ENV_KEY;
});
afterEach(async () => {
  await processes.killAll();
  if (previousEnvKey === undefined) delete process.env.ANTHROPIC_API_KEY;
  else process.env.ANTHROPIC_API_KEY = previousEnvKey;
  await rm(root, { recursive: true, force: true });
});

describe("tool output redaction (S11)", () => {
  it("a run_command that prints the configured keys: redacted in the model's history, events and full output", async () => {
    const home = path.join(root, "home");
    const workdir = path.join(root, "work");
    await mkdir(path.dirname(settingsFilePath(home)), { recursive: true });
    await mkdir(workdir, { recursive: true });
    await writeFile(settingsFilePath(home), JSON.stringify({ openai: { apiKey: FILE_KEY } }));
    await writeFile(
      path.join(workdir, "leak.txt"),
      `file=${FILE_KEY}\nenv=${ENV_KEY}\nstray=${STRAY_KEY}\nsk-learn is a word, so is task-list\n`,
    );
    // The test is the composition root: its redactor holds the configured keys, its workspace redacts with it.
    const secrets = new SecretRedactor();
    registerConfiguredSecrets({ home, env: {}, secrets });

    // Output far over the model's cap, with the keys at both ends: the capped copy keeps head and
    // tail, and fullOutput (for the UI) keeps everything.
    // (The sandbox hides providers.json from the command — the first wall — so the keys come from a
    // workdir file here: this test is about the second wall, the redaction of whatever a tool prints.)
    const command = `cat leak.txt; seq 1 40000; cat leak.txt`;
    const scenario = parseScenario(
      `name: leak\nturns:\n  - tool_calls:\n      - { name: run_command, input: { command: ${JSON.stringify(command)} } }\n  - text: "done"\n`,
      "inline.yaml",
    );
    const workspace = await createWorkspace({
      workdir,
      home,
      builtinDir: path.join(root, "no-builtins"),
      secrets: new SecretScope(secrets),
    });
    const events: RunnerEvent[] = [];
    const history: ChatMessage[] = [];
    const outcome = await runUserMessage(
      "print it",
      workspace.runnerDependencies({
        processes,
        provider: new ScriptedProvider(scenario),
        permission: new TestPermission("allow"),
        onEvent: (event) => events.push(event),
        history,
        requestCounter: new RequestCounter(),
      }),
    );
    expect(outcome.reason).toBe("completed");

    const result = events.find((event) => event.type === "tool_result");
    expect(result?.type === "tool_result" && result.result.ok).toBe(true);
    if (result?.type !== "tool_result") throw new Error("no tool_result");
    // The command really printed the file (the test cannot pass on an empty result)...
    expect(result.result.content).toContain(`file=${REDACTED}`);
    expect(result.result.content).toContain(`env=${REDACTED}`);
    expect(result.result.content).toContain(`stray=sk-${REDACTED}`);
    expect(result.result.content).toContain("sk-learn is a word, so is task-list");
    expect(result.fullOutput).toContain("\n40000\n");
    // The second copy of the keys, after the 40,000 lines, is redacted in the UI's full output too.
    const tail = result.fullOutput?.slice(result.fullOutput.indexOf("\n40000\n")) ?? "";
    expect(tail).toContain(`file=${REDACTED}`);
    expect(tail).toContain(`env=${REDACTED}`);

    // ...and no copy of any key is left anywhere the model or the UI could see.
    const everything = JSON.stringify({ events, history });
    for (const key of [FILE_KEY, ENV_KEY, STRAY_KEY]) expect(everything).not.toContain(key);
    const toolMessage = history.find((message) => message.role === "tool");
    expect(toolMessage?.content).toContain(`file=${REDACTED}`);
    // The second request's snapshot is what the model was sent: the redacted tool message.
    const secondRequest = events.filter((event) => event.type === "request")[1];
    expect(JSON.stringify(secondRequest)).toContain(`env=${REDACTED}`);
  }, 30_000);
});
