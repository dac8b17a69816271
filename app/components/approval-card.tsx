// The approval card: the exact command or path, cwd and stdin (hidden characters shown escaped, with a
// warning; a secret the call carries named in place, `[secret: NAME]`, with a warning saying which and where
// from — the card never hides part of a command), the sandbox the call runs in, and the three answers. The card never takes the focus by itself,
// so keystrokes meant for the composer never answer it; its keys a / s / d work only while the card (or a
// button on it) has the focus, and only after it has held the focus for a short arming delay. Its buttons
// become clickable the same delay after it appears, so a click aimed at something else cannot land on them.
"use client";
import { useEffect, useRef, useState, type KeyboardEvent, type RefObject } from "react";
import type { ApprovalAnswer, ApprovalRequest } from "../../server/protocol/index.ts";
import { commandShapeWarning } from "../lib/command-shape.ts";
import { readText, typedKey, useKept, writeText } from "../lib/typed-answers.ts";
import { escapeHiddenCharacters, hiddenCharactersIn } from "../../server/shared/hidden-characters.ts";
import { sandboxCallLine } from "../lib/sandbox-text.ts";
import { EscapedPre, EscapedText, HiddenCharactersWarning } from "./escaped-text.tsx";
import { Badge, Button, formatJson } from "./ui.tsx";

/** How long the card must hold the focus before a key answers, and how long after appearing it ignores clicks. */
export const armDelayMs = 500;

function typingInField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

/** True once `active` has held for `delayMs`; false again as soon as it drops. */
function useArmed(active: boolean, delayMs: number): boolean {
  const [armed, setArmed] = useState(false);
  useEffect(() => {
    if (!active) {
      setArmed(false);
      return;
    }
    const timer = setTimeout(() => setArmed(true), delayMs);
    return () => clearTimeout(timer);
  }, [active, delayMs]);
  return armed;
}

