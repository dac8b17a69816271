// Permission checks built the way the Runner builds them, with the real system tools' definitions.
import type { SandboxState } from "../../protocol/sandbox.ts";
import { createSystemTools } from "../../tools/system/index.ts";
import type { PermissionCheck } from "../types.ts";

export const TEST_WORKDIR = "/work/project";
/** Rules, not the sandbox, are under test: exec calls run in an enabled sandbox. */
export const SANDBOX_ON: SandboxState = { enabled: true, mechanism: "bubblewrap", network: false };

const definitions = new Map(createSystemTools().map((tool) => [tool.definition.name, tool.definition]));

/** A run_command call of `text` in the test workdir. */
export function commandCheck(text: string): PermissionCheck {
  return {
    callId: "c1",
    tool: definitions.get("run_command")!,
    input: { command: text },
    target: { cwd: TEST_WORKDIR, command: text },
  };
}

/** A file tool's call on `relative` (a path of the test workdir). */
export function fileToolCheck(tool: string, relative: string): PermissionCheck {
  const definition = definitions.get(tool);
  if (!definition) throw new Error(`no system tool ${tool}`);
  return {
    callId: "c2",
    tool: definition,
    input: { path: relative },
    target: { cwd: TEST_WORKDIR, path: relative },
  };
}
