// The message box: Enter sends, Shift+Enter is a new line, `/` at the start completes skill names
// from the catalog (Tab or click to accept), Stop cancels the running turn. While a run is going, Enter
// queues the message (shown above the box, removable, sent when the run ends; "Stop & send" ends the run
// first). The box is cleared only once the message was sent or queued. While an approval waits,
// Shift+Tab moves the focus to its card: keystrokes typed here never answer it.
//
// The slash completion follows the ARIA combobox pattern with the message box as its text field: the box
// (a textarea, so it keeps its textbox role) says it autocompletes from a listbox popup it controls, and
// points at the highlighted option with aria-activedescendant while the focus stays in the box; Up and
// Down move the highlight, Tab or Enter accepts, Escape closes the list, and a polite status says how
// many skills match.
"use client";
import { useEffect, useId, useRef, useState } from "react";
import { readDraft, writeDraft } from "../lib/typed-storage.ts";
import type { SkillView } from "../../server/protocol/index.ts";
import type { QueuedMessage } from "../state/types.ts";
import { Button } from "./ui.tsx";

/** Skills for the slash menu: those a person may invoke (`user-invocable: false` hides one, as in Claude Code). */
export function slashCompletions(text: string, skills: SkillView[]): SkillView[] {
  const match = /^\/([a-z0-9-]*)$/i.exec(text);
  if (!match) return [];
  const prefix = match[1].toLowerCase();
  return skills
    .filter((skill) => skill.invocation?.user !== false && skill.name.toLowerCase().startsWith(prefix))
    .slice(0, 8);
}

