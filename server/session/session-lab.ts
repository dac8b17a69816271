// A session's trigger lab (issue 14): runs the lab on the session's workdir, catalog and provider
// settings, one lab at a time, and streams its progress as session events. Nothing of it enters the
// conversation or the session log: the results are saved next to the eval file.
import { BackgroundExperiment, type ExperimentOptions } from "./background-experiment.ts";
import { PlaygroundError } from "../errors/index.ts";
import { labWorkspaceOf, runTriggerLab } from "../eval/lab.ts";
import { loadTriggersFile, type TriggerAblation } from "../eval/triggers-file.ts";
import { catalogBudget } from "../prompt/catalog-budget.ts";
import type { CatalogBudgetReport, ClientProfileName } from "../protocol/trigger-lab.ts";
import type { SessionSettings } from "../protocol/wire.ts";
import { resolveInWorkdir } from "../tools/confine.ts";
import type { SessionWorkspace } from "./session-types.ts";

export interface StartLabRequest {
  evalPath?: string;
  runs: number;
  concurrency?: number;
  ablation?: TriggerAblation;
  skill?: string;
  withoutSkills?: boolean;
  maxCalls?: number;
  maxUsd?: number;
  estimateOnly?: boolean;
}

export type SessionLabOptions = ExperimentOptions;

export class SessionLab {
  private readonly job = new BackgroundExperiment();

  constructor(private readonly options: SessionLabOptions) {}

  get isRunning(): boolean {
    return this.job.isRunning;
  }

  /** Starts a lab in the background; refuses at once when one is running or the eval file is outside the workdir. */
  start(request: StartLabRequest): void {
    const workspace = this.options.workspace();
    const settings = this.options.settings();
    this.job.start({
      what: "a trigger lab",
      workdir: workspace.workdir,
      ...(request.evalPath ? { evalPath: request.evalPath } : {}),
      provider: settings.provider,
      run: (evalFile, signal) => this.run(evalFile, request, settings, workspace, signal),
      onError: (message) => this.options.emit({ type: "trigger_lab_failed", message }, "memory"),
    });
  }

  cancel(): void {
    this.job.cancel();
  }

  budget(profile: ClientProfileName, contextWindow?: number): CatalogBudgetReport {
    return catalogBudget({
      items: this.options.workspace().catalog.promptItems(),
      profile,
      ...(contextWindow ? { contextWindow } : {}),
    });
  }

  private async run(
    evalFile: string,
    request: StartLabRequest,
    settings: SessionSettings,
    workspace: SessionWorkspace,
    signal: AbortSignal,
  ): Promise<void> {
    const evals = await loadTriggersFile(evalFile, request.skill ? { skill: request.skill } : {});
    if (evals.scenarios !== undefined) {
      // The eval file is the workdir's (maybe an untrusted one): its scenarios stay inside the workdir too.
      const scenarios = resolveInWorkdir(workspace.workdir, evals.scenarios);
      if (!scenarios.ok)
        throw new PlaygroundError(
          "path_refused",
          `${evalFile}: scenarios must be inside the workdir: ${scenarios.reason}`,
        );
      evals.scenarios = scenarios.absolute;
    }
    // The scripted model answers probes from the eval file's own scenarios when it names them.
    const probeSettings: SessionSettings =
      settings.provider === "scripted" && evals.scenarios
        ? { ...settings, scenario: evals.scenarios }
        : settings;
    const createProvider = () =>
      this.options.parts.createProvider({
        settings: probeSettings,
        onAwaitingInput: () => {
          throw new PlaygroundError("invalid_arguments", "a trigger-lab probe cannot wait for a person");
        },
      });
    const runs = request.runs;
    const caps = {
      ...(request.maxCalls !== undefined ? { maxCalls: request.maxCalls } : {}),
      ...(request.maxUsd !== undefined ? { maxUsd: request.maxUsd } : {}),
    };
    const hasCaps = Object.keys(caps).length > 0;
    const result = await runTriggerLab({
      evals,
      workspace: labWorkspaceOf({ ...workspace, home: this.options.home, tokens: this.options.tokens }),
      createProvider,
      runs,
      ...(request.concurrency ? { concurrency: request.concurrency } : {}),
      ...(request.ablation ? { ablation: request.ablation } : {}),
      ...(request.withoutSkills ? { withoutSkills: true } : {}),
      ...(hasCaps ? { caps } : {}),
      ...(request.estimateOnly ? { estimateOnly: true } : {}),
      ...(settings.catalogBudget ? { listingBudget: settings.catalogBudget } : {}),
      signal,
      onStarted: (info, total, estimate) => {
        const queries = evals.queries.map(({ query, expect, kind }) => ({ query, expect, kind }));
        this.options.emit(
          { type: "trigger_lab_started", info, queries, total, estimate, ...(hasCaps ? { caps } : {}) },
          "memory",
        );
      },
      onProgress: (progress) => this.options.emit({ type: "trigger_lab_progress", progress }, "none"),
    });
    this.options.emit({ type: "trigger_lab_finished", result }, "memory");
    this.options.log(
      `trigger lab ${result.info.labId}: ${result.a.queries.length} queries × ${runs} in ${Math.round(result.durationMs)} ms`,
    );
  }
}
