// The session's run settings, behind one header button so the header stays one row on a projector: which
// calls ask for approval, how skills are disclosed, the cache settings (cache-settings.tsx), and network
// inside the sandbox. The button itself says the two that change what a demo shows.
"use client";
import type { DisclosureMode, PermissionMode, SessionSettings } from "../../server/protocol/index.ts";
import type { SandboxBadge } from "../lib/sandbox-text.ts";
import type { ComponentProps } from "react";
import type { CacheSettings, CacheSettingsChange } from "./cache-settings.tsx";
import type { SkillSettingsChange } from "./skill-settings.tsx";
import { Loading, RunSettingsPanel } from "./lazy.tsx";
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

export interface RunSettingsProps {
  settings: SessionSettings;
  sandbox?: SandboxBadge;
  /** The models "cache as" offers (the rules table's), with their minimums and TTLs. */
  cacheAs?: ComponentProps<typeof CacheSettings>["offer"];
  onChange: (change: SettingsChange) => void;
}

export function RunSettings({ settings, sandbox, cacheAs, onChange }: RunSettingsProps) {
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
        <Loading inline>
          <RunSettingsPanel settings={settings} sandbox={sandbox} cacheAs={cacheAs} onChange={onChange} />
        </Loading>
      )}
    </div>
  );
}
