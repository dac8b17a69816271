import type { ApprovalRequest, PermissionTrace } from "../protocol/permission.ts";
import type { SecretScope } from "../providers/redact.ts";
import type { PermissionCheck } from "./types.ts";

/**
 * What the approval card shows: the exact command (or argv) or path, the cwd the call runs in, and for
 * skill tools the exact JSON written to stdin (SECURITY S6). Nothing of it is hidden (S21): a secret in it
 * (a provider key, one of the session's credentials) reads `[secret: NAME]` and is listed in `secrets`,
 * so the card says which and warns; the rest stays as it will run.
 */
export function buildApprovalRequest(
  check: PermissionCheck,
  trace: PermissionTrace,
  secrets: SecretScope,
): ApprovalRequest {
  const marked = secrets.mark(shownRequest(check, trace));
  return { ...marked.value, ...(marked.secrets.length > 0 ? { secrets: marked.secrets } : {}) };
}

function shownRequest(check: PermissionCheck, trace: PermissionTrace): ApprovalRequest {
  const { target } = check;
  return {
    callId: check.callId,
    tool: check.tool.name,
    category: check.tool.category,
    input: check.input,
    ...(target.command !== undefined ? { command: target.command } : {}),
    ...(target.path !== undefined ? { path: target.path } : {}),
    cwd: target.cwd,
    ...(target.stdin !== undefined ? { stdin: target.stdin } : {}),
    ...(target.skillResource !== undefined ? { skill: target.skillResource } : {}),
    ...(target.mcp !== undefined ? { mcp: structuredClone(target.mcp) } : {}),
    trace,
  };
}
