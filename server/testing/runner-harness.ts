// Real parts for Runner tests: temp skill layers on disk, a real Catalog/Registry/ActiveSkills/load_skill,
// real tools that touch real files, and the scripted provider playing inline scenarios.
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type {
  ApprovalAnswer,
  ApprovalRequest,
  PermissionCheck,
  PermissionHook,
  PermissionTrace,
} from "../permission/types.ts";
import type { ChatMessage } from "../protocol/model.ts";
import type { RequestSnapshot, RunnerEvent } from "../protocol/runner-events.ts";
import { parseScenario } from "../providers/scenario.ts";
import { ScriptedProvider } from "../providers/scripted.ts";
import type { Provider } from "../providers/types.ts";
import { ActiveSkills } from "../skills/active-skills.ts";
import { Catalog } from "../skills/catalog.ts";
import { createLoadSkillTool } from "../skills/load-skill-tool.ts";
import { TokenCounter } from "../prompt/segments.ts";
import { ProcessRunner } from "../tools/process-runner.ts";
import { Registry } from "../tools/registry.ts";
import { failResult, okResult, type Tool } from "../tools/types.ts";
import { createRequestHooks, type RequestCacheOptions } from "../session/request-hooks.ts";
import { createPromptSources } from "../runner/prompt-sources.ts";
import { RequestCounter, type RunnerDependencies } from "../runner/types.ts";

export const REVIEW_BODY = "REVIEW-SOP: read every changed file, then list findings by severity.";
export const ROWS_BODY = "ROWS-SOP: call count_rows on the CSV, then report the number.";

/** Allows read_only tools; side_effect tools follow `sideEffect` (deny/allow/ask). Records what it saw. */
export class TestPermission implements PermissionHook {
  readonly asked: ApprovalRequest[] = [];
  readonly remembered: PermissionCheck[] = [];
  constructor(
    public sideEffect: "allow" | "deny" | "ask" = "allow",
    public answer: (request: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalAnswer> = async () => ({
      kind: "allow_once",
    }),
  ) {}
  evaluate(check: PermissionCheck): PermissionTrace {
    const category = check.tool.category;
    if (check.tool.safety === "read_only")
      return { decision: "allow", source: "mode", rule: "read_only", category };
    if (this.remembered.some((entry) => entry.tool.name === check.tool.name)) {
      return { decision: "allow", source: "session", category };
    }
    const rule = `${this.sideEffect} ${check.tool.name}(*)`;
    return { decision: this.sideEffect, source: "rule", rule, category, reason: "test policy" };
  }
  ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    this.asked.push(request);
    return this.answer(request, signal);
  }
  rememberSessionAllow(check: PermissionCheck): void {
    this.remembered.push(check);
  }
}

function echoTool(): Tool {
  return {
    definition: {
      name: "echo",
      description: "Repeat a text.",
      inputSchema: {
        type: "object",
        properties: { text: { type: "string" } },
        required: ["text"],
        additionalProperties: false,
      },
      safety: "read_only",
      category: "read",
      origin: "system",
    },
    describe: (_input, context) => ({ cwd: context.workdir }),
    execute: async (input) => ({ result: okResult("echo", `echo: ${(input as { text: string }).text}`) }),
  };
}

/** A side-effect tool that writes a real file in the workdir. */
function writeNoteTool(): Tool {
  return {
    definition: {
      name: "write_note",
      description: "Write notes.txt in the working directory.",
      inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      safety: "side_effect",
      category: "write",
      origin: "system",
    },
    describe: (_input, context) => ({ cwd: context.workdir, path: "notes.txt" }),
    execute: async (input, context) => {
      try {
        await writeFile(path.join(context.workdir, "notes.txt"), (input as { text: string }).text);
        return { result: okResult("write_note", "wrote notes.txt") };
      } catch (error) {
        return { result: failResult("write_note", "io_error", String(error)) };
      }
    },
  };
}

export interface Harness {
  root: string;
  workdir: string;
  catalog: Catalog;
  registry: Registry;
  activeSkills: ActiveSkills;
  permission: TestPermission;
  history: ChatMessage[];
  events: RunnerEvent[];
  /** The Runner's snapshots: Runner events always carry their messages in full. */
  requests(): (RequestSnapshot & { messages: ChatMessage[] })[];
  /**
   * A Runner's dependencies over this harness, with the session's hooks installed (figures, eager
   * comparison, registered-not-visible, sandbox stamp; `cache` adds the prediction and its ledger).
   */
  deps(
    provider: Provider,
    overrides?: Partial<RunnerDependencies>,
    cache?: RequestCacheOptions,
  ): RunnerDependencies;
  scripted(yaml: string): ScriptedProvider;
  /** The test's own process runner (its tools' processes); cleanup ends what it still runs. */
  processes: ProcessRunner;
  cleanup(): Promise<void>;
}

