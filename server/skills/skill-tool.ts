// A tools.json entry as a Registry Tool: runs its command with the skill root as cwd, the call's
// arguments as JSON on stdin (then EOF), and stdout as the result the model sees.
import { UI_OUTPUT_CAP_BYTES } from "../tools/output-cap.ts";
import { requireProcesses } from "../tools/process-runner.ts";
import { sandboxPolicy } from "../tools/sandbox.ts";
import { processExecution } from "../tools/system/process-result.ts";
import {
  defineTool,
  failResult,
  type Tool,
  type ToolContext,
  type ToolExecution,
  type ToolTarget,
} from "../tools/types.ts";
import { checkCommand } from "./tools-json.ts";
import type { SkillToolSpec } from "./types.ts";

export const DEFAULT_SKILL_TOOL_TIMEOUT_MS = 30_000;
export const MAX_SKILL_TOOL_TIMEOUT_MS = 600_000;
/** Env var carrying the session workdir to skill scripts (they resolve workdir-relative paths against it). */
export const WORKDIR_ENV_VAR = "PSEUDOCLAUDE_WORKDIR";

export interface SkillToolOwner {
  /** Skill name, recorded in the tool definition. */
  name: string;
  /** Absolute skill folder: the command's cwd and the containment root for `command[0]`. */
  rootDir: string;
}

/** A tools.json tool's input: whatever its `input_schema` admits, always a JSON object. */
export type SkillToolInput = Record<string, unknown>;

function stdinFor(input: SkillToolInput): string {
  return JSON.stringify(input ?? {});
}

function timeoutFor(spec: SkillToolSpec): number {
  const requested = spec.timeout_ms ?? DEFAULT_SKILL_TOOL_TIMEOUT_MS;
  return Math.min(Math.max(1, Math.floor(requested)), MAX_SKILL_TOOL_TIMEOUT_MS);
}

/** Builds the Registry tool for one tools.json entry. Safety `side_effect`, category `exec`. */
export function createSkillTool(owner: SkillToolOwner, spec: SkillToolSpec): Tool<SkillToolInput> {
  const timeoutMs = timeoutFor(spec);
  return defineTool<SkillToolInput>({
    definition: {
      name: spec.name,
      description: spec.description,
      inputSchema: structuredClone(spec.input_schema),
      safety: "side_effect",
      category: "exec",
      origin: "skill",
      skill: owner.name,
    },

    describe(input): ToolTarget {
      return { command: spec.command.join(" "), cwd: owner.rootDir, stdin: stdinFor(input) };
    },

    async execute(input, context: ToolContext): Promise<ToolExecution> {
      const tool = spec.name;
      // The skill folder may have changed since load (SECURITY P9): check the program again.
      const check = await checkCommand(spec.command, owner.rootDir);
      if (!check.ok && check.kind === "escape") {
        return { result: failResult(tool, "path_refused", `skill tool ${tool} refused: ${check.reason}`) };
      }
      if (!check.ok)
        return { result: failResult(tool, "spawn_failed", `could not start ${tool}: ${check.reason}`) };
      const command = spec.command.join(" ");
      const outcome = await requireProcesses(context, tool).run({
        file: check.program,
        args: spec.command.slice(1),
        cwd: owner.rootDir,
        input: stdinFor(input),
        timeoutMs,
        signal: context.signal,
        maxRetainedBytes: UI_OUTPUT_CAP_BYTES,
        env: { [WORKDIR_ENV_VAR]: context.workdir },
        // The skill's own folder read-only, the session's workdir writable (same policy as run_command).
        sandbox: sandboxPolicy({
          workdir: context.workdir,
          readOnlyRoots: [owner.rootDir],
          ...(context.sandbox ? { settings: context.sandbox } : {}),
        }),
      });
      return processExecution(
        { tool, command, cwd: owner.rootDir, timeoutMs, content: "stdout", metadata: { skill: owner.name } },
        outcome,
      );
    },
  });
}
