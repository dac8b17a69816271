// The concrete parts a session is built from in the real server: the workspace (catalog + registry +
// active skills + prompt sources), the permission engine, and the provider named in the settings.
import path from "node:path";
import { PermissionEngine, loadPermissionRules } from "../permission/index.ts";
import { createProvider, loadProvidersConfig } from "../providers/index.ts";
import type { SessionParts } from "./session-types.ts";
import { createWorkspace } from "./workspace.ts";

export function defaultSessionParts(options: { scenariosDir: string; home: string }): SessionParts {
  return {
    createWorkspace: (workspaceOptions) => createWorkspace(workspaceOptions),
    createPermission: async ({ mode, workdir, home }) => {
      // Rules from $HOME/.PseudoClaude/settings.json and <workdir>/.PseudoClaude/settings.json; problems are
      // reported to the user, never fatal.
      const loaded = await loadPermissionRules({ workdir, homeDir: home });
      const engine = new PermissionEngine({ mode, rules: loaded.rules });
      return Object.assign(engine, { loadProblems: loaded.problems });
    },
    createProvider: ({ settings, onManualRequest }) =>
      createProvider({
        name: settings.provider,
        // Keys and endpoints: environment variables, then <home>/.PseudoClaude/providers.json.
        config: loadProvidersConfig({ home: options.home }),
        ...(settings.model ? { model: settings.model } : {}),
        // Scripted sessions play the chosen scenario file, or pick by `match` from the whole folder.
        scenario: settings.scenario
          ? path.resolve(options.scenariosDir, settings.scenario)
          : options.scenariosDir,
        scenarioRoot: options.scenariosDir,
        scripted: { chunkDelayMs: 15 },
        onManualRequest,
      }),
  };
}
