// The session's skill settings in the header: whether a loaded skill's allowed-tools pre-approve its
// calls, and which lint profile the catalog enforces.
"use client";
import type { LintProfileName, SessionSettings } from "../../server/protocol/index.ts";

export interface SkillSettingsChange {
  honourAllowedTools?: boolean;
  lintProfile?: LintProfileName;
}

/** Every profile, with what it does (a Record, so a new profile must be described here). */
const lintProfileHelp: Record<LintProfileName, string> = {
  lenient: "warn but load: only a skill the parser cannot read is left out (the default)",
  "agent-skills":
    "refuse a skill that breaks the Agent Skills spec (name, description, compatibility, metadata, allowed-tools)",
  "claude-code":
    "refuse a skill the Claude API would refuse (anthropic/claude in the name, XML tags in name or description)",
};

export function SkillSettings({
  settings,
  onChange,
}: {
  settings: SessionSettings;
  onChange: (change: SkillSettingsChange) => void;
}) {
  const profile = settings.lintProfile ?? "lenient";
  return (
    <>
      <label
        className="flex items-center gap-1 text-xs"
        title="While a skill is active, the tools its allowed-tools names (mapped onto this playground's tools) run without asking. Off by default. A project skill's count only once the folder is trusted; denies, protected paths, the dangerous list and a sandbox that is off still apply."
      >
        <input
          type="checkbox"
          data-testid="header-honour-allowed-tools"
          checked={settings.honourAllowedTools === true}
          onChange={(event) => onChange({ honourAllowedTools: event.target.checked })}
        />
        honour allowed-tools
      </label>
      <label className="flex items-center gap-1 text-xs" title={`Lint profile: ${lintProfileHelp[profile]}`}>
        lint
        <select
          data-testid="header-lint-profile"
          className="rounded border border-slate-300 bg-white p-0.5"
          value={profile}
          onChange={(event) => onChange({ lintProfile: event.target.value as LintProfileName })}
        >
          {(Object.keys(lintProfileHelp) as LintProfileName[]).map((name) => (
            <option key={name} value={name} title={lintProfileHelp[name]}>
              {name}
            </option>
          ))}
        </select>
      </label>
    </>
  );
}
