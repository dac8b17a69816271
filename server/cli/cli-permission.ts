// The CLI's permission hook: read-only tools run; side-effect tools ask, and the "user" is the --yes flag.
// Asking (instead of deciding in evaluate) keeps the event stream the same as in the browser.
import type { ApprovalAnswer, PermissionCheck, PermissionHook, PermissionTrace } from "../permission/types.ts";

export const CLI_DENIAL = "denied: run with --yes to approve side-effect tools";

export function createCliPermission(options: { yes: boolean }): PermissionHook {
  return {
    evaluate(check: PermissionCheck): PermissionTrace {
      const target = check.target.command ?? check.target.path;
      const base = { category: check.tool.category, ...(target !== undefined ? { target } : {}) };
      if (check.tool.safety === "read_only") {
        return { decision: "allow", source: "mode", rule: "read_only tools run without approval", ...base };
      }
      return { decision: "ask", source: "mode", reason: "side-effect tools need approval", ...base };
    },
    async ask(): Promise<ApprovalAnswer> {
      return options.yes ? { kind: "allow_once" } : { kind: "deny", reason: CLI_DENIAL };
    },
  };
}
