// The left column: the catalog and the session's MCP servers, or one skill's detail (its SOP, schemas,
// figures and tool console) when a skill is picked. Reads the open session's view; what the person does
// comes out as the session's client commands.
"use client";
import type { ClientCommand } from "../../server/protocol/index.ts";
import { stageOf } from "../state/selectors.ts";
import type { UiState } from "../state/types.ts";
import { CatalogPanel } from "./catalog-panel.tsx";
import { McpPanel } from "./mcp-panel.tsx";
import { Loading, SkillDetail } from "./lazy.tsx";

const noNames: string[] = [];

export function CatalogColumn({
  state,
  selectedSkill,
  onSelectSkill,
  onAddSkill,
  sessionCommand,
  onNeedFigures,
  onRunTool,
}: {
  state: UiState;
  selectedSkill?: string;
  onSelectSkill: (name: string | undefined) => void;
  onAddSkill: () => void;
  /** Sends a command about the open session (an error card when none is open). */
  sessionCommand: (build: (sessionId: string) => ClientCommand) => void;
  /** The skill detail's token costs, counted on the server (skill_figures); stable, it is an effect's dependency. */
  onNeedFigures: (name: string) => void;
  /** The tool console: one call by hand. */
  onRunTool: (tool: string, input: unknown) => void;
}) {
  const session = state.session;
  const catalog = session?.catalog;
  const skillDetail = catalog?.skills.find((skill) => skill.name === selectedSkill);
  if (skillDetail && session)
    return (
      <Loading inline>
        <SkillDetail
          skill={skillDetail}
          figures={session.skillFigures?.[skillDetail.name]}
          onNeedFigures={onNeedFigures}
          consoleResults={Object.values(session.consoleResults)}
          registeredTools={session.registeredTools}
          lint={catalog?.lint.filter((note) => note.path === skillDetail.entryPath) ?? []}
          honourAllowedTools={session.settings.honourAllowedTools === true}
          mcpSkillGrants={session.settings.mcpSkillGrants ?? noNames}
          onGrantAllowedTools={(key, granted) => {
            const grants = (session.settings.mcpSkillGrants ?? []).filter((entry) => entry !== key);
            const settings = { mcpSkillGrants: granted ? [...grants, key] : grants };
            sessionCommand((sessionId) => ({ type: "update_session", sessionId, settings }));
          }}
          onClose={() => onSelectSkill(undefined)}
          onRunTool={onRunTool}
        />
      </Loading>
    );
  return (
    <div className="flex h-full min-h-0 flex-col">
      {/* Clipped: the catalog's list scrolls inside its own box, never over the MCP panel. */}
      <div className="min-h-0 flex-1 overflow-hidden">
        <CatalogPanel
          catalog={catalog}
          workdir={session?.settings.workdir}
          stageOf={(skill) => stageOf(state, skill)}
          reloadFeed={session?.reloadFeed ?? []}
          selectedSkill={selectedSkill}
          onSelectSkill={onSelectSkill}
          skillResources={Object.values(session?.skillResources ?? {})}
          onReload={() => sessionCommand((sessionId) => ({ type: "reload_catalog", sessionId }))}
          onAddSkill={session ? onAddSkill : undefined}
        />
      </div>
      {session && (
        <div className="max-h-[50%] shrink-0 overflow-auto border-t border-slate-200">
          <McpPanel
            servers={session.mcp?.servers ?? []}
            warnings={session.mcp?.warnings ?? []}
            consoleResults={Object.values(session.consoleResults)}
            onReconnect={(server) =>
              sessionCommand((sessionId) => ({ type: "mcp_reconnect", sessionId, server }))
            }
            onRunTool={onRunTool}
          />
        </div>
      )}
    </div>
  );
}
