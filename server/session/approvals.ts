// Pending approvals of one session, keyed by tool-call id. An answer is accepted once, only for a call
// that is waiting in this session (N11: replays, other sessions' and unknown call ids are rejected).
import { PlaygroundError } from "../errors/index.ts";
import type { ApprovalAnswer, ApprovalRequest } from "../protocol/permission.ts";

interface Pending {
  request: ApprovalRequest;
  resolve: (answer: ApprovalAnswer) => void;
}

export class Approvals {
  private readonly pending = new Map<string, Pending>();

  /** Waits for the user's answer; a Stop (abort) answers deny so the call does not run. */
  ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    if (this.pending.has(request.callId)) {
      return Promise.resolve({
        kind: "deny",
        reason: `call id ${request.callId} is already waiting for an answer`,
      });
    }
    return new Promise((resolve) => {
      const finish = (answer: ApprovalAnswer) => {
        signal.removeEventListener("abort", onAbort);
        this.pending.delete(request.callId);
        resolve(answer);
      };
      const onAbort = () => finish({ kind: "deny", reason: "the run was stopped" });
      if (signal.aborted) return onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
      this.pending.set(request.callId, { request, resolve: finish });
    });
  }

  answer(callId: string, answer: ApprovalAnswer): void {
    const waiting = this.pending.get(callId);
    if (!waiting) {
      throw new PlaygroundError(
        "invalid_arguments",
        `no approval is waiting for call id "${callId}" in this session (already answered, canceled, or never asked)`,
      );
    }
    waiting.resolve(answer);
  }

  list(): ApprovalRequest[] {
    return [...this.pending.values()].map((entry) => entry.request);
  }

  get size(): number {
    return this.pending.size;
  }
}
