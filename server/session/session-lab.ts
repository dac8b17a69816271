// A session's trigger lab (issue 14): runs the lab on the session's workdir, catalog and provider
// settings, one lab at a time, and streams its progress as session events. Nothing of it enters the
// conversation or the session log: the results are saved next to the eval file.
import { PlaygroundError, errorMessage } from "../errors/index.ts";
import { labWorkspaceOf, runTriggerLab } from "../eval/lab.ts";
import { DEFAULT_EVAL_PATH, loadTriggersFile, type TriggerAblation } from "../eval/triggers-file.ts";
import { catalogBudget } from "../prompt/catalog-budget.ts";
import type { CatalogBudgetReport, ClientProfileName } from "../protocol/trigger-lab.ts";
import type { SessionEvent, SessionSettings } from "../protocol/wire.ts";
import { resolveInWorkdir } from "../tools/confine.ts";
import type { SessionParts, SessionWorkspace } from "./session-types.ts";

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

export interface SessionLabOptions {
  parts: SessionParts;
  home: string;
  workspace: () => SessionWorkspace;
  settings: () => SessionSettings;
  /** `keep` as the event stream takes it: progress goes live only, the start and end stay for a reconnect. */
  emit: (event: SessionEvent, keep: "memory" | "none") => void;
  log: (line: string) => void;
}

export class SessionLab {
  private running: AbortController | undefined;

  constructor(private readonly options: SessionLabOptions) {}

  get isRunning(): boolean {
    return this.running !== undefined;
  }

  /** Starts a lab in the background; refuses at once when one is running or the eval file is outside the workdir. */
  start(request: StartLabRequest): void {
    if (this.running) {
      throw new PlaygroundError(
        "run_in_progress",
        "a trigger lab is already running in this session: stop it first",
      );
    }
    const workspace = this.options.workspace();
    const decision = resolveInWorkdir(workspace.workdir, request.evalPath ?? DEFAULT_EVAL_PATH);
    if (!decision.ok)
      throw new PlaygroundError(
        "path_refused",
        `the eval file must be inside the workdir: ${decision.reason}`,
      );
    const settings = this.options.settings();
    if (settings.provider === "manual") {
      throw new PlaygroundError(
        "invalid_arguments",
        "the trigger lab cannot use the manual provider: every probe would wait for you; pick scripted or a real model",
      );
    }
    const controller = new AbortController();
    this.running = controller;
    this.run(decision.absolute, request, settings, workspace, controller.signal)
      .catch((error: unknown) => {
        this.options.emit({ type: "trigger_lab_failed", message: errorMessage(error) }, "memory");
      })
      .finally(() => {
        if (this.running === controller) this.running = undefined;
      });
  }

  cancel(): void {
    this.running?.abort();
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
      workspace: labWorkspaceOf({ ...workspace, home: this.options.home }),
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
