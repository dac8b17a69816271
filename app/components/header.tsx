// The header: session picker (list, reopen, new), the session's workdir, provider and model,
// permission and disclosure modes, the sandbox (and the session's network switch), the folder's trust,
// the offline-demo badge, connection state and view toggles.
"use client";
import { CacheSettings, type CacheSettingsChange } from "./cache-settings.tsx";
import { SkillSettings, type SkillSettingsChange } from "./skill-settings.tsx";
import { useEffect, useRef, useState, type ReactNode } from "react";
import type {
  DisclosureMode,
  FolderTrust,
  PermissionMode,
  SessionSettings,
  SessionSummary,
} from "../../server/protocol/index.ts";
import type { SandboxBadge } from "../lib/sandbox-text.ts";
import { folderGrantsSomething } from "../state/derive.ts";
import type { ConnectionStatus } from "../state/types.ts";
import { Badge, Button } from "./ui.tsx";

export const permissionModes: PermissionMode[] = ["strict", "default", "acceptEdits", "bypassPermissions"];
export const disclosureModes: DisclosureMode[] = ["progressive", "eager"];

const connectionLabels: Record<ConnectionStatus, string> = {
  idle: "starting",
  connecting: "connecting…",
  open: "connected",
  closed: "disconnected — reconnecting",
  no_token: "no token",
};

/** The last two folders of a path: the part that tells projects apart in a narrow header. */
export function shortPath(fullPath: string): string {
  const parts = fullPath.split("/").filter(Boolean);
  return parts.length <= 2 ? fullPath : `…/${parts.slice(-2).join("/")}`;
}

