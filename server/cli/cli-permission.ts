// The CLI's permission hook: the real PermissionEngine (the --mode, default `default`, plus the settings.json
// rules of the home and the workdir — the workdir's allow rules only when the folder is trusted, remembered
// or by --trust) decides; when it says "ask", the "user" is the --yes flag. Asking, rather than deciding in
// evaluate, keeps the CLI's event stream the same as the browser's.
import { PermissionEngine } from "../permission/engine.ts";
import { folderRealpath, loadFolderPermission } from "../permission/trust.ts";
import type { ScopedAllowRule } from "../permission/scoped-allows.ts";
import type { ApprovalAnswer, PermissionHook } from "../permission/types.ts";
import type { PermissionMode } from "../protocol/model.ts";
import type { FolderTrust, SandboxState } from "../protocol/sandbox.ts";
import { sandboxState } from "../tools/sandbox.ts";

export const CLI_DENIAL = "denied: run with --yes to approve side-effect tools";

export interface CliPermission {
  hook: PermissionHook;
  /** Problems in settings files (named file and rule) or the trust store, for a warning on stderr. */
  problems: string[];
  trust: FolderTrust;
  /** The sandbox the engine was told exec calls run in. */
  sandbox: SandboxState;
  /** Allow rules scoped to the run (loaded skills' allowed-tools when honoured), read at every call. */
  setScopedAllows(source: () => readonly ScopedAllowRule[]): void;
}

export async function createCliPermission(options: {
  yes: boolean;
  workdir: string;
  home: string;
  mode?: PermissionMode;
  /** --trust: the workdir's own allow rules apply for this command (nothing is remembered). */
  trust?: boolean;
  /** --allow-network: the sandbox gives the run's commands a network. */
  allowNetwork?: boolean;
}): Promise<CliPermission> {
  const loaded = await loadFolderPermission({
    workdir: options.workdir,
    home: options.home,
    ...(options.trust ? { via: "cli" as const } : {}),
  });
  const sandbox = sandboxState(options.allowNetwork === true);
  const engine = new PermissionEngine({
    mode: options.mode ?? "default",
    rules: loaded.rules,
    sandbox,
    homes: [options.home, await folderRealpath(options.home)],
  });
  const hook: PermissionHook = {
    evaluate: (check) => engine.evaluate(check),
    ask: async (): Promise<ApprovalAnswer> =>
      options.yes ? { kind: "allow_once" } : { kind: "deny", reason: CLI_DENIAL },
    rememberSessionAllow: (check) => engine.rememberSessionAllow(check),
  };
  return {
    hook,
    problems: loaded.problems,
    trust: loaded.trust,
    sandbox,
    setScopedAllows: (source) => engine.setScopedAllows(source),
  };
}
