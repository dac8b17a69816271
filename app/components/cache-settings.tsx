// The session's cache settings in the header: where Anthropic breakpoints go, the SOP placement
// experiment, and (for the scripted and manual models, which cache nothing) whose rules to predict with:
// a picker of the models in the server's rules table, each with its minimum prefix and TTL. A new choice
// makes the server predict every request shown again (cache_repredicted).
"use client";
import type { CacheModelChoice, SessionSettings } from "../../server/protocol/index.ts";
import { formatCount } from "../../server/shared/figures.ts";

export interface CacheSettingsChange {
  cacheBreakpoints?: "stable" | "rolling";
  skillPlacement?: "environment" | "message" | "system";
  cacheAs?: string;
  cacheDiagnostics?: boolean;
}

/** "claude-sonnet-4-5 · ≥ 1,024 tokens · 5 min": the model, the prefix it caches from, an entry's life. */
export function cacheChoiceLabel(choice: CacheModelChoice): string {
  const ttl = choice.ttlSeconds % 60 === 0 ? `${choice.ttlSeconds / 60} min` : `${choice.ttlSeconds} s`;
  return `${choice.model} · ≥ ${formatCount(choice.minTokens)} tokens · ${ttl}${choice.priced ? "" : " · no price"}`;
}

const RULE_GROUPS: { rules: CacheModelChoice["rules"]; label: string }[] = [
  { rules: "anthropic", label: "Anthropic (cache_control breakpoints)" },
  { rules: "openai", label: "OpenAI (automatic prefix caching)" },
];

export function CacheSettings({
  settings,
  offer,
  onChange,
}: {
  settings: SessionSettings;
  /** The models the server's rules table offers, and the default (hello's `cacheAs`). */
  offer?: { models: CacheModelChoice[]; default: string };
  onChange: (change: CacheSettingsChange) => void;
}) {
  const simulated = settings.provider === "scripted" || settings.provider === "manual";
  const models = offer?.models ?? [];
  const chosen = settings.cacheAs || offer?.default || "";
  // A model named elsewhere (an older session, the CLI) that the table does not list stays choosable.
  const unlisted = chosen !== "" && !models.some((choice) => choice.model === chosen);
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
          title="The scripted and manual models cache nothing: the inspector predicts the prompt cache and the cost as if every request had gone to this model. Each model caches a prefix only from its minimum length (tokens) and keeps an entry this long without use. Changing it predicts every request shown again."
        >
          cache as
          <select
            data-testid="header-cache-as"
            className="max-w-[17rem] rounded border border-slate-300 bg-white p-0.5"
            value={chosen}
            onChange={(event) => onChange({ cacheAs: event.target.value })}
          >
            {unlisted && <option value={chosen}>{chosen} (not in the rules table)</option>}
            {RULE_GROUPS.map((group) => (
              <optgroup key={group.rules} label={group.label}>
                {models
                  .filter((choice) => choice.rules === group.rules)
                  .map((choice) => (
                    <option key={choice.model} value={choice.model}>
                      {cacheChoiceLabel(choice)}
                    </option>
                  ))}
              </optgroup>
            ))}
          </select>
        </label>
      )}
    </>
  );
}
