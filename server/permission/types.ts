import type { ApprovalAnswer, ApprovalRequest, PermissionTrace } from "../protocol/permission.ts";
import type { ToolDefinition } from "../protocol/model.ts";
import type { ToolTarget } from "../tools/types.ts";

export type { ApprovalAnswer, ApprovalRequest, PermissionTrace };

/** One tool call, as the permission engine sees it. */
export interface PermissionCheck {
  callId: string;
  tool: ToolDefinition;
  input: unknown;
  target: ToolTarget;
}

/**
 * The Runner's permission seam. `evaluate` decides allow/ask/deny (pure rules + mode); when it says ask,
 * the Runner emits a permission_request and awaits `ask`. A throwing or slow evaluate fails closed.
 */
export interface PermissionHook {
  evaluate(check: PermissionCheck): PermissionTrace | Promise<PermissionTrace>;
  ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer>;
  /** Called after an "allow for this session" answer so later identical calls are allowed. */
  rememberSessionAllow?(check: PermissionCheck): void;
}
