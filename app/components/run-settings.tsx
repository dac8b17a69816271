// The session's run settings, behind one header button so the header stays one row on a projector: which
// calls ask for approval, how skills are disclosed, the cache settings (cache-settings.tsx), and network
// inside the sandbox. The button itself says the two that change what a demo shows.
"use client";
import type { DisclosureMode, PermissionMode, SessionSettings } from "../../server/protocol/index.ts";
import type { SandboxBadge } from "../lib/sandbox-text.ts";
import type { ComponentProps } from "react";
import { CacheSettings, type CacheSettingsChange } from "./cache-settings.tsx";
import { SkillSettings, type SkillSettingsChange } from "./skill-settings.tsx";
import { usePopover } from "./popover.ts";
import { Button } from "./ui.tsx";

export const permissionModes: PermissionMode[] = ["strict", "default", "acceptEdits", "bypassPermissions"];
export const disclosureModes: DisclosureMode[] = ["progressive", "eager"];

export type SettingsChange = {
  permissionMode?: PermissionMode;
  disclosure?: DisclosureMode;
  allowNetwork?: boolean;
} & CacheSettingsChange &
  SkillSettingsChange;

export function RunSettings({
  settings,
  sandbox,
  cacheAs,
  onChange,
}: {
  settings: SessionSettings;
  sandbox?: SandboxBadge;
  /** The models "cache as" offers (the rules table's), with their minimums and TTLs. */
  cacheAs?: ComponentProps<typeof CacheSettings>["offer"];
  onChange: (change: SettingsChange) => void;
}) {
  const { open, setOpen, container } = usePopover();
  return (
    <div className="relative shrink-0" ref={container}>
      <Button
        small
        testId="header-run-settings"
        expanded={open}
        onClick={() => setOpen(!open)}
        title="Settings of this session: permissions, disclosure, skills, prompt cache and network"
        ariaLabel={`Session settings: ${settings.permissionMode}, ${settings.disclosure}`}
      >
        <span aria-hidden="true">⚙</span>{" "}
        <span data-testid="header-run-settings-summary">
          {settings.permissionMode} · {settings.disclosure}
        </span>{" "}
        <span aria-hidden="true">▾</span>
      </Button>
      {open && (
        <div
          className="absolute top-full left-0 z-20 mt-1 flex w-[22rem] max-w-[90vw] flex-col gap-1.5 rounded border border-slate-300 bg-white p-2 shadow-lg"
          data-testid="run-settings"
        >
          <label
            className="flex items-center gap-1 text-xs"
            title="Which tool calls wait for your approval. strict: every call. default: reads run, writes and commands ask. acceptEdits: reads and writes run, commands ask. bypassPermissions: nothing asks (the dangerous-command list and protected paths still apply)."
          >
            permissions
            <select
              data-testid="header-permission-mode"
              className="rounded border border-slate-300 bg-white p-0.5"
              value={settings.permissionMode}
              onChange={(event) => onChange({ permissionMode: event.target.value as PermissionMode })}
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
              onChange={(event) => onChange({ disclosure: event.target.value as DisclosureMode })}
            >
              {disclosureModes.map((mode) => (
                <option key={mode}>{mode}</option>
              ))}
            </select>
          </label>
          <SkillSettings settings={settings} onChange={onChange} />
          <CacheSettings settings={settings} offer={cacheAs} onChange={onChange} />
          {sandbox?.tone === "green" && (
            <label
              className="flex items-center gap-1 text-xs"
              title="Network access for this session's commands and skill tools inside the sandbox. Off by default. A change takes effect from the next run."
            >
              <input
                type="checkbox"
                data-testid="header-allow-network"
                checked={settings.allowNetwork ?? false}
                onChange={(event) => onChange({ allowNetwork: event.target.checked })}
              />
              allow network inside the sandbox (from the next run)
            </label>
          )}
        </div>
      )}
    </div>
  );
}
