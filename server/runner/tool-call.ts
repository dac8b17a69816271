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
import type { SecretScope } from "../providers/redact.ts";
import { capForModel, MODEL_OUTPUT_CAP } from "../tools/output-cap.ts";
import type { PreparedCall, Registry } from "../tools/registry.ts";
import type { TokenCounter } from "../prompt/segments.ts";
import type { ProcessRunner } from "../tools/process-runner.ts";
import type { SandboxSettings } from "../tools/sandbox.ts";
import { deniedResult as denial, failResult, type ToolExecution, type ToolTarget } from "../tools/types.ts";
import type { PromptItem } from "../skills/types.ts";
import { ABORTED, unlessAborted } from "./abortable.ts";
import { effectEvents } from "./effects.ts";
import { skillFilesUsed } from "./skill-files-used.ts";
import type { SkillRoot } from "../tools/skill-roots.ts";

export interface ToolCallContext {
  runId: string;
  requestIndex: number;
  registry: Registry;
  permission: PermissionHook;
  workdir: string;
  signal: AbortSignal;
  /** The OS sandbox for processes the tool starts; absent: the tools' default (network off). */
  sandbox?: SandboxSettings;
  /** Starts the processes tools run (the composition root's runner). */
  processes: ProcessRunner;
  /** Counts the tokens of what a call adds (an activated skill's index line, a resource read). */
  tokens: TokenCounter;
  /** The session's secrets (the composition root's provider keys and its workdir's credentials). */
  secrets: SecretScope;
  /** Names in this run's definitions snapshot (what the model can see). */
  visibleNames: ReadonlySet<string>;
  permissionTimeoutMs: number;
  /** Plan mode: side_effect tools are refused, not only hidden (the model may still name one). */
  readOnly?: boolean;
  /**
   * An isolated slash run: only these tools may be called; any other registered tool is refused, not only
   * hidden (the model may still name one). `scope` names the run in the refusal.
   */
  allowed?: { names: ReadonlySet<string>; scope: string };
  emit: (event: RunnerEvent) => void;
  /** The skills index, for the level-1 tokens of a skill the call activates. */
  promptItems?: () => readonly PromptItem[];
  /** The loaded skills' folders, for the skill files a command used (skill-files-used.ts). */
  skillRoots?: () => readonly SkillRoot[];
}

/** A process started (it may have failed): the command's files were used. Not when it could not start. */
function processRan(result: ToolResult): boolean {
  if (result.metadata?.exitCode === undefined) return false;
  return result.ok || result.errorType !== "spawn_failed";
}

/** `skill_resource_used` for each loaded skill's file the call's command ran or named. */
function usedFileEvents(
  call: ToolCall,
  target: ToolTarget,
  result: ToolResult,
  context: ToolCallContext,
): RunnerEvent[] {
  if (!context.skillRoots || target.command === undefined || !processRan(result)) return [];
  return skillFilesUsed(target.command, target.cwd, context.skillRoots()).map((use) => ({
    type: "skill_resource_used",
    runId: context.runId,
    callId: call.id,
    tool: call.name,
    ...use,
  }));
}

/** How long a stopped tool may take to end its processes before the run reports `canceled` anyway. */
export const TOOL_STOP_SETTLE_MS = 3_000;

/** What a stopped tool's promise came to within the bound: its execution, its crash, or nothing yet. */
type Settled =
  { kind: "finished"; execution: ToolExecution } | { kind: "crashed"; error: unknown } | { kind: "late" };

function settledWithin(promise: Promise<ToolExecution>, timeoutMs: number): Promise<Settled> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race<Settled>([
    promise.then(
      (execution) => ({ kind: "finished", execution }),
      (error: unknown) => ({ kind: "crashed", error }),
    ),
    new Promise<Settled>((resolve) => (timer = setTimeout(() => resolve({ kind: "late" }), timeoutMs))),
  ]).finally(() => clearTimeout(timer));
}

const FINISHED_DESPITE_STOP =
  "[Stop was pressed while this call ran, but it finished by itself: this is its real result]";

/**
 * The result of a call that Stop interrupted, saying what actually happened: a tool that ended because
 * of the kill reports that (its own `canceled`, with the process details); one that finished by itself
 * keeps its real result, marked; one that did not end within the bound is `canceled`, its outcome unknown.
 */
