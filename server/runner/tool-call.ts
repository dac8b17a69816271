// One tool call, start to finish: known? → arguments valid? → permission (allow / ask / deny) → execute.
// Every failure becomes a tool result the model reads, so it can correct itself on the next request.
import { errorMessage } from "../errors/index.ts";
import type { ChatMessage, ToolCall, ToolResult } from "../protocol/model.ts";
import type { RunnerEvent } from "../protocol/runner-events.ts";
import type {
  ApprovalAnswer,
  PermissionCheck,
  PermissionHook,
  PermissionTrace,
} from "../permission/types.ts";
import { buildApprovalRequest } from "../permission/approval.ts";
import { evaluateFailClosed } from "../permission/fail-closed.ts";
import { redactKnownSecrets } from "../providers/redact.ts";
import { capForModel, MODEL_OUTPUT_CAP } from "../tools/output-cap.ts";
import type { Registry } from "../tools/registry.ts";
import type { ProcessRunner } from "../tools/process-runner.ts";
import type { SandboxSettings } from "../tools/sandbox.ts";
import { failResult, type Tool, type ToolExecution, type ToolTarget } from "../tools/types.ts";
import { ABORTED, unlessAborted } from "./abortable.ts";

export interface ToolCallContext {
  runId: string;
  requestIndex: number;
  registry: Registry;
  permission: PermissionHook;
  workdir: string;
  signal: AbortSignal;
  /** The OS sandbox for processes the tool starts; absent: the tools' default (network off). */
  sandbox?: SandboxSettings;
  /** Starts the processes tools run (the composition root's runner); absent: the default runner. */
  processes?: ProcessRunner;
  /** Names in this run's definitions snapshot (what the model can see). */
  visibleNames: ReadonlySet<string>;
  permissionTimeoutMs: number;
  /** Plan mode: side_effect tools are refused, not only hidden (the model may still name one). */
  readOnly?: boolean;
  emit: (event: RunnerEvent) => void;
}

/** How long a stopped tool may take to end its processes before the run reports `canceled` anyway. */
export const TOOL_STOP_SETTLE_MS = 3_000;

function settledWithin(promise: Promise<unknown>, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.then(
      () => undefined,
      () => undefined,
    ),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs))),
  ]).finally(() => clearTimeout(timer));
}

export interface ToolCallOutcome {
  message: ChatMessage & { role: "tool" };
  known: boolean;
  canceled: boolean;
}

function toolMessage(call: ToolCall, result: ToolResult): ChatMessage & { role: "tool" } {
  return {
    role: "tool",
    toolCallId: call.id,
    toolName: call.name,
    content: result.content,
    isError: !result.ok,
  };
}

function describeSafely(tool: Tool, input: unknown, workdir: string): ToolTarget {
  try {
    return tool.describe(input, { workdir });
  } catch (error) {
    return { cwd: workdir, command: `(could not describe the call: ${errorMessage(error)})` };
  }
}

function deniedResult(tool: string, trace: PermissionTrace): ToolResult {
  const by = trace.rule ? `${trace.source}: ${trace.rule}` : trace.source;
  const reason = trace.reason ? ` — ${trace.reason}` : "";
  return failResult(tool, "permission_denied", `permission denied (${by})${reason}`, { permission: trace });
}

function userTrace(check: PermissionCheck, answer: ApprovalAnswer): PermissionTrace {
  return {
    decision: answer.kind === "deny" ? "deny" : "allow",
    source: "user",
    category: check.tool.category,
    target: check.target.command ?? check.target.path,
    ...(answer.kind === "deny" ? { reason: answer.reason ?? "denied by the user" } : {}),
    ...(answer.kind === "allow_session" ? { reason: "allowed for this session" } : {}),
  };
}

/** The final permission trace, or "canceled" when Stop came while waiting for the user. */
async function decide(
  check: PermissionCheck,
  context: ToolCallContext,
): Promise<PermissionTrace | "canceled"> {
  const { permission, emit, runId } = context;
  // Fails closed: a hook that throws, answers nonsense or stays silent past the deadline denies the call.
  const trace = await evaluateFailClosed(
    (inner) => permission.evaluate(inner),
    check,
    context.permissionTimeoutMs,
  );
  if (trace.decision !== "ask") {
    emit({ type: "permission_decision", runId, callId: check.callId, trace });
    return trace;
  }
  const request = buildApprovalRequest(check, trace);
  emit({ type: "permission_request", runId, request });
  let answer: ApprovalAnswer | typeof ABORTED;
  try {
    answer = await unlessAborted(permission.ask(request, context.signal), context.signal);
  } catch (error) {
    answer = { kind: "deny", reason: `approval failed: ${errorMessage(error)}` };
  }
  if (answer === ABORTED) return "canceled";
  const decided = userTrace(check, answer);
  emit({ type: "permission_decision", runId, callId: check.callId, trace: decided, answer });
  if (answer.kind === "allow_session") permission.rememberSessionAllow?.(check);
  return decided;
}

