// SECURITY P10: a skill the agent writes (write_file, edit_file, run_command, a skill tool) must not be
// loaded by live reload; it waits until the user presses Reload. The watcher cannot tell who changed a
// file, so a change seen while a tool call of any session runs, or just after one ended (the watcher
// reports after its debounce), is attributed to the agent and held back (the shared-folder rule below).
import type { StreamInput } from "./request-writer.ts";
import { WATCH_DEBOUNCE_MS } from "./skill-watcher.ts";

export const HELD_RELOAD_MESSAGE =
  "skill files changed while a tool of this session was running; they are not loaded until you press Reload";

/** fs.watch delivery plus the watcher's debounce, with room for a busy machine. */
const AFTER_TOOL_MS = WATCH_DEBOUNCE_MS + 1_000;

/**
 * THE SHARED-FOLDER RULE: the skill folders a session watches are not its own. The project layer is every
 * session's of the workdir, the user layer every session's of the server, and an agent writes them through
 * routes no session's sandbox confines alone (an MCP server the sessions share, a command whose writes are
 * not held, a write the user approved in another session). So a change is the agent's while any session's
 * tool call runs or has just ended, not only while the watching session's own does: the tool calls are
 * tracked for the whole server (one ToolActivity, the session hub's), and every session's guard reads them.
 */
export class ToolActivity {
  readonly running = new Set<string>();
  lastToolEnded = Number.NEGATIVE_INFINITY;
  private nextGuard = 0;

  /** A prefix for one guard's keys. */
  guardId(): string {
    return `${this.nextGuard++}:`;
  }
}

export class AgentWriteGuard {
  /** Prefix of this guard's keys in the server's running calls. */
  private readonly id: string;

  /** `activity`: the server's (the hub passes one to every session); a lone session tracks its own. */
  constructor(private readonly activity: ToolActivity = new ToolActivity()) {
    this.id = activity.guardId();
  }

  /** A watch change was held back and the user has not reloaded since. */
  private held = false;

  observe(event: StreamInput): void {
    const { running } = this.activity;
    if (event.type === "tool_started") running.add(`${this.id}${event.runId}/${event.callId}`);
    else if (event.type === "tool_result" && running.delete(`${this.id}${event.runId}/${event.callId}`))
      this.activity.lastToolEnded = Date.now();
    else if (event.type === "stop" || (event.type === "tool_console_result" && event.runId)) {
      // Whatever the run (or console call) left unanswered has ended with it.
      this.endAll(`${this.id}${event.runId}/`);
    }
  }

  /** The session closed: its calls have ended (their writes may still be reported by the watcher). */
  close(): void {
    this.endAll(this.id);
  }

  private endAll(prefix: string): void {
    for (const key of this.activity.running) {
      if (key.startsWith(prefix)) {
        this.activity.running.delete(key);
        this.activity.lastToolEnded = Date.now();
      }
    }
  }

  /** True when a watch-triggered change may come from an agent's tool calls (any session's: see above). */
  agentMayHaveWritten(now = Date.now()): boolean {
    return this.activity.running.size > 0 || now - this.activity.lastToolEnded < AFTER_TOOL_MS;
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
