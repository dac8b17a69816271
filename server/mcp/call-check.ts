// Each tool call of a sandboxed stdio MCP server is checked like a command (S15, S17). The server lives for
// the session and writes the workdir directly: an overlay would hold its writes until it stops, so they
// cannot be held (held-writes.ts), and its start's binds keep only the repositories that existed then
// (guardRepositories). So a `tools/call` is bracketed: the workdir's repositories (and the paths that must
// stay absent) are read just before the call is sent, and after its answer the same check as a command
// that wrote directly runs (direct-writes.ts, sandbox-git.ts): a repository the call armed is disarmed, one
// it broke is put back, a must-stay-absent path it made is removed, and the call fails with
// `sandbox_violation` saying what was undone. The server keeps running.
//
// Only what changed between the two reads counts: a repository the user makes between calls is left
// alone. So is anything the server writes on its own between calls (on a timer, or after it has answered):
// it cannot be told from the user's — the residual of this rule (docs/permissions.md).
//
// Calls to one server may run at once, and a check must not run while a call it does not cover is
// writing: its baseline would hold that call's half-done writes, and putting back a "broken" repository
// could re-arm one another call's check had just disarmed. So calls are checked in windows: the first
// call opens one and takes the baseline; calls that arrive before any call of the window has answered
// join it (same baseline); once one has answered, later calls wait for the window's check before they
// are sent. When the last call of a window has answered, one check runs and its verdict is every call's:
// which of the calls that ran together did what cannot be told, so each fails when anything was undone.
// A window ends: it takes no calls after its first answer, and each call ends at its timeout.
import path from "node:path";
import type { SandboxPolicy } from "../tools/sandbox.ts";
import { protectRepositories } from "../tools/sandbox-git.ts";
import { directWriteBaseline, undoDirectWrites, type DirectWriteBaseline } from "../tools/direct-writes.ts";

/** A call's writes broke the rule and were undone: the call fails with `sandbox_violation`. */
export class SandboxViolation extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SandboxViolation";
  }
}

interface Window {
  baseline: Promise<DirectWriteBaseline>;
  /** Calls of the window not yet answered. */
  running: number;
  /** Calls of the window in all. */
  calls: number;
  /** Set once a call of the window has answered: later calls wait for the next window. */
  draining: boolean;
  verdict: Promise<string | undefined>;
  settle: (verdict: string | undefined) => void;
}

export class CallCheck {
  private window: Window | undefined;
  /** The check of the last closed window: a new window's baseline is taken after it. */
  private checked: Promise<unknown> = Promise.resolve();

  /** `policy`: the guarded policy the server was started under (its workdir writable). */
  constructor(private readonly policy: SandboxPolicy) {}

  /**
   * Runs `call` inside a checked window. Resolves or rejects as the call did when the check undid nothing;
   * rejects with SandboxViolation when it undid something (whatever the call's own outcome).
   */
  async run<T>(call: () => Promise<T>): Promise<T> {
    const window = await this.join();
    let outcome: { ok: true; value: T } | { ok: false; error: unknown };
    try {
      const refusal = unguarded(this.policy, await window.baseline);
      if (refusal) throw new Error(refusal);
      outcome = { ok: true, value: await call() };
    } catch (error) {
      outcome = { ok: false, error };
    }
    window.draining = true;
    if (--window.running === 0) this.close(window);
    const violation = await window.verdict;
    if (violation !== undefined)
      throw new SandboxViolation(
        window.calls > 1
          ? `${violation} (${window.calls} calls to this server ran at the same time and were checked together; each of them fails)`
          : violation,
      );
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  }

  /** The open window, or a new one once the last one's check is done. */
  private async join(): Promise<Window> {
    for (;;) {
      const open = this.window;
      if (open && !open.draining) {
        open.running++;
        open.calls++;
        return open;
      }
      if (!open) break;
      // A draining window: wait for its check, then look again (another call may have opened one).
      await open.verdict;
    }
    await this.checked;
    if (this.window) return this.join();
    let settle!: (verdict: string | undefined) => void;
    const verdict = new Promise<string | undefined>((resolve) => (settle = resolve));
    const window: Window = {
      baseline: directWriteBaseline(this.policy),
      running: 1,
      calls: 1,
      draining: false,
      verdict,
      settle,
    };
    this.window = window;
    return window;
  }

  /** The last call of `window` has answered: one check, whose verdict every call of the window gets. */
  private close(window: Window): void {
    // No baseline: no call of the window was sent (each waits for it), so there is nothing to check and
    // each fails with the baseline's error.
    const check = window.baseline.then(
      (baseline) =>
        undoDirectWrites(baseline).catch(
          (error: unknown) =>
            `the sandbox could not check what the call wrote (${(error as Error).message}); check the workdir's repositories before you run git there`,
        ),
      () => undefined,
    );
    this.checked = check;
    void check.then((verdict) => {
      if (this.window === window) this.window = undefined;
      window.settle(verdict);
    });
  }
}

/**
 * Why a call cannot be sent: the workdir holds a protected path (`.PseudoClaude/`, `.mcp.json`, a hook) or
 * a repository made after the server started (by the user:
 * one the agent plants is disarmed), whose configuration the server's binds, fixed at its start, do not
 * keep read-only or absent — the server could write what git runs there, and no scan sees a config's
 * content change. Binds cannot be added to a running sandbox, so the server must be started again.
 */
function unguarded(policy: SandboxPolicy, baseline: DirectWriteBaseline): string | undefined {
  // A path the server's start kept absent (no bind: sandbox.ts's no-mount-point rule) that exists now was
  // made since by someone else (what a call made is removed by its check): the server can write it.
  const made = policy.mustStayAbsent.filter((target) => !baseline.mustStayAbsent.includes(target));
  if (made.length > 0) return notSent(baseline, made, "a protected path made after this server started");
  const scan = baseline.repositories;
  if (!scan || scan.unchecked !== undefined) return undefined;
  const now = protectRepositories(scan, baseline.readOnlyAreas);
  const kept = new Set([...policy.readOnly, ...policy.mustStayAbsent]);
  const open = [...now.readOnly, ...now.mustStayAbsent].filter((target) => !kept.has(target));
  if (open.length === 0) return undefined;
  return notSent(baseline, open, "a repository made after this server started");
}

function notSent(baseline: DirectWriteBaseline, open: string[], what: string): string {
  const shown = open
    .slice(0, 3)
    .map((target) => path.relative(baseline.workdir, target) || target)
    .join(", ");
  return (
    `not sent: the workdir has ${what} (${shown}${open.length > 3 ? `, and ${open.length - 3} more` : ""}), ` +
    "and the server's sandbox, fixed at its start, cannot keep that configuration read-only; reconnect the server (MCP panel) so its sandbox protects it, then call again"
  );
}
