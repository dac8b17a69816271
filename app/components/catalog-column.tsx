// The left column: the catalog and the session's MCP servers, or one skill's detail (its SOP, schemas,
// figures and tool console) when a skill is picked. Reads its own view of the store (selectors.ts
// catalogColumn: the same object while a run streams), so it is memoised and a delta does not re-render
// it; what the person does comes out as the session's client commands.
"use client";
import { memo } from "react";
import type { ClientCommand } from "../../server/protocol/index.ts";
import type { CatalogColumnView } from "../state/selectors.ts";
import { CatalogPanel, Loading, McpPanel, SkillDetail } from "./lazy.tsx";

const noNames: string[] = [];
const noServers: never[] = [];

export const CatalogColumn = memo(function CatalogColumn({
  view,
  selectedSkill,
  onSelectSkill,
  onAddSkill,
  sessionCommand,
  onNeedFigures,
  onRunTool,
}: {
  view: CatalogColumnView;
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
  const { catalog, settings } = view;
  const skillDetail = catalog?.skills.find((skill) => skill.name === selectedSkill);
  if (skillDetail && settings)
    return (
      <Loading inline>
        <SkillDetail
          skill={skillDetail}
          figures={view.skillFigures?.[skillDetail.name]}
          onNeedFigures={onNeedFigures}
          consoleResults={view.consoleResults}
          registeredTools={view.registeredTools}
          lint={catalog?.lint.filter((note) => note.path === skillDetail.entryPath) ?? []}
          honourAllowedTools={settings.honourAllowedTools === true}
          mcpSkillGrants={settings.mcpSkillGrants ?? noNames}
          onGrantAllowedTools={(key, granted) => {
            const grants = (settings.mcpSkillGrants ?? []).filter((entry) => entry !== key);
            const change = { mcpSkillGrants: granted ? [...grants, key] : grants };
            sessionCommand((sessionId) => ({ type: "update_session", sessionId, settings: change }));
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
        <Loading inline>
          <CatalogPanel
            catalog={catalog}
            workdir={settings?.workdir}
            stageOf={view.stageOf}
            reloadFeed={view.reloadFeed}
            selectedSkill={selectedSkill}
            onSelectSkill={onSelectSkill}
            skillResources={view.skillResources}
            onReload={() => sessionCommand((sessionId) => ({ type: "reload_catalog", sessionId }))}
            onAddSkill={view.open ? onAddSkill : undefined}
          />
        </Loading>
      </div>
      {view.open && (
        <div className="max-h-[50%] shrink-0 overflow-auto border-t border-slate-200">
          <Loading inline>
            <McpPanel
              servers={view.mcp?.servers ?? noServers}
              warnings={view.mcp?.warnings ?? noNames}
              consoleResults={view.consoleResults}
              onReconnect={(server) =>
                sessionCommand((sessionId) => ({ type: "mcp_reconnect", sessionId, server }))
              }
              onRunTool={onRunTool}
            />
          </Loading>
        </div>
      )}
    </div>
  );
});
