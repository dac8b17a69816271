// The description optimizer panel (issue 25): pick a skill and an eval file, see the plan (the split, the
// calls and their cost) before anything is spent, watch each iteration arrive (its description, a word
// diff from the previous one, train and test scores, cost so far), propose the next description yourself
// when you are the improver (offline: the router scores, you propose — shown exactly what a model would
// be sent, train data only), and Apply the chosen description to the SKILL.md: only after the diff is
// shown, and only on the click.
"use client";
import { useState } from "react";
import type { CostEstimate, LintNote, SpendCaps } from "../../server/protocol/index.ts";
import type { OptimizerView } from "../state/optimizer-state.ts";
import { DescriptionHints, descriptionHints } from "./description-hints.tsx";
import { Badge, Button } from "./ui.tsx";
import { WordDiff } from "./word-diff.tsx";

export interface StartOptimizerInput {
  skill: string;
  evalPath: string;
  runs: number;
  iterations: number;
  holdout: number;
  seed: number;
  maxCalls?: number;
  maxUsd?: number;
}

export function costText(estimate: CostEstimate): string {
  const usd =
    estimate.usd === null ? "cost unknown" : estimate.usd === 0 ? "$0" : `about $${estimate.usd.toFixed(4)}`;
  return `${estimate.calls} model call(s), ${usd}`;
}

export function capsText(caps: SpendCaps | undefined): string {
  const parts = [
    caps?.maxCalls !== undefined ? `at most ${caps.maxCalls} calls` : "",
    caps?.maxUsd !== undefined ? `at most $${caps.maxUsd}` : "",
  ].filter(Boolean);
  return parts.length > 0 ? `caps: ${parts.join(", ")}` : "no cap";
}

const field = "rounded border border-slate-300 px-1 py-0.5";

function NumberField({
  label,
  value,
  onChange,
  testId,
  step = 1,
  min = 0,
  optional = false,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  testId: string;
  step?: number;
  min?: number;
  optional?: boolean;
}) {
  return (
    <label className="flex flex-col">
      {label}
      <input
        type="number"
        step={step}
        min={min}
        placeholder={optional ? "none" : undefined}
        className={`w-20 ${field}`}
        data-testid={testId}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </label>
  );
}