export function ApprovalCard({
  request,
  primary,
  onAnswer,
  focusTarget,
  sessionId,
  runId,
  byHand = false,
}: {
  request: ApprovalRequest;
  /** The session and run of the call: where the deny reason being typed is kept, so a reload gives it back. */
  sessionId?: string;
  runId: string;
  /** A call from the tool console: no model asked for it and no run is going, so the card says neither. */
  byHand?: boolean;
  /** Only the oldest pending approval shows the keyboard help and is scrolled into view. */
  primary: boolean;
  onAnswer: (answer: ApprovalAnswer) => void;
  /** Set on the oldest card so the composer's Shift+Tab can move the focus to it. */
  focusTarget?: RefObject<HTMLDivElement | null>;
}) {
  const [reason, keepReason] = useKept(typedKey(sessionId ?? "", runId, request.callId), readText, writeText);
  const [focused, setFocused] = useState(false);
  const [earlyKey, setEarlyKey] = useState(false);
  const ownCard = useRef<HTMLDivElement>(null);
  const card = focusTarget ?? ownCard;
  const armed = useArmed(focused, armDelayMs);
  const clickable = useArmed(true, armDelayMs);

  useEffect(() => {
    // Align the bottom: the answer buttons are what must be on screen. The focus stays where it is.
    if (primary) card.current?.scrollIntoView({ block: "end" });
  }, [primary, card]);

  const deny = () => onAnswer(reason.trim() ? { kind: "deny", reason: reason.trim() } : { kind: "deny" });
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.ctrlKey || event.metaKey || event.altKey || typingInField(event.target)) return;
    const answer: Record<string, () => void> = {
      a: () => onAnswer({ kind: "allow_once" }),
      s: () => onAnswer({ kind: "allow_session" }),
      d: deny,
    };
    const handler = answer[event.key];
    if (!handler) return;
    event.preventDefault();
    if (!armed) {
      setEarlyKey(true);
      return;
    }
    handler();
  };

  const hidden = hiddenCharactersIn(
    [request.command, request.path, request.cwd, request.stdin],
    request.trace.hiddenCharacters,
  );
  const subject = request.command !== undefined ? "command" : request.path !== undefined ? "path" : "call";
  const sandbox = request.trace.sandbox;
  const waitTitle = clickable ? undefined : "The answers become clickable a moment after the card appears";

  return (
    <div
      ref={card}
      tabIndex={0}
      className="rounded border-2 border-amber-400 bg-amber-50 p-2 text-xs focus-within:ring-2 focus-within:ring-amber-500 focus:outline-none"
      data-testid="approval-card"
      data-call-id={request.callId}
      data-armed={armed}
      role="group"
      aria-label={`Approve ${request.tool}?`}
      onKeyDown={onKeyDown}
      onFocus={() => setFocused(true)}
      onBlur={(event) => {
        if (event.relatedTarget instanceof Node && event.currentTarget.contains(event.relatedTarget)) return;
        setFocused(false);
        setEarlyKey(false);
      }}
    >
      <div className="flex flex-wrap items-center gap-1">
        <strong className="text-sm" data-testid="approval-title">
          Approve {request.tool}?
        </strong>
        {byHand && (
          <span className="text-slate-700" data-testid="approval-by-hand">
            you started this call from the tool console
          </span>
        )}
        <Badge tone="amber">{request.category}</Badge>
        <span className="text-slate-600">
          asked by {request.trace.source}
          {request.trace.rule ? ` (${escapeHiddenCharacters(request.trace.rule)})` : ""}
          {request.trace.reason ? `: ${escapeHiddenCharacters(request.trace.reason)}` : ""}
        </span>
      </div>
      {request.skill !== undefined && (
        <p className="text-xs text-amber-900" data-testid="approval-skill">
          {request.command !== undefined ? "Runs a script of" : "A file of"} skill{" "}
          <strong className="font-mono">{request.skill}</strong> (from its folder, read-only).
        </p>
      )}
      {request.command !== undefined && (
        <>
          <div className="mt-1 font-semibold">Command</div>
          <EscapedPre testId="approval-command" text={request.command} className="bg-white" />
          {commandShapeWarning(request.command) && (
            <p
              role="alert"
              className="mt-1 rounded border border-red-300 bg-red-50 p-1 text-red-900"
              data-testid="approval-command-shape"
            >
              <strong>⚠ Long command.</strong> {commandShapeWarning(request.command)}
            </p>
          )}
        </>
      )}
      {request.path !== undefined && (
        <>
          <div className="mt-1 font-semibold">Path</div>
          <EscapedPre testId="approval-path" text={request.path} className="bg-white" />
        </>
      )}
      <HiddenCharactersWarning characters={hidden} subject={subject} testId="approval-hidden-warning" />
      <SecretsWarning secrets={request.secrets} subject={subject} />
      <div className="mt-1">
        <span className="font-semibold">cwd</span>{" "}
        <span className="font-mono break-all" data-testid="approval-cwd">
          <EscapedText text={request.cwd} />
        </span>
      </div>
      {sandbox && (
        <p
          className={`mt-1 ${sandbox.enabled ? "text-emerald-800" : "font-semibold text-red-800"}`}
          data-testid="approval-sandbox"
          data-enabled={sandbox.enabled}
          title={
            sandbox.enabled
              ? "bubblewrap: read-only filesystem except the workdir; .git/config, .git/hooks/ and .PseudoClaude/ stay read-only; network only if this session allows it"
              : "Without bubblewrap the process runs with your user's full rights"
          }
        >
          {sandboxCallLine(sandbox, request.tool)}
        </p>
      )}
      {request.mcp && (
        <p className="mt-1" data-testid="approval-mcp">
          Runs in the MCP server <span className="font-mono font-semibold">{request.mcp.server}</span> as its
          tool <span className="font-mono">{request.mcp.tool}</span>.
          {request.mcp.annotations && Object.keys(request.mcp.annotations).length > 0 && (
            <span data-testid="approval-mcp-annotations">
              {" "}
              The server says (hints, not guarantees):{" "}
              <span className="font-mono">
                {Object.entries(request.mcp.annotations)
                  .map(([key, value]) => `${key}: ${JSON.stringify(value)}`)
                  .join(", ")}
              </span>
              .
            </span>
          )}
        </p>
      )}
      {request.stdin !== undefined && (
        <>
          <div className="mt-1 font-semibold">stdin</div>
          <EscapedPre testId="approval-stdin" text={request.stdin} className="bg-white" />
        </>
      )}
      {request.command === undefined && request.stdin === undefined && (
        <EscapedPre text={formatJson(request.input)} className="mt-1 bg-white" />
      )}
      <div className="mt-2 flex flex-wrap items-center gap-1.5">
        <Button
          kind="good"
          testId="approval-allow-once"
          onClick={() => onAnswer({ kind: "allow_once" })}
          disabled={!clickable}
          title={waitTitle ?? "Key: a (when the card has the focus)"}
        >
          Allow once <kbd className="opacity-75">a</kbd>
        </Button>
        <Button
          kind="primary"
          testId="approval-allow-session"
          onClick={() => onAnswer({ kind: "allow_session" })}
          disabled={!clickable}
          title={waitTitle ?? "Key: s (when the card has the focus)"}
        >
          Allow for session <kbd className="opacity-75">s</kbd>
        </Button>
        {/* The reason and Deny stay together and wrap to their own row when the column is narrow. */}
        <div className="flex min-w-[16rem] flex-1 items-center gap-1.5">
          <input
            data-testid="approval-deny-reason"
            className="min-w-0 flex-1 rounded border border-slate-300 px-1 py-0.5"
            placeholder={
              byHand
                ? "reason for denying (optional, shown with the console's result)"
                : "reason for denying (optional, the model sees it)"
            }
            value={reason}
            onChange={(event) => {
              const value = event.target.value;
              keepReason(() => value);
            }}
            onKeyDown={(event) => {
              if (event.key === "Enter" && clickable) deny();
            }}
          />
          <Button
            kind="danger"
            testId="approval-deny"
            onClick={deny}
            disabled={!clickable}
            title={waitTitle ?? "Key: d (when the card has the focus)"}
          >
            Deny <kbd className="opacity-75">d</kbd>
          </Button>
        </div>
      </div>
      {earlyKey && (
        <p className="mt-1 font-semibold text-amber-900" data-testid="approval-not-armed">
          Not answered: the keys work {armDelayMs / 1000} s after the card gets the focus, so a keystroke
          meant for somewhere else never answers it.
        </p>
      )}
      {primary && (
        // One text in every state (only the fixed-width status changes), so the card never changes height
        // while a click on it is under way.
        <p className="mt-1 text-[0.7rem] text-slate-600" data-testid="approval-keys">
          <span
            className={`mr-1 inline-block w-[5.5rem] rounded px-1 text-center font-semibold ${armed ? "bg-emerald-100 text-emerald-800" : "bg-slate-200 text-slate-700"}`}
            data-testid="approval-keys-state"
          >
            {armed ? "keys on" : focused ? "keys arming…" : "keys off"}
          </span>
          <kbd>a</kbd> allow once · <kbd>s</kbd> allow for session · <kbd>d</kbd> deny (reason first, then
          Enter)
          {byHand ? (
            ""
          ) : (
            <>
              {" "}
              · <kbd>Esc</kbd> stops the run
            </>
          )}
          . Only while this card has the focus: click it, or Shift+Tab from the message box.
        </p>
      )}
    </div>
  );
}

/** Which secrets the call carries (each shown as `[secret: NAME]` above) and why that matters. */
function SecretsWarning({ secrets, subject }: { secrets: ApprovalRequest["secrets"]; subject: string }) {
  if (!secrets || secrets.length === 0) return null;
  return (
    <div
      role="alert"
      className="mt-1 rounded border border-red-300 bg-red-50 p-1 text-red-900"
      data-testid="approval-secrets"
    >
      <strong>⚠ Carries a secret.</strong> The {subject} contains{" "}
      {secrets.length === 1 ? "this secret" : `${secrets.length} secrets`}, each shown in place as{" "}
      <code>[secret: NAME]</code>; everything else is shown as it will run. Allow it only if the {subject}{" "}
      should get the secret: a command can send what it carries anywhere it reaches.
      <ul className="ml-4 list-disc">
        {secrets.map((secret) => (
          <li key={`${secret.name}\0${secret.source}`} data-testid="approval-secret">
            <span className="font-mono font-semibold">
              <EscapedText text={secret.name} />
            </span>{" "}
            — from <EscapedText text={secret.source} />
          </li>
        ))}
      </ul>
    </div>
  );
}
