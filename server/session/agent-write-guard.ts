// SECURITY P10: a skill the agent writes (write_file, edit_file, run_command, a skill tool) must not be
// loaded by live reload; it waits until the user presses Reload. The watcher cannot tell who changed a
// file, so a change seen while one of this session's tool calls runs, or just after one ended (the
// watcher reports after its debounce), is attributed to the agent and held back.
import type { StreamInput } from "./request-writer.ts";
import { WATCH_DEBOUNCE_MS } from "./skill-watcher.ts";

export const HELD_RELOAD_MESSAGE =
  "skill files changed while a tool of this session was running; they are not loaded until you press Reload";

/** fs.watch delivery plus the watcher's debounce, with room for a busy machine. */
const AFTER_TOOL_MS = WATCH_DEBOUNCE_MS + 1_000;

export class AgentWriteGuard {
  private readonly running = new Set<string>();
  private lastToolEndedAt = Number.NEGATIVE_INFINITY;
  /** A watch change was held back and the user has not reloaded since. */
  private held = false;

  observe(event: StreamInput): void {
    if (event.type === "tool_started") this.running.add(`${event.runId}/${event.callId}`);
    else if (event.type === "tool_result" && this.running.delete(`${event.runId}/${event.callId}`))
      this.lastToolEndedAt = Date.now();
    else if (event.type === "stop" || (event.type === "tool_console_result" && event.runId)) {
      // Whatever the run (or console call) left unanswered has ended with it.
      const runId = event.runId;
      for (const key of this.running) {
        if (key.startsWith(`${runId}/`)) {
          this.running.delete(key);
          this.lastToolEndedAt = Date.now();
        }
      }
    }
  }

  /** True when a watch-triggered change may come from the agent's own tool calls. */
  agentMayHaveWritten(now = Date.now()): boolean {
    return this.running.size > 0 || now - this.lastToolEndedAt < AFTER_TOOL_MS;
  }

  /**
   * What to do with a watch change: reload, or hold it (telling the user once). Once something is held,
   * later changes wait too: any reload would load the held skill along with them.
   */
  onWatchChange(now = Date.now()): "reload" | "hold_and_tell" | "hold" {
    if (this.held) return "hold";
    if (!this.agentMayHaveWritten(now)) return "reload";
    this.held = true;
    return "hold_and_tell";
  }

  userReloaded(): void {
    this.held = false;
  }
}
