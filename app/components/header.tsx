// The header, one row on a 1280×720 projector even in presenter mode: the session picker and its menu,
// the workdir (it gives way first), what the model is (provider, the offline-demo badge, a replay, manual),
// the sandbox and the folder's trust, the run settings behind one button (run-settings.tsx), and on the
// right the connection, the column toggles, the trigger lab and presenter mode. Nothing wraps: what does
// not fit shrinks (the workdir, the session title) instead of pushing a second row.
"use client";
import type { ComponentProps, ReactNode } from "react";
import type { CacheSettings } from "./cache-settings.tsx";
import type { FolderTrust, SessionSettings, SessionSummary } from "../../server/protocol/index.ts";
import type { SandboxBadge } from "../lib/sandbox-text.ts";
import { folderGrantsSomething } from "../state/derive.ts";
import type { ConnectionStatus } from "../state/types.ts";
import { RunSettings, type SettingsChange } from "./run-settings.tsx";
import { SessionPicker } from "./session-picker.tsx";
import { Badge, Button } from "./ui.tsx";

export { disclosureModes, permissionModes, type SettingsChange } from "./run-settings.tsx";

const connectionLabels: Record<ConnectionStatus, string> = {
  idle: "starting",
  connecting: "connecting…",
  open: "connected",
  closed: "disconnected — reconnecting",
  no_token: "no token",
  wrong_token: "token of an earlier start",
};

/** The last two folders of a path: the part that tells projects apart in a narrow header. */
export function shortPath(fullPath: string): string {
  const parts = fullPath.split("/").filter(Boolean);
  return parts.length <= 2 ? fullPath : `…/${parts.slice(-2).join("/")}`;
}

const trustVia: Record<NonNullable<FolderTrust["via"]>, string> = {
  remembered: "remembered in ~/.PseudoClaude/trusted-folders.json",
  demo: "the playground's own demo copy",
  cli: "--trust on the command line",
  session: "for this session only (not remembered)",
};

function TrustBadge({ trust, onShow }: { trust: FolderTrust; onShow: () => void }) {
  if (trust.trusted)
    return (
      <Badge
        tone="green"
        testId="header-trust"
        title={`This folder's own settings apply: trusted ${trust.via ? trustVia[trust.via] : ""}`}
      >
        trusted folder
      </Badge>
    );
  return (
    <button
      type="button"
      data-testid="header-trust"
      className="rounded border border-amber-300 bg-amber-50 px-1.5 py-px text-[0.7rem] font-medium whitespace-nowrap text-amber-900 hover:bg-amber-100"
      title={`${trust.renewal ? `Asked again: ${trust.renewal.reason}. ` : ""}This folder's own allow rules, MCP servers and default mode are ignored until you trust it (its deny and ask rules apply). Click to see what it would grant.`}
      onClick={onShow}
    >
      untrusted folder
    </button>
  );
}

