// The catalog's tool console: one call by hand through the same path as the model's calls (known? →
// arguments valid? → permission, with an approval card when it asks → execute), ending in a
// tool_console_result event. The call's events are marked `console: true`; their runId is the call's id.
import { errorMessage, type ErrorType } from "../errors/index.ts";
import type { StreamInput } from "./request-writer.ts";
import type { ToolResult } from "../protocol/model.ts";
import type { RunnerEvent } from "../protocol/runner-events.ts";
import type { SessionEvent } from "../protocol/wire.ts";
import type { PermissionHook } from "../permission/types.ts";
import { runToolCall } from "../runner/tool-call.ts";
import { PERMISSION_EVALUATE_TIMEOUT_MS } from "../runner/types.ts";
import type { SecretScope } from "../providers/redact.ts";
import type { TokenCounter } from "../prompt/segments.ts";
import type { ProcessRunner } from "../tools/process-runner.ts";
import type { Registry } from "../tools/registry.ts";
import type { SandboxSettings } from "../tools/sandbox.ts";
import { failResult } from "../tools/types.ts";

export interface ConsoleCall {
  requestId: string;
  tool: string;
  input: unknown;
  registry: Registry;
  permission: PermissionHook;
  workdir: string;
  signal: AbortSignal;
  sandbox?: SandboxSettings;
  processes: ProcessRunner;
  tokens: TokenCounter;
  secrets: SecretScope;
  emit: (event: StreamInput) => void;
  emitError: (code: ErrorType, message: string) => void;
}

export async function runConsoleCall(call: ConsoleCall): Promise<void> {
  const { requestId, tool, input, emit } = call;
  const runId = `console_${requestId}`;
  let finished: Extract<RunnerEvent, { type: "tool_result" }> | undefined;
  const started = Date.now();
  try {
    await runToolCall(
      { id: runId, name: tool, input },
      {
        runId,
        requestIndex: 0,
        registry: call.registry,
        permission: call.permission,
        workdir: call.workdir,
        signal: call.signal,
        ...(call.sandbox ? { sandbox: call.sandbox } : {}),
        processes: call.processes,
        tokens: call.tokens,
        secrets: call.secrets,
        // Everything registered is callable from the console, visible to the model or not.
        visibleNames: new Set(call.registry.names()),
        permissionTimeoutMs: PERMISSION_EVALUATE_TIMEOUT_MS,
        emit: (event) => {
          if (event.type === "tool_result") finished = event;
          emit({ ...event, console: true });
        },
      },
    );
  } catch (error) {
    call.emitError("internal", `tool console call ${tool} failed: ${errorMessage(error)}`);
  }
  const result: ToolResult =
    finished?.result ?? failResult(tool, "canceled", "the call was stopped before it ran");
  emit({
    type: "tool_console_result",
    requestId,
    runId,
    tool,
    input,
    result,
    durationMs: finished?.durationMs ?? Date.now() - started,
    ...(finished?.fullOutput !== undefined ? { fullOutput: finished.fullOutput } : {}),
  });
}