export function OptimizerPanel({
  view,
  skills,
  lint,
  provider,
  onStart,
  onStop,
  onPropose,
  onApply,
}: {
  view?: OptimizerView;
  skills: { name: string; source: string; description: string }[];
  lint?: LintNote[];
  provider: string;
  onStart: (input: StartOptimizerInput) => void;
  onStop: () => void;
  onPropose: (description: string) => void;
  onApply: (skill: string, description: string) => void;
}) {
  const writable = skills.filter((skill) => skill.source !== "builtin");
  const [skill, setSkill] = useState(view?.skill ?? writable[0]?.name ?? skills[0]?.name ?? "");
  const [evalPath, setEvalPath] = useState(".PseudoClaude/evals/triggers.yaml");
  const [runs, setRuns] = useState("3");
  const [iterations, setIterations] = useState("5");
  const [holdout, setHoldout] = useState("0.4");
  const [seed, setSeed] = useState("42");
  const [maxCalls, setMaxCalls] = useState("");
  const [maxUsd, setMaxUsd] = useState("");
  const [proposal, setProposal] = useState<{ for: string; text: string } | undefined>();
  const [confirming, setConfirming] = useState<string | undefined>();
  /** The request last answered: its box closes at once, before the next iteration's event arrives. */
  const [answered, setAnswered] = useState<string | undefined>();
  const running = view?.status === "running" || view?.status === "waiting";
  const offline = provider === "router" || provider === "scripted";
  const selected = skills.find((entry) => entry.name === skill);
  const request = view?.request && view.request.prompt !== answered ? view.request : undefined;
  const proposalText =
    request && proposal?.for === request.prompt ? proposal.text : (request?.description ?? "");
  const best = view?.result?.best_description;
  return (
    <div className="space-y-3 text-xs" data-testid="optimizer-panel">
      <p className="text-slate-600">
        The queries are split into train and test (stratified, seeded). Each iteration measures the
        description on both with real probes; the improver sees the SKILL.md, the train failures and the train
        scores only — never a test query — and the best description is the one with the best <em>test</em>{" "}
        score.{" "}
        {offline
          ? "Offline the router scores and you propose: you are the improver."
          : `The session's model (${provider}) proposes.`}
      </p>
      <div className="flex flex-wrap items-end gap-2">
        <label className="flex flex-col">
          skill
          <select
            className={field}
            data-testid="opt-skill"
            value={skill}
            onChange={(event) => setSkill(event.target.value)}
          >
            {skills.map((entry) => (
              <option key={entry.name} value={entry.name}>
                {entry.name}
                {entry.source === "builtin" ? " (builtin: cannot apply)" : ""}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col">
          eval file (YAML, or skill-creator&apos;s JSON)
          <input
            className={`w-72 ${field}`}
            data-testid="opt-eval-path"
            value={evalPath}
            onChange={(event) => setEvalPath(event.target.value)}
          />
        </label>
        <NumberField label="runs" value={runs} onChange={setRuns} testId="opt-runs" min={1} />
        <NumberField
          label="iterations"
          value={iterations}
          onChange={setIterations}
          testId="opt-iterations"
          min={1}
        />
        <NumberField label="holdout" value={holdout} onChange={setHoldout} testId="opt-holdout" step={0.1} />
        <NumberField label="seed" value={seed} onChange={setSeed} testId="opt-seed" />
        <NumberField
          label="max calls"
          value={maxCalls}
          onChange={setMaxCalls}
          testId="opt-max-calls"
          min={1}
          optional
        />
        <NumberField
          label="max USD"
          value={maxUsd}
          onChange={setMaxUsd}
          testId="opt-max-usd"
          step={0.01}
          optional
        />
        <Button
          testId="opt-start"
          kind="primary"
          small
          disabled={running || skill === ""}
          onClick={() =>
            onStart({
              skill,
              evalPath,
              runs: Math.max(1, Number(runs) || 1),
              iterations: Math.max(1, Number(iterations) || 5),
              holdout: Math.min(0.9, Math.max(0, Number(holdout) || 0)),
              seed: Math.max(0, Math.floor(Number(seed) || 0)),
              ...(maxCalls.trim() !== "" ? { maxCalls: Math.max(1, Math.floor(Number(maxCalls))) } : {}),
              ...(maxUsd.trim() !== "" ? { maxUsd: Math.max(0, Number(maxUsd)) } : {}),
            })
          }
        >
          Optimize
        </Button>
        {running && (
          <Button testId="opt-stop" small kind="danger" onClick={onStop}>
            Stop
          </Button>
        )}
      </div>
      {selected && (
        <div data-testid="opt-current">
          <span className="text-slate-500">current description:</span> {selected.description}
          <DescriptionHints notes={descriptionHints(lint, selected.name)} testId="opt-hints" />
        </div>
      )}
      {view && (
        <div className="space-y-2" data-testid="opt-run" data-status={view.status}>
          <p data-testid="opt-plan">
            <Badge tone="blue">plan</Badge> {costText(view.plan.estimate)} ({view.plan.probeCalls} probes,{" "}
            {view.plan.improverCalls} improver calls at most; {capsText(view.caps)}) · split{" "}
            {view.plan.trainSize} train / {view.plan.testSize} test (holdout {view.plan.holdout}, seed{" "}
            {view.plan.seed}) · scorer {view.plan.scorer} · improver {view.plan.improver}
            <span className="block text-slate-500" data-testid="opt-plan-basis">
              {view.plan.estimate.basis}
            </span>
          </p>
          <table className="w-full" data-testid="opt-iterations">
            <thead>
              <tr className="text-left text-slate-500">
                <th className="px-1">#</th>
                <th className="px-1">description (diff from the previous)</th>
                <th className="px-1">train</th>
                <th className="px-1">test</th>
              </tr>
            </thead>
            <tbody>
              {view.iterations.map((entry, index) => (
                <tr
                  key={entry.iteration}
                  className={`border-t border-slate-100 ${entry.description === best ? "bg-emerald-50" : ""}`}
                  data-testid={`opt-iteration-${entry.iteration}`}
                >
                  <td className="px-1 align-top">{entry.iteration}</td>
                  <td className="px-1">
                    {index === 0 ? (
                      <span>{entry.description}</span>
                    ) : (
                      <WordDiff
                        before={view.iterations[index - 1].description}
                        after={entry.description}
                        testId={`opt-diff-${entry.iteration}`}
                      />
                    )}
                  </td>
                  <td className="px-1 align-top font-mono" data-testid={`opt-train-${entry.iteration}`}>
                    {entry.train_passed}/{entry.train_total}
                  </td>
                  <td className="px-1 align-top font-mono" data-testid={`opt-test-${entry.iteration}`}>
                    {entry.test_passed}/{entry.test_total}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <p data-testid="opt-spent">
            spent so far: ${view.spentUsd.toFixed(4)}
            {view.status === "running" ? " · measuring…" : ""}
          </p>
          {request && (
            <div
              className="space-y-1 rounded border border-violet-300 bg-violet-50 p-2"
              data-testid="opt-proposal"
            >
              <p>
                <strong>Your turn: propose the next description</strong>
                {request.step === "shorten" ? " (the last one was over 1,024 characters: shorten it)" : ""}.
                You see what a model would be sent: the SKILL.md, the train failures and the train history.
              </p>
              <details>
                <summary className="cursor-pointer">what the improver is shown</summary>
                <pre className="max-h-48 overflow-auto whitespace-pre-wrap" data-testid="opt-prompt">
                  {request.prompt}
                </pre>
              </details>
              <textarea
                className="h-20 w-full rounded border border-slate-300 p-1"
                data-testid="opt-proposal-text"
                value={proposalText}
                onChange={(event) => setProposal({ for: request.prompt, text: event.target.value })}
              />
              <Button
                testId="opt-propose"
                kind="primary"
                small
                disabled={proposalText.trim() === ""}
                onClick={() => {
                  setAnswered(request.prompt);
                  onPropose(proposalText);
                }}
              >
                Measure this description
              </Button>
            </div>
          )}
          {view.error && (
            <p className="rounded bg-red-50 p-2 text-red-900" data-testid="opt-error">
              {view.error}
            </p>
          )}
          {view.result && (
            <div className="space-y-1 rounded border border-slate-200 p-2" data-testid="opt-result">
              <p data-testid="opt-exit-reason">
                <strong>Stopped:</strong> {view.result.exit_reason}
              </p>
              <p data-testid="opt-best">
                <strong>Best by test score</strong> ({view.result.best_test_score ?? "—"} test,{" "}
                {view.result.best_train_score ?? "—"} train): {view.result.best_description}
              </p>
              {view.result.best_description !== view.result.original_description &&
                (confirming === view.result.best_description ? (
                  <div className="space-y-1" data-testid="opt-apply-confirm">
                    <p>
                      This changes only the <code>description</code> of {view.skill}&apos;s SKILL.md:
                    </p>
                    <p className="rounded bg-slate-50 p-1">
                      <WordDiff
                        before={view.result.original_description}
                        after={view.result.best_description}
                        testId="opt-apply-diff"
                      />
                    </p>
                    <Button
                      testId="opt-apply-confirm-button"
                      kind="primary"
                      small
                      onClick={() => {
                        onApply(view.skill, view.result!.best_description);
                        setConfirming(undefined);
                      }}
                    >
                      Write it to SKILL.md
                    </Button>{" "}
                    <Button testId="opt-apply-cancel" small onClick={() => setConfirming(undefined)}>
                      Cancel
                    </Button>
                  </div>
                ) : (
                  <Button
                    testId="opt-apply"
                    small
                    disabled={skills.find((entry) => entry.name === view.skill)?.source === "builtin"}
                    onClick={() => setConfirming(view.result!.best_description)}
                  >
                    Apply…
                  </Button>
                ))}
            </div>
          )}
          {view.applied && (
            <p className="text-emerald-800" data-testid="opt-applied">
              Applied to {view.applied.file}.
            </p>
          )}
        </div>
      )}
    </div>
  );
}