export function Header({
  connection,
  sessions,
  currentId,
  settings,
  sandbox,
  trust,
  presenter,
  panels,
  onOpenSession,
  onNewSession,
  onExport,
  onRefreshSessions,
  onDeleteSession,
  onChangeSettings,
  onShowTrust,
  onTogglePresenter,
  onTogglePanel,
  onOpenTriggerLab,
  menu,
  cacheAs,
}: {
  connection: ConnectionStatus;
  sessions: SessionSummary[];
  currentId?: string;
  settings?: SessionSettings;
  /** The sandbox as the header shows it; absent when the server reported nothing. */
  sandbox?: SandboxBadge;
  trust?: FolderTrust;
  presenter: boolean;
  panels: { catalog: boolean; inspector: boolean };
  onOpenSession: (id: string) => void;
  onNewSession: () => void;
  onExport: () => void;
  onRefreshSessions: () => void;
  onDeleteSession: (id: string) => void;
  onChangeSettings: (change: SettingsChange) => void;
  onShowTrust: () => void;
  onTogglePresenter: () => void;
  onTogglePanel: (panel: "catalog" | "inspector") => void;
  /** Opens the trigger lab (issue 14); the button is shown only when given. */
  onOpenTriggerLab?: () => void;
  /** The session menu (share and replay: session-menu.tsx), next to the session picker. */
  menu?: ReactNode;
  /** The "cache as" models the server offers (hello). */
  cacheAs?: ComponentProps<typeof CacheSettings>["offer"];
}) {
  const connected = connection === "open";
  return (
    <header
      className="relative z-10 flex flex-nowrap items-center gap-1.5 border-b border-slate-300 bg-slate-50 px-2 py-1 whitespace-nowrap"
      data-testid="header"
    >
      {/* Presenter type is a quarter larger: the name gives its room to the controls (the tab says it). */}
      {!presenter && (
        <strong className="shrink-0 text-sm" title="PseudoClaude Playground">
          PseudoClaude
        </strong>
      )}
      <SessionPicker
        sessions={sessions}
        currentId={currentId}
        onOpen={onOpenSession}
        onNew={onNewSession}
        onExport={onExport}
        onRefresh={onRefreshSessions}
        onDelete={onDeleteSession}
      />
      {menu && <div className="shrink-0">{menu}</div>}
      {settings && (
        <>
          <span
            className="min-w-0 shrink-[2] truncate font-mono text-xs text-slate-700"
            data-testid="header-workdir"
            title={`Working directory: ${settings.workdir}`}
          >
            {shortPath(settings.workdir)}
          </span>
          <div className="flex shrink-0 items-center gap-1">
            {settings.provider !== "scripted" && settings.provider !== "router" && (
              <Badge tone="blue" testId="header-provider" title="provider / model">
                {settings.provider}
                {settings.model && settings.model !== settings.provider ? ` / ${settings.model}` : ""}
              </Badge>
            )}
            {settings.provider === "scripted" && (
              <Badge
                tone="amber"
                testId="scripted-badge"
                title={`Model turns come from a YAML scenario (${settings.model}); no API key, no network`}
              >
                <span data-testid="header-provider-scripted">scripted model — offline demo</span>
              </Badge>
            )}
            {settings.provider === "router" && (
              <Badge
                tone="violet"
                testId="router-badge"
                title="Loads the skill whose description best matches your message (word scores in the inspector), then plays its scenario; no API key, no network"
              >
                description router — not a language model
              </Badge>
            )}
            {settings.provider === "scripted" && settings.replayOf && (
              <Badge
                tone="amber"
                testId="replay-badge"
                title={`The model turns are a recording (${settings.replayOf}), played back offline`}
              >
                replay
              </Badge>
            )}
            {settings.refreshToolsEachIteration && (
              <Badge
                tone="red"
                testId="refresh-tools-badge"
                title="Experiment: tool definitions are refreshed every iteration, so a skill's tools become visible in the same run. This deviates from the design."
              >
                experiment: tools refreshed each iteration
              </Badge>
            )}
            {settings.provider === "manual" && (
              <Badge tone="violet" testId="manual-badge">
                you are the model
              </Badge>
            )}
            {sandbox && (
              <Badge tone={sandbox.tone} testId="header-sandbox" title={sandbox.title}>
                {sandbox.tone === "red" ? "⚠ " : ""}
                {sandbox.label}
              </Badge>
            )}
            {trust && folderGrantsSomething(trust) && <TrustBadge trust={trust} onShow={onShowTrust} />}
          </div>
          <RunSettings settings={settings} sandbox={sandbox} cacheAs={cacheAs} onChange={onChangeSettings} />
        </>
      )}
      <div className="ml-auto flex shrink-0 items-center gap-1">
        <span
          className={`inline-flex items-center gap-1 text-xs ${connected ? "text-emerald-800" : "font-semibold text-red-800"}`}
          data-testid="connection-status"
          data-state={connection}
          title={`Connection to the playground server: ${connectionLabels[connection]}`}
        >
          <span
            aria-hidden="true"
            className={`inline-block h-2 w-2 rounded-full ${connected ? "bg-emerald-500" : connection === "connecting" || connection === "idle" ? "bg-slate-400" : "bg-red-600"}`}
          />
          <span className={connected ? "sr-only" : ""}>{connectionLabels[connection]}</span>
        </span>
        <Button
          small
          testId="toggle-catalog"
          onClick={() => onTogglePanel("catalog")}
          title={`${panels.catalog ? "Hide" : "Show"} the catalog column`}
          ariaLabel="Catalog column"
          pressed={panels.catalog}
        >
          {panels.catalog ? "◧" : "□"}
          {!presenter && " Catalog"}
        </Button>
        <Button
          small
          testId="toggle-inspector"
          onClick={() => onTogglePanel("inspector")}
          title={`${panels.inspector ? "Hide" : "Show"} the inspector column`}
          ariaLabel="Inspector column"
          pressed={panels.inspector}
        >
          {!presenter && "Inspector "}
          {panels.inspector ? "◨" : "□"}
        </Button>
        {onOpenTriggerLab && (
          <Button
            small
            testId="open-trigger-lab"
            onClick={onOpenTriggerLab}
            title="Measure which skill each query triggers; check the catalog budget"
          >
            Trigger lab
          </Button>
        )}
        <Button
          small
          testId="toggle-presenter"
          onClick={onTogglePresenter}
          title={presenter ? "Back to normal type" : "Larger type for projectors"}
        >
          {presenter ? "Normal type" : "Presenter"}
        </Button>
      </div>
    </header>
  );
}