function SessionPicker({
  sessions,
  currentId,
  onOpen,
  onNew,
  onExport,
  onRefresh,
  onDelete,
}: {
  sessions: SessionSummary[];
  currentId?: string;
  onOpen: (id: string) => void;
  onNew: () => void;
  onExport: () => void;
  onRefresh: () => void;
  onDelete: (id: string) => void;
}) {
  const [open, setOpen] = useState(false);
  // The session waiting for "really delete?" (deleting removes its log for good, so it asks first).
  const [confirming, setConfirming] = useState<string | undefined>(undefined);
  const container = useRef<HTMLDivElement>(null);
  const current = sessions.find((session) => session.id === currentId);
  // Close on a click elsewhere or on Escape, like any menu.
  useEffect(() => {
    if (!open) return;
    const onPointer = (event: MouseEvent) => {
      if (!container.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      // Handled here: the Escape-stops-the-run shortcut must not also fire.
      event.preventDefault();
      setOpen(false);
      setConfirming(undefined);
    };
    document.addEventListener("mousedown", onPointer);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("mousedown", onPointer);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);
  return (
    <div className="relative" ref={container}>
      <Button
        testId="session-picker"
        onClick={() => {
          if (!open) onRefresh();
          setOpen(!open);
        }}
        title={current ? `Session: ${current.title}` : "Sessions"}
      >
        <span className="text-xs text-slate-500">session </span>
        <span className="inline-block max-w-[9rem] truncate align-bottom">
          {current ? current.title || current.id.slice(0, 8) : "Sessions"}
        </span>{" "}
        ▾
      </Button>
      {open && (
        <div
          className="absolute top-full left-0 z-20 mt-1 w-96 rounded border border-slate-300 bg-white p-1 shadow-lg"
          data-testid="session-list"
        >
          <Button
            small
            kind="primary"
            testId="session-new"
            onClick={() => {
              setOpen(false);
              onNew();
            }}
          >
            New session…
          </Button>{" "}
          {currentId && (
            <Button
              small
              testId="session-export"
              onClick={() => {
                setOpen(false);
                onExport();
              }}
              title="Download this session's JSONL log"
            >
              Export this session's log
            </Button>
          )}
          <ul className="mt-1 max-h-80 overflow-y-auto">
            {sessions.length === 0 && <li className="p-1 text-xs text-slate-500">No sessions yet.</li>}
            {sessions.map((session) => (
              <li key={session.id} className="group relative">
                <button
                  type="button"
                  data-testid={`session-item-${session.id}`}
                  onClick={() => {
                    setOpen(false);
                    onOpen(session.id);
                  }}
                  className={`w-full rounded p-1 text-left text-xs hover:bg-slate-100 ${session.id === currentId ? "bg-blue-50" : ""}`}
                >
                  <div className="pr-12 font-semibold">
                    {session.title || "(untitled)"} {session.running && <Badge tone="blue">running</Badge>}
                  </div>
                  <div className="text-slate-500">
                    {session.settings.provider}/{session.settings.model} · {session.messageCount} messages ·{" "}
                    {new Date(session.updatedAt).toLocaleString()}
                  </div>
                  <div className="font-mono break-all text-slate-500">{session.settings.workdir}</div>
                </button>
                {confirming === session.id ? (
                  <div
                    className="flex flex-wrap items-center gap-1 rounded border border-red-300 bg-red-50 p-1 text-xs"
                    data-testid={`session-delete-confirm-${session.id}`}
                    role="alertdialog"
                    aria-label="Confirm delete"
                  >
                    <span className="flex-1">
                      Delete “{session.title || "(untitled)"}” and its log? This cannot be undone.
                    </span>
                    <Button
                      small
                      kind="danger"
                      testId="session-delete-yes"
                      onClick={() => {
                        setConfirming(undefined);
                        onDelete(session.id);
                      }}
                    >
                      Delete
                    </Button>
                    <Button small testId="session-delete-no" onClick={() => setConfirming(undefined)}>
                      Keep
                    </Button>
                  </div>
                ) : (
                  <button
                    type="button"
                    data-testid={`session-delete-${session.id}`}
                    className="absolute top-1 right-1 rounded border border-slate-300 bg-white px-1 text-[0.7rem] text-red-800 hover:bg-red-50 disabled:opacity-40"
                    disabled={session.running}
                    title={
                      session.running ? "Stop its run before deleting it" : "Delete this session and its log"
                    }
                    aria-label={`Delete session ${session.title || session.id}`}
                    onClick={() => setConfirming(session.id)}
                  >
                    Delete
                  </button>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

export type SettingsChange = {
  permissionMode?: PermissionMode;
  disclosure?: DisclosureMode;
  allowNetwork?: boolean;
} & CacheSettingsChange &
  SkillSettingsChange;

const trustVia: Record<NonNullable<FolderTrust["via"]>, string> = {
  remembered: "remembered in ~/.PseudoClaude/trusted-folders.json",
  demo: "the playground's own demo copy",
  cli: "--trust on the command line",
  session: "for this session only (not remembered)",
};

/** The session's sandbox, and the network switch that only means something inside it. */
function SandboxControls({
  badge,
  allowNetwork,
  onChange,
}: {
  badge: SandboxBadge;
  allowNetwork: boolean;
  onChange: (allowNetwork: boolean) => void;
}) {
  return (
    <>
      <Badge tone={badge.tone} testId="header-sandbox" title={badge.title}>
        {badge.tone === "red" ? "⚠ " : ""}
        {badge.label}
      </Badge>
      {badge.tone === "green" && (
        <label
          className="flex items-center gap-1 text-xs"
          title="Network access for this session's commands and skill tools inside the sandbox. Off by default. A change takes effect from the next run."
        >
          <input
            type="checkbox"
            data-testid="header-allow-network"
            checked={allowNetwork}
            onChange={(event) => onChange(event.target.checked)}
          />
          allow network
        </label>
      )}
    </>
  );
}

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
}) {
  return (
    <header
      className="flex flex-wrap items-center gap-x-2 gap-y-1 border-b border-slate-300 bg-slate-50 px-2 py-1"
      data-testid="header"
    >
      <strong className="text-sm whitespace-nowrap" title="PseudoClaude Playground">
        PseudoClaude
      </strong>
      <SessionPicker
        sessions={sessions}
        currentId={currentId}
        onOpen={onOpenSession}
        onNew={onNewSession}
        onExport={onExport}
        onRefresh={onRefreshSessions}
        onDelete={onDeleteSession}
      />
      {menu}
      {settings && (
        <>
          <span
            className="max-w-[13rem] truncate font-mono text-xs text-slate-700"
            data-testid="header-workdir"
            title={`Working directory: ${settings.workdir}`}
          >
            {shortPath(settings.workdir)}
          </span>
          {(settings.provider !== "scripted" || settings.model !== "scripted") && (
            <Badge tone="blue" testId="header-provider" title="provider / model">
              {settings.provider}
              {settings.model && settings.model !== settings.provider ? ` / ${settings.model}` : ""}
            </Badge>
          )}
          {settings.provider === "scripted" && (
            <Badge
              tone="amber"
              testId="scripted-badge"
              title="Model turns come from a YAML scenario; no API key, no network"
            >
              <span data-testid="header-provider-scripted">scripted model — offline demo</span>
            </Badge>
          )}
          {settings.provider === "scripted" && settings.replayOf && (
            <Badge
              tone="amber"
              testId="replay-badge"
              title={`The model turns are a recording (${settings.replayOf}), played back offline`}
            >
              replay of a recorded session
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
          {sandbox && (
            <SandboxControls
              badge={sandbox}
              allowNetwork={settings.allowNetwork ?? false}
              onChange={(allowNetwork) => onChangeSettings({ allowNetwork })}
            />
          )}
          {trust && folderGrantsSomething(trust) && <TrustBadge trust={trust} onShow={onShowTrust} />}
          {settings.provider === "manual" && (
            <Badge tone="violet" testId="manual-badge">
              you are the model
            </Badge>
          )}
          <label
            className="flex items-center gap-1 text-xs"
            title="Which tool calls wait for your approval. strict: every call. default: reads run, writes and commands ask. acceptEdits: reads and writes run, commands ask. bypassPermissions: nothing asks (the dangerous-command list and protected paths still apply)."
          >
            permissions
            <select
              data-testid="header-permission-mode"
              className="rounded border border-slate-300 bg-white p-0.5"
              value={settings.permissionMode}
              onChange={(event) => onChangeSettings({ permissionMode: event.target.value as PermissionMode })}
            >
              {permissionModes.map((mode) => (
                <option key={mode}>{mode}</option>
              ))}
            </select>
          </label>
          <label
            className="flex items-center gap-1 text-xs"
            title="progressive: the model sees skill names and descriptions, and loads a body with load_skill. eager: every skill body is inlined in the stable system (for comparison)"
          >
            disclosure
            <select
              data-testid="header-disclosure-mode"
              className="rounded border border-slate-300 bg-white p-0.5"
              value={settings.disclosure}
              onChange={(event) => onChangeSettings({ disclosure: event.target.value as DisclosureMode })}
            >
              {disclosureModes.map((mode) => (
                <option key={mode}>{mode}</option>
              ))}
            </select>
          </label>
          <SkillSettings settings={settings} onChange={onChangeSettings} />
          <CacheSettings settings={settings} onChange={onChangeSettings} />
        </>
      )}
      <div className="ml-auto flex items-center gap-1">
        <Badge
          tone={
            connection === "open"
              ? "green"
              : connection === "closed" || connection === "no_token"
                ? "red"
                : "slate"
          }
          testId="connection-status"
        >
          {connectionLabels[connection]}
        </Badge>
        <Button
          small
          testId="toggle-catalog"
          onClick={() => onTogglePanel("catalog")}
          title="Show or hide the catalog column"
        >
          {panels.catalog ? "◧" : "□"} Catalog
        </Button>
        <Button
          small
          testId="toggle-inspector"
          onClick={() => onTogglePanel("inspector")}
          title="Show or hide the inspector column"
        >
          Inspector {panels.inspector ? "◨" : "□"}
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
          title="Larger type for projectors"
        >
          {presenter ? "Normal type" : "Presenter"}
        </Button>
      </div>
    </header>
  );
}
