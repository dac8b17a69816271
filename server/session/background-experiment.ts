// What a session's trigger lab and optimizer share: at most one of each runs at a time, in the
// background; its eval file must be inside the workdir (which may be untrusted); probes cannot wait for a
// person, so the manual provider is refused; a failure becomes one event instead of a rejection.
import { PlaygroundError, errorMessage } from "../errors/index.ts";
import type { TokenCounter } from "../prompt/segments.ts";
import { DEFAULT_EVAL_PATH } from "../eval/triggers-file.ts";
import type { SessionEvent, SessionSettings } from "../protocol/wire.ts";
import { resolveInWorkdir } from "../tools/confine.ts";
import type { SessionParts, SessionWorkspace } from "./session-types.ts";

/** What the session gives each of its experiments. */
export interface ExperimentOptions {
  parts: SessionParts;
  home: string;
  workspace: () => SessionWorkspace;
  /** The session's token counter (the composition root's). */
  tokens: TokenCounter;
  settings: () => SessionSettings;
  /** `keep` as the event stream takes it: progress goes live only, the start and end stay for a reconnect. */
  emit: (event: SessionEvent, keep: "memory" | "none") => void;
  log: (line: string) => void;
}

export interface ExperimentStart {
  /** e.g. "a trigger lab", for the refusals. */
  what: string;
  workdir: string;
  evalPath?: string;
  provider: string;
  run: (evalFile: string, signal: AbortSignal) => Promise<void>;
  onError: (message: string) => void;
  onSettled?: () => void;
}

export class BackgroundExperiment {
  private running: AbortController | undefined;

  get isRunning(): boolean {
    return this.running !== undefined;
  }

  /** Starts in the background; refuses at once when one is running, the file is outside, or the provider is manual. */
  start(start: ExperimentStart): void {
    if (this.running) {
      throw new PlaygroundError(
        "run_in_progress",
        `${start.what} is already running in this session: stop it first`,
      );
    }
    const decision = resolveInWorkdir(start.workdir, start.evalPath ?? DEFAULT_EVAL_PATH);
    if (!decision.ok) {
      throw new PlaygroundError(
        "path_refused",
        `the eval file must be inside the workdir: ${decision.reason}`,
      );
    }
    if (start.provider === "manual") {
      throw new PlaygroundError(
        "invalid_arguments",
        `${start.what} cannot use the manual provider: every probe would wait for you; pick router (offline), scripted or a real model`,
      );
    }
    const controller = new AbortController();
    this.running = controller;
    start
      .run(decision.absolute, controller.signal)
      .catch((error: unknown) => start.onError(errorMessage(error)))
      .finally(() => {
        if (this.running === controller) this.running = undefined;
        start.onSettled?.();
      });
  }

  cancel(): void {
    this.running?.abort();
  }
}
