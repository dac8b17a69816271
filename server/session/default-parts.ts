// The concrete parts a session is built from in the real server: the workspace (catalog + registry +
// active skills + prompt sources), the permission engine, and the provider named in the settings.
import path from "node:path";
import {
  PermissionEngine,
  folderRealpath,
  loadFolderPermission,
  rememberTrustedFolder,
} from "../permission/index.ts";
import type { FolderTrust, TrustAnswer } from "../protocol/sandbox.ts";
import { trustChanges } from "../permission/trust.ts";
import { createProvider, loadProvidersConfig } from "../providers/index.ts";
import type { SecretRedactor } from "../providers/redact.ts";
import { sandboxState } from "../tools/sandbox.ts";
import type { PermissionEvaluator, SessionParts } from "./session-types.ts";
import { createWorkspace } from "./workspace.ts";

export function defaultSessionParts(options: {
  scenariosDir: string;
  home: string;
  /** Realpaths trusted for this start only, never written to the trust store (the server's demo copy). */
  demoFolders?: string[];
  /** Realpaths trusted for this command only (`cli run --trust`), never written to the trust store. */
  commandFolders?: string[];
  /** The composition root's provider keys: the configured keys join them, the providers redact with them. */
  secrets?: SecretRedactor;
}): SessionParts {
  return {
    createWorkspace: (workspaceOptions) => createWorkspace(workspaceOptions),
    createPermission: async ({ mode, workdir, home, allowNetwork }) => {
      // Rules from $HOME/.PseudoClaude/settings.json and <workdir>/.PseudoClaude/settings.json (its allow
      // rules only once the folder is trusted); problems are reported to the user, never fatal.
      const isDemo = options.demoFolders?.includes(workdir) === true;
      const given = isDemo ? "demo" : options.commandFolders?.includes(workdir) ? "cli" : undefined;
      const load = (via?: "session", networkServers?: readonly string[]) =>
        loadFolderPermission({
          workdir,
          home,
          ...(given ? { via: given } : via ? { via } : {}),
          ...(networkServers ? { networkServers } : {}),
        });
      const loaded = await load();
      const engine = new PermissionEngine({
        mode,
        rules: loaded.rules,
        sandbox: sandboxState(allowNetwork ?? false),
        homes: [home, await folderRealpath(home)],
      });
      const evaluator: PermissionEngine & PermissionEvaluator = Object.assign(engine, {
        loadProblems: loaded.problems,
        trust: loaded.trust,
        async trustFolder(
          remember: boolean,
          answer: TrustAnswer = {},
        ): Promise<{ trust: FolderTrust; problems: string[] }> {
          // Trust covers what the prompt showed (its digest; an older page sends none: what was announced).
          const shown = evaluator.trust?.grants;
          const expected = answer.digest ?? shown?.digest;
          const changedMeanwhile = (now: FolderTrust): { trust: FolderTrust; problems: string[] } => {
            evaluator.trust = {
              ...now,
              trusted: false,
              renewal: {
                reason: "the folder's settings changed while the prompt was open: review what it grants now",
                changes: shown?.digest === expected && shown ? trustChanges(now.grants, shown) : [],
              },
            };
            delete evaluator.trust.via;
            delete evaluator.trust.networkServers;
            return { trust: evaluator.trust, problems: [] };
          };
          const current = await load();
          if (current.trust.grants.digest !== expected) return changedMeanwhile(current.trust);
          const networkServers = (answer.networkServers ?? []).filter((name) =>
            current.trust.grants.mcpServers.includes(name),
          );
          const stored =
            remember && !given
              ? await rememberTrustedFolder(home, workdir, { grants: current.trust.grants, networkServers })
              : {};
          const reloaded = await load("session", networkServers);
          if (reloaded.trust.grants.digest !== expected) return changedMeanwhile(reloaded.trust);
          // Session rules ("allow for this session") and the mode are kept; only the file rules change.
          engine.setRules(reloaded.rules);
          evaluator.trust = reloaded.trust;
          return { trust: reloaded.trust, problems: stored.problem ? [stored.problem] : [] };
        },
      });
      return evaluator;
    },
    createProvider: ({ settings, onAwaitingInput }) =>
      createProvider({
        name: settings.provider,
        // Keys and endpoints: environment variables, then <home>/.PseudoClaude/providers.json.
        config: loadProvidersConfig({
          home: options.home,
          ...(options.secrets ? { secrets: options.secrets } : {}),
        }),
        ...(options.secrets ? { secrets: options.secrets } : {}),
        ...(settings.model ? { model: settings.model } : {}),
        // Scripted sessions play the chosen scenario file, or pick by `match` from the whole folder.
        scenario: settings.scenario
          ? path.resolve(options.scenariosDir, settings.scenario)
          : options.scenariosDir,
        scenarioRoot: options.scenariosDir,
        scripted: { chunkDelayMs: 15 },
        onAwaitingInput,
      }),
  };
}
