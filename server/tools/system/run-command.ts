import { requireProcesses } from "../process-runner.ts";
import { sandboxPolicy } from "../sandbox.ts";
import { skillNamedIn, type SkillRootsProvider } from "../skill-roots.ts";
import { defineTool, type Tool, type ToolExecution } from "../types.ts";
import { processExecution } from "./process-result.ts";

export const RUN_COMMAND_DEFAULT_TIMEOUT_MS = 120_000;
export const RUN_COMMAND_MAX_TIMEOUT_MS = 600_000;

/**
 * Runs a shell command line in the working directory, under the OS sandbox (sandbox.ts): only the workdir
 * is writable (not its `.git/config`, `.git/hooks/`, `.PseudoClaude/`), secrets are hidden, no network
 * unless the session allows it. Where bubblewrap is unavailable it runs unsandboxed, and the permission
 * engine asks for every call.
 */
export interface RunCommandInput {
  command: string;
  timeout_ms?: number;
  description?: string;
}

/**
 * `skillRoots`: the loaded skills' folders. A command naming one (`python3 <base>/scripts/x.py`) is
 * described as that skill's (the approval card says so); each is bound read-only into the sandbox, so a
 * script of a skill outside the workdir (under /tmp, say) can run, and never be changed by the command.
 */
export function createRunCommandTool(
  options: { skillRoots?: SkillRootsProvider } = {},
): Tool<RunCommandInput> {
  const roots = options.skillRoots;
  const name = "run_command";
  return defineTool<RunCommandInput>({
    definition: {
      name,
      description:
        "Run a shell command (/bin/sh -c) in the working directory. stdin is closed. " +
        `Default timeout ${RUN_COMMAND_DEFAULT_TIMEOUT_MS / 1000} s, at most ${RUN_COMMAND_MAX_TIMEOUT_MS / 1000} s; ` +
        "on timeout the whole process tree is killed. Returns stdout, stderr and the exit code.",
      inputSchema: {
        type: "object",
        properties: {
          command: { type: "string", minLength: 1 },
          timeout_ms: { type: "integer", minimum: 1, maximum: RUN_COMMAND_MAX_TIMEOUT_MS },
          description: {
            type: "string",
            description: "What the command does, in a few words (shown to the user)",
          },
        },
        required: ["command"],
        additionalProperties: false,
      },
      safety: "side_effect",
      category: "exec",
      origin: "system",
    },
    describe: (input, { workdir }) => {
      const skill = skillNamedIn(input.command, roots);
      // While the model acts on a skill an MCP server served, a command it runs is host-side code
      // execution that skill may have asked for: it asks in every mode, whatever the rules (SEP-2640).
      const served = (roots?.() ?? []).filter((root) => root.mcpSource !== undefined);
      const consent = served.length
        ? {
            key: input.command,
            reason: `skill ${served.map((root) => `"${root.skill}" (${root.mcpSource})`).join(", ")} is loaded: its text came from an MCP server, so a command run while it is active asks in every mode, whatever the rules`,
          }
        : undefined;
      return {
        cwd: workdir,
        command: input.command,
        ...(skill ? { skillResource: skill } : {}),
        ...(consent ? { consent } : {}),
      };
    },
    async execute(input, context): Promise<ToolExecution> {
      const { command } = input;
      const requested = input.timeout_ms ?? RUN_COMMAND_DEFAULT_TIMEOUT_MS;
      const timeoutMs = Math.min(Math.max(1, Math.floor(requested)), RUN_COMMAND_MAX_TIMEOUT_MS);
      const outcome = await requireProcesses(context, "run_command").run({
        shellCommand: command,
        cwd: context.workdir,
        timeoutMs,
        signal: context.signal,
        sandbox: sandboxPolicy({
          workdir: context.workdir,
          ...(roots ? { readOnlyRoots: roots().map((root) => root.root) } : {}),
          ...(context.sandbox ? { settings: context.sandbox } : {}),
        }),
      });
      return processExecution(
        { tool: name, command, cwd: context.workdir, timeoutMs, content: "combined" },
        outcome,
      );
    },
  });
}
