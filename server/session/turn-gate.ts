// One run at a time per session. A message that arrives while a turn is running is refused, except in
// the short "finishing" phase after the turn's stop was sent (log records still being written): a client
// that answers a stop at once is queued behind that turn instead of being told to wait.
import { PlaygroundError } from "../errors/index.ts";
import type { RunnerEvent } from "../protocol/runner-events.ts";

export const RUN_IN_PROGRESS = "a run is in progress; press Stop or wait";

export class TurnGate {
  private running: Promise<void> | undefined;
  private lastTurn: Promise<void> = Promise.resolve();
  private abort: AbortController | undefined;
  /** The current turn's first run, and whether its stop was already sent. */
  private turnRunId: string | undefined;
  private turnStopped = false;

  get isRunning(): boolean {
    return this.running !== undefined;
  }

  /** Feed every Runner event of the session here, so the gate knows when a turn is only finishing. */
  observe(event: RunnerEvent): void {
    if (event.type === "run_started" && this.turnRunId === undefined) this.turnRunId = event.runId;
    if (event.type === "stop" && event.runId === this.turnRunId) this.turnStopped = true;
  }

  /** Starts `work` now, or after a finishing turn; throws RUN_IN_PROGRESS while a turn is really running. */
  start(work: (signal: AbortSignal) => Promise<void>): void {
    const finishing = this.running && this.turnStopped ? this.running : undefined;
    if (this.running && !finishing) throw new PlaygroundError("run_in_progress", RUN_IN_PROGRESS);
    const controller = new AbortController();
    const turn = (async () => {
      if (finishing) await finishing;
      this.turnRunId = undefined;
      this.turnStopped = false;
      await work(controller.signal);
    })();
    this.abort = controller;
    this.running = turn;
    this.lastTurn = turn;
    const clear = () => {
      if (this.running !== turn) return;
      this.running = undefined;
      this.abort = undefined;
    };
    void turn.then(clear, clear);
  }

  cancel(): void {
    this.abort?.abort();
  }

  /** Resolves when the last turn has ended (its records written). */
  async idle(): Promise<void> {
    await this.lastTurn;
  }
}
