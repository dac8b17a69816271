// The "Trigger lab" panel: start a lab on this session's workdir and provider (runs, concurrency, an
// optional ablation), watch the live table fill, and check the catalog budget of a client profile.
"use client";
import { useEffect, useState, type ReactNode } from "react";
import type { CatalogBudgetReport, ClientProfileName } from "../../server/protocol/index.ts";
import type { TriggerLabView } from "../state/trigger-lab-state.ts";
import { CatalogBudgetView } from "./catalog-budget-view.tsx";
import { Dialog } from "./dialog.tsx";
import { TriggerLabTable } from "./trigger-lab-table.tsx";
import { Badge, Button } from "./ui.tsx";

export interface StartLabInput {
  evalPath?: string;
  runs: number;
  concurrency: number;
  ablation?: { skill: string; description: string };
  skill?: string;
  withoutSkills?: boolean;
  maxCalls?: number;
  maxUsd?: number;
  estimateOnly?: boolean;
}

export function TriggerLabDialog({
  lab,
  budget,
  appliedBudget,
  skills,
  provider,
  model,
  onStart,
  onStop,
  onCheckBudget,
  onApplyBudget,
  onClose,
  optimizer,
}: {
  lab?: TriggerLabView;
  budget?: CatalogBudgetReport;
  appliedBudget?: { profile: ClientProfileName; contextWindow?: number } | null;
  skills: string[];
  provider: string;
  model: string;
  onStart: (input: StartLabInput) => void;
  onStop: () => void;
  onCheckBudget: (profile: ClientProfileName, contextWindow?: number) => void;
  onApplyBudget: (budget: { profile: ClientProfileName; contextWindow?: number } | null) => void;
  onClose: () => void;
  /** The optimizer tab's panel (issue 25), rendered by the container. */
  optimizer?: ReactNode;
}) {
  const [tab, setTab] = useState<"lab" | "budget" | "optimizer">("lab");
  const [jsonSkill, setJsonSkill] = useState("");
  const [withoutSkills, setWithoutSkills] = useState(false);
  const [maxCalls, setMaxCalls] = useState("");
  const [maxUsd, setMaxUsd] = useState("");
  const [runs, setRuns] = useState(3);
  const [concurrency, setConcurrency] = useState(4);
  const [evalPath, setEvalPath] = useState(".PseudoClaude/evals/triggers.yaml");
  const [ablate, setAblate] = useState(false);
  const [ablateSkill, setAblateSkill] = useState(skills[0] ?? "");
  const [ablateText, setAblateText] = useState("");
  const running = lab?.status === "running";
  return (
    <Dialog title="Trigger lab" testId="trigger-lab" onClose={onClose} width="w-[60rem]" align="top">
      <div className="space-y-3">
        <div className="flex items-center gap-2">
          <Badge
            tone={provider === "scripted" ? "amber" : provider === "router" ? "violet" : "blue"}
            testId="lab-model"
          >
            {provider === "scripted"
              ? "scripted model — offline demo: the answers are scripted"
              : provider === "router"
                ? "description router — not a language model: it reads the descriptions"
                : `${provider} / ${model}`}
          </Badge>
          <div className="ml-auto flex gap-1">
            <Button
              testId="lab-tab-lab"
              small
              kind={tab === "lab" ? "primary" : "plain"}
              pressed={tab === "lab"}
              onClick={() => setTab("lab")}
            >
              Probes
            </Button>
            {optimizer && (
              <Button
                testId="lab-tab-optimizer"
                small
                kind={tab === "optimizer" ? "primary" : "plain"}
                onClick={() => setTab("optimizer")}
              >
                Optimizer
              </Button>
            )}
            <Button
              testId="lab-tab-budget"
              small
              kind={tab === "budget" ? "primary" : "plain"}
              pressed={tab === "budget"}
              onClick={() => setTab("budget")}
            >
              Catalog budget
            </Button>
            <Button testId="lab-close" small onClick={onClose}>
              Close
            </Button>
          </div>
        </div>
        {tab === "optimizer" ? (
          optimizer
        ) : tab === "lab" ? (
          <>
            <p className="text-xs text-slate-600">
              Each query is a probe: a fresh conversation with the real skills index, one model request,
              scored by the first <code>load_skill</code>. Only <code>load_skill</code> is executed; any other
              tool call is recorded, never run.
            </p>
            <div className="flex flex-wrap items-end gap-2 text-xs">
              <label className="flex flex-col">
                eval file (in the workdir)
                <input
                  className="w-72 rounded border border-slate-300 px-1 py-0.5"
                  data-testid="lab-eval-path"
                  value={evalPath}
                  onChange={(event) => setEvalPath(event.target.value)}
                />
              </label>
              <label className="flex flex-col">
                runs per query
                <input
                  type="number"
                  min={1}
                  max={20}
                  className="w-16 rounded border border-slate-300 px-1 py-0.5"
                  data-testid="lab-runs"
                  value={runs}
                  onChange={(event) => setRuns(Math.max(1, Math.min(20, Number(event.target.value) || 1)))}
                />
              </label>
              <label className="flex flex-col">
                concurrency
                <input
                  type="number"
                  min={1}
                  max={16}
                  className="w-16 rounded border border-slate-300 px-1 py-0.5"
                  data-testid="lab-concurrency"
                  value={concurrency}
                  onChange={(event) =>
                    setConcurrency(Math.max(1, Math.min(16, Number(event.target.value) || 1)))
                  }
                />
              </label>
              <label className="flex items-center gap-1">
                <input
                  type="checkbox"
                  data-testid="lab-ablate"
                  checked={ablate}
                  onChange={(event) => setAblate(event.target.checked)}
                />
                ablation (A/B)
              </label>
              {ablate && (
                <>
                  <select
                    className="rounded border border-slate-300 px-1 py-0.5"
                    data-testid="lab-ablate-skill"
                    value={ablateSkill}
                    onChange={(event) => setAblateSkill(event.target.value)}
                  >
                    {skills.map((name) => (
                      <option key={name} value={name}>
                        {name}
                      </option>
                    ))}
                  </select>
                  <input
                    className="w-72 rounded border border-slate-300 px-1 py-0.5"
                    placeholder="replacement description"
                    data-testid="lab-ablate-description"
                    value={ablateText}
                    onChange={(event) => setAblateText(event.target.value)}
                  />
                </>
              )}
              <label className="flex items-center gap-1">
                <input
                  type="checkbox"
                  data-testid="lab-without-skills"
                  checked={withoutSkills}
                  onChange={(event) => setWithoutSkills(event.target.checked)}
                />
                without skills
              </label>
              <label className="flex flex-col">
                skill (JSON evals)
                <select
                  className="rounded border border-slate-300 px-1 py-0.5"
                  data-testid="lab-json-skill"
                  value={jsonSkill}
                  onChange={(event) => setJsonSkill(event.target.value)}
                  title="skill-creator's JSON form [{query, should_trigger}] tests one skill: name it"
                >
                  <option value="">—</option>
                  {skills.map((name) => (
                    <option key={name} value={name}>
                      {name}
                    </option>
                  ))}
                </select>
              </label>
              <label className="flex flex-col">
                max calls
                <input
                  type="number"
                  min={1}
                  placeholder="none"
                  className="w-20 rounded border border-slate-300 px-1 py-0.5"
                  data-testid="lab-max-calls"
                  value={maxCalls}
                  onChange={(event) => setMaxCalls(event.target.value)}
                />
              </label>
              <label className="flex flex-col">
                max USD
                <input
                  type="number"
                  min={0}
                  step={0.01}
                  placeholder="none"
                  className="w-20 rounded border border-slate-300 px-1 py-0.5"
                  data-testid="lab-max-usd"
                  value={maxUsd}
                  onChange={(event) => setMaxUsd(event.target.value)}
                />
              </label>
              {[false, true].map((estimateOnly) => (
                <Button
                  key={String(estimateOnly)}
                  testId={estimateOnly ? "lab-estimate-only" : "lab-start"}
                  kind={estimateOnly ? "plain" : "primary"}
                  small
                  disabled={running || (ablate && (ablateSkill === "" || ablateText.trim() === ""))}
                  onClick={() =>
                    onStart({
                      evalPath,
                      runs,
                      concurrency,
                      ...(ablate ? { ablation: { skill: ablateSkill, description: ablateText } } : {}),
                      ...(jsonSkill ? { skill: jsonSkill } : {}),
                      ...(withoutSkills ? { withoutSkills: true } : {}),
                      ...(maxCalls.trim() !== ""
                        ? { maxCalls: Math.max(1, Math.floor(Number(maxCalls))) }
                        : {}),
                      ...(maxUsd.trim() !== "" ? { maxUsd: Math.max(0, Number(maxUsd)) } : {}),
                      ...(estimateOnly ? { estimateOnly: true } : {}),
                    })
                  }
                >
                  {estimateOnly ? "Estimate cost" : "Run the lab"}
                </Button>
              ))}
              {running && (
                <Button testId="lab-stop" small kind="danger" onClick={onStop}>
                  Stop
                </Button>
              )}
            </div>
            {lab ? (
              <TriggerLabTable lab={lab} />
            ) : (
              <p className="text-xs text-slate-500">No lab run yet in this session.</p>
            )}
          </>
        ) : (
          <CatalogBudgetView
            report={budget}
            applied={appliedBudget}
            onCheck={onCheckBudget}
            onApply={onApplyBudget}
          />
        )}
      </div>
    </Dialog>
  );
}