function stoppedExecution(tool: string, settled: Settled): ToolExecution {
  if (settled.kind === "late") {
    return {
      result: failResult(
        tool,
        "canceled",
        `canceled by the user while the tool was running; it had not ended ${TOOL_STOP_SETTLE_MS / 1000} s ` +
          "after Stop, so what it did is unknown",
      ),
    };
  }
  if (settled.kind === "crashed") {
    return { result: failResult(tool, "internal", `tool ${tool} crashed: ${errorMessage(settled.error)}`) };
  }
  const { execution } = settled;
  if (!execution.result.ok && execution.result.errorType === "canceled") return execution;
  const { result } = execution;
  const content = `${result.content}\n${FINISHED_DESPITE_STOP}`;
  const metadata = { ...result.metadata, finishedDespiteStop: true };
  const marked: ToolResult = result.ok
    ? { ...result, content, metadata }
    : result.errorType === "permission_denied"
      ? {
          ...result,
          content,
          error: content,
          metadata: { ...metadata, permission: result.metadata.permission },
        }
      : { ...result, content, error: content, metadata };
  return { ...execution, result: marked };
}

/** The tool set of a run restricted to `names` (an isolated slash run of `skill`). */
export function allowedTools(
  names: readonly string[],
  skill: string | undefined,
): ToolCallContext["allowed"] {
  return { names: new Set(names), scope: skill ? `the isolated run of skill "${skill}"` : "this run" };
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

function describeSafely(call: PreparedCall, workdir: string): ToolTarget {
  try {
    return call.describe(workdir);
  } catch (error) {
    return { cwd: workdir, command: `(could not describe the call: ${errorMessage(error)})` };
  }
}

function deniedResult(tool: string, trace: PermissionTrace): ToolResult {
  const by = trace.rule ? `${trace.source}: ${trace.rule}` : trace.source;
  const reason = trace.reason ? ` — ${trace.reason}` : "";
  return denial(tool, `permission denied (${by})${reason}`, trace);
}

/** A refusal by the run's mode (plan mode, an isolated run's tool set), with the target when known. */
function modeTrace(rule: string, check: PermissionCheck, reason: string): PermissionTrace {
  const target = check.target.command ?? check.target.path;
  return {
    decision: "deny",
    source: "mode",
    rule,
    category: check.tool.category,
    ...(target ? { target } : {}),
    reason,
  };
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
  const request = buildApprovalRequest(check, trace, context.secrets);
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
  // A consent (loading an MCP server's skill) approves content, not one call: any allow holds for the
  // session, bound to the key (the skill's URI and file set), and a changed set asks again.
  if (
    answer.kind === "allow_session" ||
    (answer.kind === "allow_once" && check.target.consent?.anyAllowHolds)
  )
    permission.rememberSessionAllow?.(check);
  return decided;
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
    const redact = <T>(value: T): T => context.secrets.redact(value);
    const result = redact(output);
    const fullOutput = full === undefined ? undefined : redact(full);
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
  // Validated once, here: the prepared call carries the typed input to describe and execute.
  const prepared = registry.prepare(call.name, call.input);
  if (!prepared.ok) return { message: finish(prepared.result, 0), known: true, canceled: false };
  const tool = prepared.call;
  const check: PermissionCheck = {
    callId: call.id,
    tool: tool.definition,
    input: call.input,
    target: describeSafely(tool, context.workdir),
  };
  const refusal =
    context.readOnly && tool.definition.safety !== "read_only"
      ? modeTrace(
          "plan",
          check,
          "plan mode allows read-only tools only; describe the change in your plan instead",
        )
      : context.allowed && !context.allowed.names.has(call.name)
        ? modeTrace(
            "isolated",
            check,
            `${context.allowed.scope} may call only its own tools: ${[...context.allowed.names].join(", ")}`,
          )
        : undefined;
  if (refusal) {
    return { message: finish(deniedResult(call.name, refusal), 0, refusal), known: true, canceled: false };
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
    running = tool.execute({
      workdir: context.workdir,
      callId: call.id,
      signal,
      ...(context.sandbox ? { sandbox: context.sandbox } : {}),
      processes: context.processes,
    });
    execution = await unlessAborted(running, signal);
  } catch (error) {
    execution = {
      result: failResult(call.name, "internal", `tool ${call.name} crashed: ${errorMessage(error)}`),
    };
  }
  if (execution === ABORTED) {
    // The tool ends its processes on the same signal: a bounded wait, so `stop` comes after they are gone
    // and the result says what they really did.
    execution = running
      ? stoppedExecution(call.name, await settledWithin(running, TOOL_STOP_SETTLE_MS))
      : stoppedExecution(call.name, { kind: "late" });
  } else if (signal.aborted) {
    execution = stoppedExecution(call.name, { kind: "finished", execution });
  }
  const durationMs = Math.round(performance.now() - started);
  const capped = capExecution(execution);
  const message = finish(capped.result, durationMs, trace, capped.fullOutput);
  // What the call changed (a skill activated, tools registered) happened, Stop or not.
  const figures = {
    tokens: context.tokens,
    content: capped.result.content,
    ...(context.promptItems ? { promptItems: context.promptItems } : {}),
  };
  for (const event of effectEvents(context.runId, capped.result.effects, figures)) emit(event);
  for (const event of usedFileEvents(call, check.target, capped.result, context)) emit(event);
  return { message, known: true, canceled: signal.aborted };
}
