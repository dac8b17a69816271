// New session: workdir, provider (with which ones are configured), model, permission and disclosure modes,
// and the scenario for the scripted provider. Picking bypassPermissions warns up front and needs a tick
// before the session can be created (the server asks for that confirmation too).
"use client";
import { useState } from "react";
import type {
  DisclosureMode,
  PermissionMode,
  ProviderInfo,
  SessionConfirmation,
  SessionSettings,
} from "../../server/protocol/index.ts";
import { Dialog } from "./dialog.tsx";
import { disclosureModes, permissionModes } from "./run-settings.tsx";
import { Button } from "./ui.tsx";

/** A scenario the repo ships (scenarios/), named as the example; a test checks that it exists. */
export const SCENARIO_EXAMPLE = "csv-report.yaml";

export function NewSessionDialog({
  providers,
  defaults,
  onCreate,
  onCancel,
}: {
  providers: ProviderInfo[];
  defaults: Partial<SessionSettings>;
  /** `confirm` lists what the user already confirmed here (bypassPermissions). */
  onCreate: (settings: Partial<SessionSettings>, confirm: SessionConfirmation[]) => void;
  onCancel: () => void;
}) {
  const firstProvider = providers.find((provider) => provider.name === defaults.provider) ?? providers[0];
  const [workdir, setWorkdir] = useState(defaults.workdir ?? "");
  const [provider, setProvider] = useState(firstProvider?.name ?? "scripted");
  const [model, setModel] = useState(defaults.model ?? firstProvider?.defaultModel ?? "");
  const [permissionMode, setPermissionMode] = useState<PermissionMode>(defaults.permissionMode ?? "default");
  const [disclosure, setDisclosure] = useState<DisclosureMode>(defaults.disclosure ?? "progressive");
  const [scenario, setScenario] = useState("");
  const [refreshTools, setRefreshTools] = useState(defaults.refreshToolsEachIteration ?? false);
  const [bypassConfirmed, setBypassConfirmed] = useState(false);
  const chosen = providers.find((info) => info.name === provider);
  const unconfigured = chosen !== undefined && !chosen.configured;
  const bypass = permissionMode === "bypassPermissions";
  const blocked = unconfigured || (bypass && !bypassConfirmed);
  const field = "mt-0.5 w-full rounded border border-slate-300 p-1 text-sm";
  return (
    <Dialog title="New session" testId="new-session-dialog" onClose={onCancel}>
      <form
        className="space-y-2"
        onSubmit={(event) => {
          event.preventDefault();
          if (blocked) return;
          onCreate(
            {
              ...(workdir.trim() ? { workdir: workdir.trim() } : {}),
              provider,
              ...(model.trim() ? { model: model.trim() } : {}),
              permissionMode,
              disclosure,
              ...(scenario.trim() ? { scenario: scenario.trim() } : {}),
              ...(refreshTools ? { refreshToolsEachIteration: true } : {}),
            },
            bypass ? ["bypass_permissions"] : [],
          );
        }}
      >
        <label className="block text-xs">
          Working directory
          <input
            data-testid="new-session-workdir"
            className={`${field} font-mono`}
            value={workdir}
            onChange={(event) => setWorkdir(event.target.value)}
            placeholder="/path/to/project"
          />
        </label>
        <label className="block text-xs">
          Provider
          <select
            data-testid="new-session-provider"
            className={field}
            value={provider}
            onChange={(event) => {
              setProvider(event.target.value);
              setModel(providers.find((info) => info.name === event.target.value)?.defaultModel ?? "");
            }}
          >
            {providers.map((info) => (
              <option key={info.name} value={info.name}>
                {info.name}
                {info.offline ? " (offline)" : ""}
                {!info.configured ? " — not configured" : ""}
              </option>
            ))}
          </select>
        </label>
        {unconfigured ? (
          // Selectable on purpose: choosing it is how a newcomer finds out what to set.
          <div
            className="rounded border border-red-300 bg-red-50 p-2 text-xs text-red-900"
            data-testid="new-session-provider-hint"
            role="alert"
          >
            <strong>{chosen.name} is not configured on the server.</strong> To use it:{" "}
            {chosen.hint ?? "configure its key or endpoint"}, then restart the playground. Keys stay on the
            server; the browser never sees them. Until then, pick <em>scripted</em> (offline demo) or{" "}
            <em>manual</em> (you are the model).
          </div>
        ) : (
          chosen?.hint && (
            <p className="text-xs text-slate-600" data-testid="new-session-provider-hint">
              {chosen.hint}
            </p>
          )
        )}
        <label className="block text-xs">
          Model
          <input
            data-testid="new-session-model"
            className={`${field} font-mono`}
            value={model}
            onChange={(event) => setModel(event.target.value)}
          />
        </label>
        {provider === "scripted" && (
          <label className="block text-xs">
            Scenario (optional; otherwise chosen by matching your message)
            <input
              data-testid="new-session-scenario"
              className={`${field} font-mono`}
              value={scenario}
              onChange={(event) => setScenario(event.target.value)}
              placeholder={`e.g. ${SCENARIO_EXAMPLE} (a file in the server's scenarios folder)`}
            />
          </label>
        )}
        <div className="flex gap-2">
          <label className="block flex-1 text-xs">
            Permission mode
            <select
              data-testid="new-session-permission-mode"
              className={field}
              value={permissionMode}
              onChange={(event) => setPermissionMode(event.target.value as PermissionMode)}
            >
              {permissionModes.map((mode) => (
                <option key={mode}>{mode}</option>
              ))}
            </select>
          </label>
          <label className="block flex-1 text-xs">
            Disclosure
            <select
              data-testid="new-session-disclosure"
              className={field}
              value={disclosure}
              onChange={(event) => setDisclosure(event.target.value as DisclosureMode)}
            >
              {disclosureModes.map((mode) => (
                <option key={mode}>{mode}</option>
              ))}
            </select>
          </label>
        </div>
        {bypass && (
          <div
            className="rounded border border-red-300 bg-red-50 p-2 text-xs text-red-900"
            data-testid="new-session-bypass-warning"
            role="alert"
          >
            <strong>bypassPermissions: nothing asks.</strong> Every tool call (writes, commands, skill tools)
            runs without your approval; only the dangerous-command list and protected paths still stop it.
            <label className="mt-1 flex items-start gap-1.5">
              <input
                type="checkbox"
                data-testid="new-session-bypass-confirm"
                className="mt-0.5"
                checked={bypassConfirmed}
                onChange={(event) => setBypassConfirmed(event.target.checked)}
              />
              <span>I understand: run every tool call in this session without asking me.</span>
            </label>
          </div>
        )}
        <label className="flex items-start gap-1.5 text-xs">
          <input
            type="checkbox"
            data-testid="new-session-refresh-tools"
            className="mt-0.5"
            checked={refreshTools}
            onChange={(event) => setRefreshTools(event.target.checked)}
          />
          <span>
            Experiment: refresh tool definitions every iteration. <strong>A deviation from the design</strong>
            : normally a skill&apos;s tools become visible only from the next run.
          </span>
        </label>
        <div className="flex justify-end gap-2 pt-1">
          <Button testId="new-session-cancel" onClick={onCancel}>
            Cancel
          </Button>
          <Button
            kind="primary"
            type="submit"
            testId="new-session-create"
            disabled={blocked}
            title={
              unconfigured
                ? `${provider} is not configured on the server`
                : blocked
                  ? "Tick the bypassPermissions confirmation first"
                  : undefined
            }
          >
            Create session
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
