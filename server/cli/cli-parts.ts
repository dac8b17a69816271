// The parts a CLI command's session is built from: the server's own (workspace, permission engine with the
// settings files and folder trust), with the workdir trusted for this command only under --trust (never
// remembered), the provider the command built from its flags, and --cache-model applying to any provider.
import { realpath } from "node:fs/promises";
import type { PermissionHook } from "../permission/types.ts";
import type { FolderTrust } from "../protocol/sandbox.ts";
import type { SecretRedactor } from "../providers/redact.ts";
import type { Provider } from "../providers/types.ts";
import { defaultSessionParts } from "../session/default-parts.ts";
import type { SessionParts } from "../session/session-types.ts";

/** What the model is told when a call that asks is refused because the command has no --yes. */
export const CLI_DENIAL = "denied: run with --yes to approve side-effect tools";

export interface CliPartsOptions {
  home: string;
  workdir: string;
  /** --trust: the workdir's own allow rules (and MCP servers) apply for this command. */
  trust: boolean;
  /** The provider every run of the command uses (built from --provider, --model, --base-url, --scenario). */
  provider?: Provider;
  /** The command's provider keys. */
  secrets: SecretRedactor;
}

export async function cliSessionParts(options: CliPartsOptions): Promise<SessionParts> {
  const parts = defaultSessionParts({
    // Unused: the provider comes from the command (a relative --scenario is the caller's, see main.ts).
    scenariosDir: options.workdir,
    home: options.home,
    commandFolders: options.trust ? [await realpath(options.workdir)] : [],
    secrets: options.secrets,
  });
  const provider = options.provider;
  return {
    ...parts,
    cacheAsForAnyProvider: true,
    createProvider: async (settings) => provider ?? (await parts.createProvider(settings)),
  };
}

/**
 * The permission hook of a command that runs no session (`prompt`): the session's engine decides, and a
 * call that would ask is denied (nobody is there to answer).
 */
export async function cliPermission(
  parts: SessionParts,
  options: { workdir: string; home: string },
): Promise<{ hook: PermissionHook; trust: FolderTrust; problems: readonly string[] }> {
  const engine = await parts.createPermission({ mode: "default", ...options });
  if (!engine.trust) throw new Error("the permission engine reports no folder trust");
  return {
    hook: {
      evaluate: (check) => engine.evaluate(check),
      ask: async () => ({ kind: "deny", reason: CLI_DENIAL }),
      rememberSessionAllow: (check) => engine.rememberSessionAllow(check),
    },
    trust: engine.trust,
    problems: engine.loadProblems ?? [],
  };
}
