// The open run-settings popover (./run-settings.tsx): permissions, disclosure, the skill and cache
// settings, network inside the sandbox. Loaded when the popover first opens (./lazy.tsx).
"use client";
import type { DisclosureMode, PermissionMode } from "../../server/protocol/index.ts";
import { CacheSettings } from "./cache-settings.tsx";
import { disclosureModes, permissionModes, type RunSettingsProps } from "./run-settings.tsx";
import { SkillSettings } from "./skill-settings.tsx";

export function RunSettingsPanel({ settings, sandbox, cacheAs, onChange }: RunSettingsProps) {
  return (
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
  );
}
