import type { ApprovalAnswer, ApprovalRequest, PermissionTrace } from "../protocol/permission.ts";
import type { PermissionCheck, PermissionHook } from "./types.ts";

/** How long a permission hook may take to decide before the call is denied. */
export const DEFAULT_HOOK_TIMEOUT_MS = 5_000;

export function hookDenial(check: PermissionCheck, reason: string): PermissionTrace {
  const target = check.target.command ?? check.target.path;
  return {
    decision: "deny",
    source: "hook",
    category: check.tool.category,
    ...(target !== undefined ? { target } : {}),
    reason,
  };
}

/**
 * Runs a permission decision so that a throw, a rejected promise, a malformed answer or silence past
 * `timeoutMs` becomes a deny trace with source `hook` (SECURITY S5). Never throws.
 */
export async function evaluateFailClosed(
  evaluate: (check: PermissionCheck) => PermissionTrace | Promise<PermissionTrace>,
  check: PermissionCheck,
  timeoutMs: number = DEFAULT_HOOK_TIMEOUT_MS,
): Promise<PermissionTrace> {
  let timer: NodeJS.Timeout | undefined;
  const silence = new Promise<PermissionTrace>((resolve) => {
    timer = setTimeout(
      () =>
        resolve(
          hookDenial(check, `permission hook did not answer within ${timeoutMs} ms; denied (fail closed)`),
        ),
      timeoutMs,
    );
  });
  try {
    const decided = await Promise.race([Promise.resolve().then(() => evaluate(check)), silence]);
    if (!isTrace(decided))
      return hookDenial(check, "permission hook returned no valid decision; denied (fail closed)");
    return decided;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return hookDenial(check, `permission hook failed: ${message}; denied (fail closed)`);
  } finally {
    clearTimeout(timer);
  }
}

/** Wraps a hook so its evaluate fails closed; a failing `ask` becomes a deny answer the model is told about. */
export function withFailClosed(
  hook: PermissionHook,
  timeoutMs: number = DEFAULT_HOOK_TIMEOUT_MS,
): PermissionHook {
  const wrapped: PermissionHook = {
    evaluate: (check) => evaluateFailClosed((inner) => hook.evaluate(inner), check, timeoutMs),
    async ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
      try {
        return await hook.ask(request, signal);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return { kind: "deny", reason: `approval failed: ${message}` };
      }
    },
  };
  if (hook.rememberSessionAllow) wrapped.rememberSessionAllow = (check) => hook.rememberSessionAllow!(check);
  return wrapped;
}

function isTrace(value: unknown): value is PermissionTrace {
  if (typeof value !== "object" || value === null) return false;
  const decision = (value as { decision?: unknown }).decision;
  return decision === "allow" || decision === "ask" || decision === "deny";
}
