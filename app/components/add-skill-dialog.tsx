// "Add skill": drop a .zip (or pick one, or pick a folder), see what the server would do with it — the
// folder it goes to, what it replaces or shadows, or which entry broke which rule — then install. A
// replace needs an explicit tick first. Presentational: the container uploads and sends the commands.
"use client";
import { useEffect, useState, type DragEvent } from "react";
import type { InstallLayer, InstallOutcome, InstallPlan } from "../../server/protocol/index.ts";
import { displayPath } from "./catalog-panel.tsx";
import { Dialog } from "./dialog.tsx";
import { EscapedText } from "./escaped-text.tsx";
import { Button } from "./ui.tsx";
import { plural } from "../../server/shared/figures.ts";

export type AddSkillStatus = "idle" | "reading" | "checking" | "installing";

export interface AddSkillView {
  fileName?: string;
  status: AddSkillStatus;
  /** The server's latest answer for the current upload (a dry run, or the install). */
  answer?: { dryRun: boolean; outcome: InstallOutcome };
  /** A problem before anything reached the server (not a .zip, unreadable file). */
  localProblem?: string;
}

const layerHelp: Record<InstallLayer, string> = {
  user: "user: ~/.PseudoClaude/skills, available in every project",
  project: "project: this workdir's .PseudoClaude/skills, wins over builtin and user skills",
};

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

function Answer({
  answer,
  workdir,
  confirmReplace,
  onConfirmReplace,
}: {
  answer: NonNullable<AddSkillView["answer"]>;
  workdir?: string;
  confirmReplace: boolean;
  onConfirmReplace: (value: boolean) => void;
}) {
  const { outcome } = answer;
  if (!outcome.ok)
    return (
      <div
        className="rounded border border-red-300 bg-red-50 p-2 text-red-950"
        data-testid="add-skill-refusal"
      >
        <p className="font-semibold">Refused — nothing was written</p>
        <p className="font-mono text-xs break-all" data-testid="add-skill-refusal-entry">
          <EscapedText text={outcome.refusal.entry} />
        </p>
        <p data-testid="add-skill-refusal-rule">
          <EscapedText text={outcome.refusal.rule} />
        </p>
      </div>
    );
  const { plan } = outcome;
  if (!answer.dryRun)
    return (
      <p
        className="rounded border border-emerald-300 bg-emerald-50 p-2 text-emerald-950"
        data-testid="add-skill-installed"
      >
        Installed <span className="font-mono font-semibold">{plan.name}</span> into the {plan.layer} layer (
        {displayPath(plan.targetDir, workdir)}); the catalog has reloaded.
      </p>
    );
  return (
    <div className="space-y-1 rounded border border-slate-200 bg-slate-50 p-2" data-testid="add-skill-plan">
      <p>
        <span className="font-mono font-semibold" data-testid="add-skill-plan-name">
          {plan.name}
        </span>{" "}
        — <EscapedText text={plan.description} />
      </p>
      <p className="text-xs text-slate-600">
        {plural(plan.files, "file")}, {formatBytes(plan.bytes)} uncompressed
        {plan.toolNames.length > 0 && `, tools: ${plan.toolNames.join(", ")}`}. Goes to{" "}
        <span className="font-mono" title={plan.targetDir}>
          {displayPath(plan.targetDir, workdir)}
        </span>
        .
      </p>
      {plan.plugin && <PluginPlanLines plugin={plan.plugin} workdir={workdir} />}
      {plan.shadows.map((entry) => (
        <p key={entry.path} className="text-xs" data-testid="add-skill-shadows">
          Shadows the {entry.source} skill{" "}
          <span className="font-mono">{displayPath(entry.path, workdir)}</span>
        </p>
      ))}
      {plan.shadowedBy.map((entry) => (
        <p key={entry.path} className="text-xs text-amber-800" data-testid="add-skill-shadowed-by">
          The {entry.source} skill <span className="font-mono">{displayPath(entry.path, workdir)}</span> will
          still win over it (a higher layer).
        </p>
      ))}
      {plan.needsForce && (
        <div
          className="rounded border border-red-300 bg-red-50 p-1.5 text-red-950"
          data-testid="add-skill-replaces"
        >
          {plan.replaces.map((entry) => (
            <p key={entry.path}>
              Replaces the {plan.layer} skill at{" "}
              <span className="font-mono">{displayPath(entry.path, workdir)}</span> (it is deleted).
            </p>
          ))}
          <label className="mt-1 flex items-center gap-1">
            <input
              type="checkbox"
              checked={confirmReplace}
              onChange={(event) => onConfirmReplace(event.target.checked)}
              data-testid="add-skill-confirm-replace"
            />
            Yes, replace it
          </label>
        </div>
      )}
    </div>
  );
}

