// The CLI's permission hook: the real PermissionEngine (default mode + the settings.json rules of the home
// and the workdir) decides; when it says "ask", the "user" is the --yes flag. Asking, rather than deciding
// in evaluate, keeps the CLI's event stream the same as the browser's.
import { PermissionEngine } from "../permission/engine.ts";
import { loadPermissionRules } from "../permission/settings.ts";
import type { ApprovalAnswer, PermissionHook } from "../permission/types.ts";

export const CLI_DENIAL = "denied: run with --yes to approve side-effect tools";

export interface CliPermission {
  hook: PermissionHook;
  /** Problems in settings files (named file and rule), for a warning on stderr. */
  problems: string[];
}

export async function createCliPermission(options: {
  yes: boolean;
  workdir: string;
  home: string;
}): Promise<CliPermission> {
  const loaded = await loadPermissionRules({ workdir: options.workdir, homeDir: options.home });
  const engine = new PermissionEngine({ mode: "default", rules: loaded.rules });
  const hook: PermissionHook = {
    evaluate: (check) => engine.evaluate(check),
    ask: async (): Promise<ApprovalAnswer> =>
      options.yes ? { kind: "allow_once" } : { kind: "deny", reason: CLI_DENIAL },
    rememberSessionAllow: (check) => engine.rememberSessionAllow(check),
  };
  return { hook, problems: loaded.problems };
}