export async function createHarness(): Promise<Harness> {
  const root = await realpath(await mkdtemp(path.join(os.tmpdir(), "runner-test-")));
  const workdir = path.join(root, "workdir");
  const builtin = path.join(root, "builtin");
  await mkdir(path.join(builtin, "review"), { recursive: true });
  await mkdir(path.join(builtin, "rows"), { recursive: true });
  await mkdir(workdir, { recursive: true });
  await writeFile(
    path.join(builtin, "review", "SKILL.md"),
    `---\nname: review\ndescription: Review code for bugs.\n---\n\n${REVIEW_BODY}\n`,
  );
  await writeFile(
    path.join(builtin, "rows", "SKILL.md"),
    `---\nname: rows\ndescription: Count CSV rows.\nmode: isolated\nhistory: none\n---\n\n${ROWS_BODY} Args: $ARGUMENTS\n`,
  );
  await writeFile(
    path.join(builtin, "rows", "count.mjs"),
    [
      "let input = '';",
      "process.stdin.on('data', (chunk) => (input += chunk));",
      "process.stdin.on('end', () => {",
      "  const { text, sleepMs, ignoreTerm } = JSON.parse(input);",
      // Only SIGKILL ends it then: the process runner's grace period has to run out.
      "  if (ignoreTerm) process.on('SIGTERM', () => {});",
      "  const done = () => console.log(`rows: ${text.trim().split('\\n').length}`);",
      "  if (sleepMs) setTimeout(done, sleepMs); else done();",
      "});",
    ].join("\n"),
  );
  await writeFile(
    path.join(builtin, "rows", "tools.json"),
    JSON.stringify({
      tools: [
        {
          name: "count_rows",
          description: "Count rows of a CSV text.",
          input_schema: {
            type: "object",
            properties: {
              text: { type: "string" },
              sleepMs: { type: "number" },
              ignoreTerm: { type: "boolean" },
            },
            required: ["text"],
          },
          command: ["node", "count.mjs"],
        },
      ],
    }),
  );
  const catalog = await Catalog.create({
    builtin,
    user: path.join(root, "home", ".PseudoClaude", "skills"),
    project: path.join(workdir, ".PseudoClaude", "skills"),
  });
  const registry = new Registry();
  const activeSkills = new ActiveSkills();
  registry.register(createLoadSkillTool({ catalog, activeSkills, registry }), { protected: true });
  registry.register(echoTool(), { protected: true });
  registry.register(writeNoteTool(), { protected: true });
  catalog.validateTools((name) => registry.isKnown(name));
  const permission = new TestPermission();
  const history: ChatMessage[] = [];
  const events: RunnerEvent[] = [];
  const prompt = createPromptSources({
    catalog,
    activeSkills,
    workdir,
    version: "0.0.0-test",
    platform: "test",
  });
  const requestCounter = new RequestCounter();
  const processes = new ProcessRunner();
  const tokens = new TokenCounter();
  return {
    processes,
    root,
    workdir,
    catalog,
    registry,
    activeSkills,
    permission,
    history,
    events,
    requests: () =>
      events.flatMap((event) => {
        if (event.type !== "request") return [];
        const { snapshot } = event;
        if (!snapshot.messages) throw new Error(`request ${snapshot.requestIndex} has no messages`);
        return [{ ...snapshot, messages: snapshot.messages }];
      }),
    deps: (provider, overrides = {}, cache) => ({
      provider,
      registry,
      permission,
      prompt,
      workdir,
      history,
      processes,
      tokens,
      onEvent: (event) => events.push(event),
      requestCounter,
      now: () => new Date("2026-12-02T10:00:00Z"),
      hooks: createRequestHooks({
        tokens,
        registry,
        eagerBodies: prompt.eagerBodies,
        ...(overrides.sandbox ? { sandbox: overrides.sandbox } : {}),
        ...(cache ? { cache } : {}),
        now: () => new Date("2026-12-02T10:00:00Z"),
      }),
      ...overrides,
    }),
    scripted: (yaml) => new ScriptedProvider(parseScenario(yaml, "inline.yaml")),
    cleanup: async () => {
      await processes.killAll();
      await rm(root, { recursive: true, force: true });
    },
  };
}

export async function readNote(harness: Harness): Promise<string | undefined> {
  try {
    return await readFile(path.join(harness.workdir, "notes.txt"), "utf8");
  } catch {
    // Absent file: the test asserts nothing was written.
    return undefined;
  }
}