/** A plugin bundle's parts: its skills, the MCP servers it adds to the layer's settings, what it left out. */
function PluginPlanLines({
  plugin,
  workdir,
}: {
  plugin: NonNullable<InstallPlan["plugin"]>;
  workdir?: string;
}) {
  return (
    <div className="space-y-0.5 text-xs" data-testid="add-skill-plugin">
      <p>
        A plugin ({plugin.format}
        {plugin.version ? ` ${plugin.version}` : ""}), installed as one unit: skills{" "}
        <span className="font-mono">{plugin.skills.join(", ") || "none"}</span>.
      </p>
      {plugin.mcpServers.map((server) => (
        <p key={server.name} data-testid="add-skill-plugin-server">
          MCP server <span className="font-mono">{server.name}</span> joins{" "}
          <span className="font-mono">{displayPath(plugin.settingsFile, workdir)}</span>:{" "}
          <EscapedText text={server.target} /> (a project plugin&apos;s servers start once the folder is
          trusted)
        </p>
      ))}
      {plugin.warnings.map((warning) => (
        <p key={warning} className="text-amber-800" data-testid="add-skill-plugin-warning">
          <EscapedText text={warning} />
        </p>
      ))}
    </div>
  );
}

export function AddSkillDialog({
  view,
  layer,
  workdir,
  onLayerChange,
  onPickZip,
  onPickFolder,
  onInstall,
  onClose,
}: {
  view: AddSkillView;
  layer: InstallLayer;
  workdir?: string;
  onLayerChange: (layer: InstallLayer) => void;
  onPickZip: (file: File) => void;
  onPickFolder: (files: File[]) => void;
  onInstall: (force: boolean) => void;
  onClose: () => void;
}) {
  const [dragging, setDragging] = useState(false);
  const [confirmReplace, setConfirmReplace] = useState(false);
  useEffect(() => setConfirmReplace(false), [view.answer]);

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file) onPickZip(file);
  };
  const outcome = view.answer?.outcome;
  const planned = view.answer?.dryRun === true && outcome?.ok === true ? outcome.plan : undefined;
  const busy = view.status !== "idle";
  const canInstall = !!planned && !busy && (!planned.needsForce || confirmReplace);

  return (
    <Dialog title="Add skill" testId="add-skill-dialog" onClose={onClose} width="w-[34rem]">
      <div className="space-y-2">
        <fieldset className="flex gap-3 text-xs" data-testid="add-skill-layer">
          <legend className="sr-only">Install into</legend>
          {(["user", "project"] as const).map((option) => (
            <label key={option} className="flex items-center gap-1" title={layerHelp[option]}>
              <input
                type="radio"
                name="add-skill-layer"
                checked={layer === option}
                onChange={() => onLayerChange(option)}
                data-testid={`add-skill-layer-${option}`}
              />
              {option} layer
            </label>
          ))}
        </fieldset>
        <div
          className={`rounded border-2 border-dashed p-4 text-center ${dragging ? "border-blue-500 bg-blue-50" : "border-slate-300"}`}
          data-testid="add-skill-drop"
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
        >
          <p>Drop a skill .zip here (one folder with a SKILL.md), or</p>
          <div className="mt-1 flex justify-center gap-2 text-xs">
            <label className="cursor-pointer rounded border border-slate-300 px-2 py-0.5 hover:bg-slate-100">
              choose a .zip
              <input
                type="file"
                accept=".zip,application/zip"
                className="sr-only"
                data-testid="add-skill-zip-input"
                onChange={(event) => {
                  const file = event.target.files?.[0];
                  if (file) onPickZip(file);
                  event.target.value = "";
                }}
              />
            </label>
            <label className="cursor-pointer rounded border border-slate-300 px-2 py-0.5 hover:bg-slate-100">
              choose a folder
              <input
                type="file"
                className="sr-only"
                data-testid="add-skill-folder-input"
                {...({ webkitdirectory: "", directory: "" } as Record<string, string>)}
                onChange={(event) => {
                  const files = [...(event.target.files ?? [])];
                  if (files.length > 0) onPickFolder(files);
                  event.target.value = "";
                }}
              />
            </label>
          </div>
          {view.fileName && (
            <p className="mt-1 font-mono text-xs" data-testid="add-skill-file">
              {view.fileName}
            </p>
          )}
        </div>
        {busy && (
          <p className="text-xs text-slate-600" data-testid="add-skill-status">
            {view.status === "reading"
              ? "Reading…"
              : view.status === "checking"
                ? "Checking with the server…"
                : "Installing…"}
          </p>
        )}
        {view.localProblem && (
          <p className="text-red-800" data-testid="add-skill-local-problem">
            {view.localProblem}
          </p>
        )}
        {view.answer && !busy && (
          <Answer
            answer={view.answer}
            workdir={workdir}
            confirmReplace={confirmReplace}
            onConfirmReplace={setConfirmReplace}
          />
        )}
        <div className="flex justify-end gap-2">
          <Button testId="add-skill-close" onClick={onClose}>
            {view.answer && !view.answer.dryRun && view.answer.outcome.ok ? "Close" : "Cancel"}
          </Button>
          <Button
            kind={planned?.needsForce ? "danger" : "primary"}
            testId="add-skill-install"
            disabled={!canInstall}
            onClick={() => onInstall(planned?.needsForce === true)}
          >
            {planned?.needsForce ? "Replace and install" : "Install"}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
