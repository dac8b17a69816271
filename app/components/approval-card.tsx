// The approval card: the exact command or path, cwd and stdin, and the three answers. Keys a / s / d
// answer the oldest pending approval while focus is not in a text field; the card takes the focus when it
// appears (unless the user is typing elsewhere), so the keys work right after sending from the composer.
"use client";
import { useEffect, useRef, useState } from "react";
import type { ApprovalAnswer, ApprovalRequest } from "../../server/protocol/index.ts";
import { Badge, Button, Pre, formatJson } from "./ui.tsx";

function typingInField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

export function ApprovalCard({
  request,
  primary,
  onAnswer,
}: {
  request: ApprovalRequest;
  /** Only the oldest pending approval listens to the keyboard. */
  primary: boolean;
  onAnswer: (answer: ApprovalAnswer) => void;
}) {
  const [reason, setReason] = useState("");
  const card = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!primary || !card.current) return;
    const active = document.activeElement;
    const idle =
      !active ||
      active === document.body ||
      (active instanceof HTMLTextAreaElement && active.dataset.testid === "composer-input" && !active.value);
    if (idle) card.current.focus({ preventScroll: true });
    // Align the bottom: the answer buttons are what must be on screen.
    card.current.scrollIntoView({ block: "end" });
  }, [primary]);
  const deny = () => onAnswer(reason.trim() ? { kind: "deny", reason: reason.trim() } : { kind: "deny" });

  useEffect(() => {
    if (!primary) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || typingInField(event.target)) return;
      if (event.key === "a") onAnswer({ kind: "allow_once" });
      else if (event.key === "s") onAnswer({ kind: "allow_session" });
      else if (event.key === "d")
        onAnswer(reason.trim() ? { kind: "deny", reason: reason.trim() } : { kind: "deny" });
      else return;
      event.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [primary, onAnswer, reason]);

  return (
    <div
      ref={card}
      tabIndex={-1}
      className="rounded border-2 border-amber-400 bg-amber-50 p-2 text-xs focus:ring-2 focus:ring-amber-500 focus:outline-none"
      data-testid="approval-card"
      data-call-id={request.callId}
      role="dialog"
      aria-label={`Approve ${request.tool}?`}
    >
      <div className="flex flex-wrap items-center gap-1">
        <strong className="text-sm">Approve {request.tool}?</strong>
        <Badge tone="amber">{request.category}</Badge>
        <span className="text-slate-600">
          asked by {request.trace.source}
          {request.trace.rule ? ` (${request.trace.rule})` : ""}
          {request.trace.reason ? `: ${request.trace.reason}` : ""}
        </span>
      </div>
      {request.command !== undefined && (
        <>
          <div className="mt-1 font-semibold">Command</div>
          <Pre testId="approval-command" text={request.command} className="bg-white" />
        </>
      )}
      {request.path !== undefined && (
        <>
          <div className="mt-1 font-semibold">Path</div>
          <Pre testId="approval-path" text={request.path} className="bg-white" />
        </>
      )}
      <div className="mt-1">
        <span className="font-semibold">cwd</span>{" "}
        <span className="font-mono break-all" data-testid="approval-cwd">
          {request.cwd}
        </span>
      </div>
      {request.stdin !== undefined && (
        <>
          <div className="mt-1 font-semibold">stdin</div>
          <Pre testId="approval-stdin" text={request.stdin} className="bg-white" />
        </>
      )}
      {request.command === undefined && request.stdin === undefined && (
        <Pre text={formatJson(request.input)} className="mt-1 bg-white" />
      )}
      <div className="mt-2 flex flex-wrap items-center gap-1.5">
        <Button
          kind="good"
          testId="approval-allow-once"
          onClick={() => onAnswer({ kind: "allow_once" })}
          title="Key: a"
        >
          Allow once <kbd className="opacity-75">a</kbd>
        </Button>
        <Button
          kind="primary"
          testId="approval-allow-session"
          onClick={() => onAnswer({ kind: "allow_session" })}
          title="Key: s"
        >
          Allow for session <kbd className="opacity-75">s</kbd>
        </Button>
        {/* The reason and Deny stay together and wrap to their own row when the column is narrow. */}
        <div className="flex min-w-[16rem] flex-1 items-center gap-1.5">
          <input
            data-testid="approval-deny-reason"
            className="min-w-0 flex-1 rounded border border-slate-300 px-1 py-0.5"
            placeholder="reason for denying (optional, the model sees it)"
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === "Enter") deny();
            }}
          />
          <Button kind="danger" testId="approval-deny" onClick={deny} title="Key: d">
            Deny <kbd className="opacity-75">d</kbd>
          </Button>
        </div>
      </div>
      {primary && (
        <p className="mt-1 text-[0.7rem] text-slate-600" data-testid="approval-keys">
          Keys: <kbd>a</kbd> allow once · <kbd>s</kbd> allow for session · <kbd>d</kbd> deny (type a reason
          first, then Enter) · <kbd>Esc</kbd> stops the run
        </p>
      )}
    </div>
  );
}