function emitActivation(result: ToolResult, context: ToolCallContext): void {
  const metadata = result.metadata;
  if (
    !result.ok ||
    !metadata ||
    typeof metadata.skill !== "string" ||
    !Array.isArray(metadata.registered_tools)
  ) {
    return;
  }
  const { runId, emit } = context;
  emit({
    type: "skill_activated",
    runId,
    name: metadata.skill,
    source: typeof metadata.source === "string" ? metadata.source : "unknown",
    position: typeof metadata.position === "number" ? metadata.position : -1,
  });
  emit({
    type: "tools_registered",
    runId,
    skill: metadata.skill,
    tools: metadata.registered_tools.map(String),
  });
}

/** Keeps the model's copy within the cap even if a tool forgot to; the UI gets the full text. */
function capExecution(execution: ToolExecution): ToolExecution {
  if (execution.result.content.length <= MODEL_OUTPUT_CAP) return execution;
  const capped = capForModel(execution.result.content);
  return {
    result: { ...execution.result, content: capped.text },
    fullOutput: execution.fullOutput ?? execution.result.content,
  };
}

export async function runToolCall(call: ToolCall, context: ToolCallContext): Promise<ToolCallOutcome> {
  const { registry, emit, runId, signal } = context;
  const known = registry.isKnown(call.name);
  emit({
    type: "tool_call",
    runId,
    requestIndex: context.requestIndex,
    call,
    known,
    visible: context.visibleNames.has(call.name),
  });
  const finish = (output: ToolResult, durationMs: number, trace?: PermissionTrace, full?: string) => {
    // Whatever a tool printed, no configured key reaches the model's history or an event (S11).
    const result = redactKnownSecrets(output);
    const fullOutput = full === undefined ? undefined : redactKnownSecrets(full);
    emit({
      type: "tool_result",
      runId,
      callId: call.id,
      result,
      durationMs,
      ...(trace ? { trace } : {}),
      ...(fullOutput !== undefined ? { fullOutput } : {}),
    });
    return toolMessage(call, result);
  };

  if (!known) {
    const visible = [...context.visibleNames].join(", ");
    const result = failResult(
      call.name,
      "unknown_tool",
      `unknown tool "${call.name}". Tools you can call: ${visible}`,
    );
    return { message: finish(result, 0), known: false, canceled: false };
  }
  const invalid = registry.validate(call.name, call.input);
  if (invalid) return { message: finish(invalid, 0), known: true, canceled: false };

  const tool = registry.get(call.name)!;
  const check: PermissionCheck = {
    callId: call.id,
    tool: tool.definition,
    input: call.input,
    target: describeSafely(tool, call.input, context.workdir),
  };
  if (context.readOnly && tool.definition.safety !== "read_only") {
    const planTrace: PermissionTrace = {
      decision: "deny",
      source: "mode",
      rule: "plan",
      category: tool.definition.category,
      ...((check.target.command ?? check.target.path)
        ? { target: check.target.command ?? check.target.path }
        : {}),
      reason: "plan mode allows read-only tools only; describe the change in your plan instead",
    };
    return {
      message: finish(deniedResult(call.name, planTrace), 0, planTrace),
      known: true,
      canceled: false,
    };
  }
  const trace = await decide(check, context);
  if (trace === "canceled") {
    const result = failResult(call.name, "canceled", "canceled by the user while waiting for approval");
    return { message: finish(result, 0), known: true, canceled: true };
  }
  if (trace.decision === "deny") {
    return { message: finish(deniedResult(call.name, trace), 0, trace), known: true, canceled: false };
  }

  emit({ type: "tool_started", runId, callId: call.id, tool: call.name });
  const started = performance.now();
  let execution: ToolExecution | typeof ABORTED;
  let running: Promise<ToolExecution> | undefined;
  try {
    running = tool.execute(call.input, {
      workdir: context.workdir,
      callId: call.id,
      signal,
      ...(context.sandbox ? { sandbox: context.sandbox } : {}),
      ...(context.processes ? { processes: context.processes } : {}),
    });
    execution = await unlessAborted(running, signal);
  } catch (error) {
    execution = {
      result: failResult(call.name, "internal", `tool ${call.name} crashed: ${errorMessage(error)}`),
    };
  }
  const durationMs = Math.round(performance.now() - started);
  if (execution === ABORTED) {
    // The tool ends its processes on the same signal: a bounded wait, so `stop` comes after they are gone.
    if (running) await settledWithin(running, TOOL_STOP_SETTLE_MS);
    const result = failResult(call.name, "canceled", "canceled by the user while the tool was running");
    return { message: finish(result, durationMs, trace), known: true, canceled: true };
  }
  const capped = capExecution(execution);
  const message = finish(capped.result, durationMs, trace, capped.fullOutput);
  emitActivation(capped.result, context);
  return { message, known: true, canceled: signal.aborted };
}
