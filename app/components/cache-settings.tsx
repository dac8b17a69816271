// The session's cache settings in the header: where Anthropic breakpoints go, the SOP placement
// experiment, and (for the scripted and manual models, which cache nothing) whose rules to predict with.
"use client";
import { useEffect, useState } from "react";
import type { SessionSettings } from "../../server/protocol/index.ts";

export interface CacheSettingsChange {
  cacheBreakpoints?: "stable" | "rolling";
  skillPlacement?: "environment" | "message" | "system";
  cacheAs?: string;
  cacheDiagnostics?: boolean;
}

export function CacheSettings({
  settings,
  onChange,
}: {
  settings: SessionSettings;
  onChange: (change: CacheSettingsChange) => void;
}) {
  const [cacheAs, setCacheAs] = useState(settings.cacheAs ?? "");
  useEffect(() => setCacheAs(settings.cacheAs ?? ""), [settings.cacheAs]);
  const simulated = settings.provider === "scripted" || settings.provider === "manual";
  return (
    <>
      <label
        className="flex items-center gap-1 text-xs"
        title="Anthropic prompt-cache breakpoints. stable only: cache_control on the stable system block, so the conversation is re-sent uncached on every request. stable + rolling: also on the conversation's last block, so each request reads the previous one's messages from the cache."
      >
        cache
        <select
          data-testid="header-cache-breakpoints"
          className="rounded border border-slate-300 bg-white p-0.5"
          value={settings.cacheBreakpoints ?? "rolling"}
          onChange={(event) => onChange({ cacheBreakpoints: event.target.value as "stable" | "rolling" })}
        >
          <option value="stable">stable only</option>
          <option value="rolling">stable + rolling</option>
        </select>
      </label>
      <label
        className="flex items-center gap-1 text-xs"
        title="Experiment: where a loaded skill's SOP goes. environment (the design): the environment block, which changes the prefix before the conversation. message: inside the load_skill result, so the prefix stays intact. system message: a mid-conversation system message after the result (and a skill tool added mid-conversation), on the models cache-rules.json marks; the result otherwise."
      >
        SOPs in
        <select
          data-testid="header-skill-placement"
          className="rounded border border-slate-300 bg-white p-0.5"
          value={settings.skillPlacement ?? "environment"}
          onChange={(event) =>
            onChange({ skillPlacement: event.target.value as "environment" | "message" | "system" })
          }
        >
          <option value="environment">environment</option>
          <option value="message">message (experiment)</option>
          <option value="system">system message (experiment)</option>
        </select>
      </label>
      <label
        className="flex items-center gap-1 text-xs"
        title="Ask the provider for its cache diagnostics (Anthropic: diagnostics.previous_message_id), shown beside the prediction in the Prompt cache strip. A server that refuses the parameter turns this off, with a note."
      >
        <input
          type="checkbox"
          data-testid="header-cache-diagnostics"
          checked={settings.cacheDiagnostics !== false}
          onChange={(event) => onChange({ cacheDiagnostics: event.target.checked })}
        />
        diagnostics
      </label>
      {simulated && (
        <label
          className="flex items-center gap-1 text-xs"
          title="This model caches nothing; the inspector predicts the cache and the cost as if the requests went to this model (default: the configured Anthropic model). Enter to apply."
        >
          cache as
          <input
            data-testid="header-cache-as"
            className="w-32 rounded border border-slate-300 bg-white p-0.5 font-mono"
            placeholder="claude-haiku-4-5"
            value={cacheAs}
            onChange={(event) => setCacheAs(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === "Enter") onChange({ cacheAs: cacheAs.trim() });
            }}
            onBlur={() => {
              if (cacheAs.trim() !== (settings.cacheAs ?? "")) onChange({ cacheAs: cacheAs.trim() });
            }}
          />
        </label>
      )}
    </>
  );
}
