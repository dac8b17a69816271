// A session's description optimizer (issue 25): server/eval/optimize.ts on the session's workdir,
// catalog and provider, one at a time, its progress streamed as session events that never enter the
// conversation or the log. With a real model the same provider proposes the descriptions; offline
// (router, scripted) the person does: the optimizer asks with optimizer_proposal_requested — showing
// exactly what a model would be sent, train data only — and waits for optimizer_proposal. Apply writes a
// description into the SKILL.md, only on the person's apply_description.
import { BackgroundExperiment, type ExperimentOptions } from "./background-experiment.ts";
import { PlaygroundError } from "../errors/index.ts";
import { applyDescription } from "../eval/apply-description.ts";
import { providerImprover, type Improver, type ImproverStep } from "../eval/improver.ts";
import { labWorkspaceOf } from "../eval/lab.ts";
import { optimizeDescription } from "../eval/optimize.ts";
import { OFFLINE_PROVIDERS, pricingFor } from "../eval/spend.ts";
import { loadTriggersFile } from "../eval/triggers-file.ts";
import type { SpendCaps } from "../protocol/trigger-lab.ts";
import type { SessionSettings } from "../protocol/wire.ts";
import type { Provider } from "../providers/types.ts";
import type { SessionWorkspace } from "./session-types.ts";

export interface StartOptimizerRequest {
  skill: string;
  evalPath?: string;
  runs: number;
  iterations?: number;
  holdout?: number;
  seed?: number;
  maxCalls?: number;
  maxUsd?: number;
}

export interface SessionOptimizerOptions extends ExperimentOptions {
  /** Rescans the catalog after Apply wrote a SKILL.md (the watcher would, later). */
  reloadCatalog: () => Promise<void>;
}

/** The person as the improver: each ask is shown to them and waits for their proposal. */
class PersonImprover implements Improver {
  readonly label = "you (manual: the person proposes)";
  private waiting: ((description: string) => void) | undefined;

  constructor(
    private readonly emit: SessionOptimizerOptions["emit"],
    private readonly current: () => string,
  ) {}

  ask(prompt: string, step: ImproverStep, signal: AbortSignal): Promise<{ text: string }> {
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.waiting = undefined;
        reject(new PlaygroundError("canceled", "the optimizer was stopped"));
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
      this.waiting = (description) => {
        signal.removeEventListener("abort", onAbort);
        this.waiting = undefined;
        resolve({ text: `<new_description>${description}</new_description>` });
      };
      this.emit(
        { type: "optimizer_proposal_requested", step, prompt, description: this.current() },
        "memory",
      );
    });
  }

  propose(description: string): boolean {
    if (!this.waiting) return false;
    this.waiting(description);
    return true;
  }
}

export class SessionOptimizer {
  private readonly job = new BackgroundExperiment();
  private person: PersonImprover | undefined;

  constructor(private readonly options: SessionOptimizerOptions) {}

  get isRunning(): boolean {
    return this.job.isRunning;
  }

  start(request: StartOptimizerRequest): void {
    const workspace = this.options.workspace();
    const markdown = workspace.catalog.raw(request.skill);
    if (!workspace.catalog.get(request.skill) || markdown === undefined) {
      throw new PlaygroundError(
        "invalid_arguments",
        `${request.skill} is not in the catalog (skills: ${workspace.catalog.names().join(", ") || "none"})`,
      );
    }
    const settings = this.options.settings();
    this.job.start({
      what: "the optimizer",
      workdir: workspace.workdir,
      ...(request.evalPath ? { evalPath: request.evalPath } : {}),
      provider: settings.provider,
      run: (evalFile, signal) => this.run(evalFile, request, markdown, settings, workspace, signal),
      onError: (message) => this.options.emit({ type: "optimizer_failed", message }, "memory"),
      onSettled: () => {
        this.person = undefined;
      },
    });
  }

  cancel(): void {
    this.job.cancel();
  }

  /** The person's next description (they are the improver). */
  propose(description: string): void {
    if (!this.person?.propose(description)) {
      throw new PlaygroundError("invalid_arguments", "the optimizer is not waiting for a proposal");
    }
  }

  async apply(skillName: string, description: string): Promise<void> {
    const skill = this.options.workspace().catalog.get(skillName);
    if (!skill) throw new PlaygroundError("invalid_arguments", `${skillName} is not in the catalog`);
    const applied = await applyDescription(skill, description);
    this.options.log(`applied a new description to ${applied.file}`);
    this.options.emit({ type: "description_applied", skill: skillName, ...applied }, "memory");
    await this.options.reloadCatalog();
  }

  private async run(
    evalFile: string,
    request: StartOptimizerRequest,
    markdown: string,
    settings: SessionSettings,
    workspace: SessionWorkspace,
    signal: AbortSignal,
  ): Promise<void> {
    const evals = await loadTriggersFile(evalFile, { skill: request.skill });
    const createProvider = (): Promise<Provider> =>
      this.options.parts.createProvider({
        settings,
        onAwaitingInput: () => {
          throw new PlaygroundError("invalid_arguments", "an optimizer probe cannot wait for a person");
        },
      });
    let current = workspace.catalog.get(request.skill)!.meta.description;
    let improver: Improver;
    let improverPricing;
    if (OFFLINE_PROVIDERS.has(settings.provider)) {
      this.person = new PersonImprover(this.options.emit, () => current);
      improver = this.person;
    } else {
      const model = await createProvider();
      improver = providerImprover(model);
      improverPricing = pricingFor(model.name, model.model);
    }
    const caps: SpendCaps = {
      ...(request.maxCalls !== undefined ? { maxCalls: request.maxCalls } : {}),
      ...(request.maxUsd !== undefined ? { maxUsd: request.maxUsd } : {}),
    };
    const result = await optimizeDescription({
      evals,
      skill: request.skill,
      skillMarkdown: markdown,
      workspace: labWorkspaceOf({ ...workspace, home: this.options.home, tokens: this.options.tokens }),
      createProvider,
      improver,
      ...(improverPricing ? { improverPricing } : {}),
      runs: request.runs,
      ...(request.iterations !== undefined ? { iterations: request.iterations } : {}),
      ...(request.holdout !== undefined ? { holdout: request.holdout } : {}),
      ...(request.seed !== undefined ? { seed: request.seed } : {}),
      caps,
      signal,
      onPlan: (plan) =>
        this.options.emit(
          {
            type: "optimizer_started",
            skill: request.skill,
            original: current,
            plan,
            ...(Object.keys(caps).length > 0 ? { caps } : {}),
          },
          "memory",
        ),
      onIteration: (iteration, spentUsd) => {
        this.options.emit({ type: "optimizer_iteration", iteration, spentUsd }, "memory");
      },
      onProposal: (description) => {
        current = description;
      },
    });
    this.options.emit({ type: "optimizer_finished", result }, "memory");
    this.options.log(
      `optimizer for ${request.skill}: ${result.iterations_run} iteration(s), ${result.exit_reason}`,
    );
  }
}