export function Composer({
  skills,
  running,
  disabled,
  disabledText = "Connecting…",
  onSend,
  onStop,
  queued = [],
  onRemoveQueued,
  onStopAndSend,
  approvalWaiting = false,
  onFocusApproval,
}: {
  skills: SkillView[];
  running: boolean;
  disabled: boolean;
  /** What the box says while it is disabled (default "Connecting…"). */
  disabledText?: string;
  /** Sends (or, during a run, queues) the message; false when it could not, and the text stays. */
  onSend: (text: string) => boolean;
  onStop: () => void;
  queued?: QueuedMessage[];
  onRemoveQueued?: (id: string) => void;
  onStopAndSend?: () => void;
  /** An approval card is waiting for an answer. */
  approvalWaiting?: boolean;
  onFocusApproval?: () => void;
}) {
  const [text, setText] = useState("");
  const [highlight, setHighlight] = useState(0);
  // Escape closed the list for this text; typing opens it again.
  const [dismissed, setDismissed] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);
  const listId = useId();
  // The draft survives a reload of the tab (lib/typed-storage.ts): restored once, then kept as typed.
  const draftRestored = useRef(false);
  useEffect(() => {
    if (!draftRestored.current) {
      draftRestored.current = true;
      const draft = readDraft();
      if (draft) setText(draft);
      return;
    }
    writeDraft(text);
  }, [text]);
  // When a run ends and nothing else holds the focus (an approval card that went away), the next message
  // can be typed right away: a presenter keeps to the keyboard.
  useEffect(() => {
    if (running || disabled) return;
    const active = document.activeElement;
    if (!active || active === document.body) input.current?.focus();
  }, [running, disabled]);
  const completions = dismissed ? [] : slashCompletions(text, skills);
  const active = completions.length > 0 ? Math.min(highlight, completions.length - 1) : -1;
  const optionId = (index: number) => `${listId}-option-${index}`;
  const accept = (skill: SkillView) => setText(`/${skill.name} `);
  // Enter before the box can send (still connecting, the first session still opening) is kept, not
  // dropped: the message goes out the moment it can, and says so until then.
  const [held, setHeld] = useState(false);
  const send = () => {
    if (!text.trim()) return setHeld(false);
    if (disabled) return setHeld(true);
    setHeld(false);
    if (onSend(text.trim())) setText("");
  };
  const sendHeld = useRef(send);
  sendHeld.current = send;
  useEffect(() => {
    if (held && !disabled) sendHeld.current();
  }, [held, disabled]);
  return (
    <div className="relative border-t border-slate-200 p-2" data-testid="composer">
      <p className="sr-only" role="status" data-testid="slash-status">
        {completions.length > 0
          ? `${completions.length} skill${completions.length === 1 ? "" : "s"} match: Up and Down to choose, Tab or Enter to accept, Escape to close`
          : ""}
      </p>
      {completions.length > 0 && (
        <ul
          id={listId}
          className="absolute bottom-full left-2 mb-1 w-80 rounded border border-slate-300 bg-white shadow"
          data-testid="slash-completions"
          role="listbox"
          aria-label="Skills to invoke"
        >
          {completions.map((skill, index) => (
            // An option is chosen with the pointer here, with the keys in the box (the focus stays there).
            <li
              key={skill.name}
              id={optionId(index)}
              role="option"
              aria-selected={index === active}
              data-testid={`slash-option-${skill.name}`}
              className={`cursor-pointer px-2 py-1 text-left text-xs hover:bg-slate-100 ${index === active ? "bg-blue-50" : ""}`}
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => {
                accept(skill);
                input.current?.focus();
              }}
            >
              <span className="font-mono font-semibold">/{skill.name}</span>{" "}
              <span className="text-slate-600">{skill.description}</span>
            </li>
          ))}
        </ul>
      )}
      {queued.length > 0 && (
        <ol className="mb-1 space-y-1" data-testid="composer-queue" aria-label="Queued messages">
          {queued.map((item, index) => (
            <li
              key={item.id}
              className="flex items-center gap-1 rounded border border-blue-200 bg-blue-50 px-1.5 py-0.5 text-xs"
              data-testid="queued-message"
            >
              <span className="shrink-0 font-semibold text-blue-900">
                {running ? (index === 0 ? "Sent when the run ends:" : "Then:") : "Not sent yet:"}
              </span>
              <span className="min-w-0 flex-1 truncate" title={item.text} data-testid="queued-message-text">
                {item.text}
              </span>
              {index === 0 && running && onStopAndSend && (
                <Button
                  small
                  testId="queued-stop-and-send"
                  onClick={onStopAndSend}
                  title="Stop the run, then send this"
                >
                  Stop &amp; send
                </Button>
              )}
              {!running && index === 0 && (
                <Button
                  small
                  kind="primary"
                  testId="queued-send-now"
                  disabled={disabled}
                  onClick={() => {
                    if (onSend(item.text)) onRemoveQueued?.(item.id);
                  }}
                >
                  Send now
                </Button>
              )}
              {onRemoveQueued && (
                <Button
                  small
                  testId="queued-remove"
                  onClick={() => onRemoveQueued(item.id)}
                  title="Do not send this"
                >
                  Remove
                </Button>
              )}
            </li>
          ))}
        </ol>
      )}
      {held && disabled && (
        <p className="mb-1 text-[0.7rem] text-slate-600" role="status" data-testid="composer-held">
          {disabledText}: your message goes out as soon as it can.
        </p>
      )}
      {approvalWaiting && (
        <p className="mb-1 text-[0.7rem] text-amber-900" data-testid="composer-approval-hint">
          An approval is waiting above. What you type here never answers it: press <kbd>Shift+Tab</kbd> (or
          click the card) to answer it from the keyboard.
        </p>
      )}
      <div className="flex items-end gap-2">
        <textarea
          ref={input}
          data-testid="composer-input"
          aria-label="Message"
          aria-autocomplete="list"
          aria-haspopup="listbox"
          aria-controls={completions.length > 0 ? listId : undefined}
          aria-activedescendant={active >= 0 ? optionId(active) : undefined}
          rows={2}
          className="min-w-0 flex-1 resize-none rounded border border-slate-300 p-1.5 text-sm"
          placeholder={
            disabled
              ? disabledText
              : running
                ? "A run is going: Enter queues this message, sent when the run ends"
                : "Message, or /skill args — Enter sends, Shift+Enter new line"
          }
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setHighlight(0);
            setDismissed(false);
          }}
          onKeyDown={(event) => {
            if (completions.length > 0 && event.key === "Escape") {
              // Closes the list only: the window's Escape (stop the run) sees it handled.
              event.preventDefault();
              setDismissed(true);
            } else if (
              completions.length > 0 &&
              (event.key === "Tab" || (event.key === "Enter" && !event.shiftKey))
            ) {
              event.preventDefault();
              accept(completions[active]);
            } else if (completions.length > 0 && event.key === "ArrowDown") {
              event.preventDefault();
              setHighlight((highlight + 1) % completions.length);
            } else if (completions.length > 0 && event.key === "ArrowUp") {
              event.preventDefault();
              setHighlight((highlight - 1 + completions.length) % completions.length);
            } else if (approvalWaiting && onFocusApproval && event.key === "Tab" && event.shiftKey) {
              event.preventDefault();
              onFocusApproval();
            } else if (event.key === "Enter" && !event.shiftKey) {
              event.preventDefault();
              send();
            }
          }}
        />
        {running && text.trim() && (
          <Button
            kind="primary"
            testId="chat-queue"
            onClick={send}
            disabled={disabled}
            title="Send it when the run ends"
          >
            Queue
          </Button>
        )}
        {running ? (
          <Button kind="danger" testId="chat-stop" onClick={onStop} title="Cancel the run and kill its tools">
            Stop{" "}
            <kbd className="text-[0.7rem]" aria-hidden="true" title="key: Esc">
              Esc
            </kbd>
          </Button>
        ) : (
          <Button kind="primary" testId="chat-send" onClick={send} disabled={disabled || !text.trim()}>
            Send
          </Button>
        )}
      </div>
    </div>
  );
}
