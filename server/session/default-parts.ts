// The concrete parts a session is built from in the real server: the workspace (catalog + registry +
// active skills + prompt sources), the permission engine, and the provider named in the settings.
import path from "node:path";
import type { PermissionMode } from "../protocol/model.ts";
import type { PermissionCheck, PermissionTrace } from "../permission/types.ts";
import { createProvider } from "../providers/index.ts";
import type { PermissionEvaluator, SessionParts } from "./session-types.ts";
import { createWorkspace } from "./workspace.ts";

export function defaultSessionParts(options: { scenariosDir: string }): SessionParts {
  return {
    createWorkspace: (workspaceOptions) => createWorkspace(workspaceOptions),
    createPermission: async ({ mode }) => modePermission(mode),
    createProvider: ({ settings, onManualRequest }) =>
      createProvider({
        name: settings.provider,
        ...(settings.model ? { model: settings.model } : {}),
        // Scripted sessions play the chosen scenario file, or pick by `match` from the whole folder.
        scenario: settings.scenario ? path.resolve(options.scenariosDir, settings.scenario) : options.scenariosDir,
        scenarioRoot: options.scenariosDir,
        scripted: { chunkDelayMs: 15 },
        onManualRequest,
      }),
  };
}

/** Interim mode-only policy until the permission engine (rules, settings files) is wired in. */
function modePermission(mode: PermissionMode): PermissionEvaluator {
  const remembered = new Set<string>();
  return {
    evaluate(check: PermissionCheck): PermissionTrace {
      const category = check.tool.category;
      const target = check.target.command ?? check.target.path;
      if (remembered.has(check.tool.name)) return { decision: "allow", source: "session", category, ...(target ? { target } : {}) };
      const allowed =
        mode === "bypassPermissions" ||
        (mode === "acceptEdits" && category !== "exec") ||
        (mode === "default" && category === "read");
      return { decision: allowed ? "allow" : "ask", source: "mode", rule: mode, category, ...(target ? { target } : {}) };
    },
    rememberSessionAllow(check: PermissionCheck): void {
      remembered.add(check.tool.name);
    },
  };
}
