// The message box: Enter sends, Shift+Enter is a new line, `/` at the start completes skill names
// from the catalog (Tab or click to accept), Stop cancels the running turn. While an approval waits,
// Shift+Tab moves the focus to its card: keystrokes typed here never answer it.
"use client";
import { useEffect, useRef, useState } from "react";
import type { SkillView } from "../../server/protocol/index.ts";
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
  onSend,
  onStop,
  approvalWaiting = false,
  onFocusApproval,
}: {
  skills: SkillView[];
  running: boolean;
  disabled: boolean;
  onSend: (text: string) => void;
  onStop: () => void;
  /** An approval card is waiting for an answer. */
  approvalWaiting?: boolean;
  onFocusApproval?: () => void;
}) {
  const [text, setText] = useState("");
  const [highlight, setHighlight] = useState(0);
  const input = useRef<HTMLTextAreaElement>(null);
  // When a run ends and nothing else holds the focus (an approval card that went away), the next message
  // can be typed right away: a presenter keeps to the keyboard.
  useEffect(() => {
    if (running || disabled) return;
    const active = document.activeElement;
    if (!active || active === document.body) input.current?.focus();
  }, [running, disabled]);
  const completions = slashCompletions(text, skills);
  const accept = (skill: SkillView) => setText(`/${skill.name} `);
  const send = () => {
    if (!text.trim() || disabled) return;
    onSend(text.trim());
    setText("");
  };
  return (
    <div className="relative border-t border-slate-200 p-2" data-testid="composer">
      {completions.length > 0 && (
        <ul
          className="absolute bottom-full left-2 mb-1 w-80 rounded border border-slate-300 bg-white shadow"
          data-testid="slash-completions"
          role="listbox"
        >
          {completions.map((skill, index) => (
            <li key={skill.name} role="option" aria-selected={index === highlight}>
              <button
                type="button"
                data-testid={`slash-option-${skill.name}`}
                className={`w-full px-2 py-1 text-left text-xs ${index === highlight ? "bg-blue-50" : ""}`}
                onClick={() => accept(skill)}
              >
                <span className="font-mono font-semibold">/{skill.name}</span>{" "}
                <span className="text-slate-600">{skill.description}</span>
              </button>
            </li>
          ))}
        </ul>
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
          rows={2}
          className="min-w-0 flex-1 resize-none rounded border border-slate-300 p-1.5 text-sm"
          placeholder={
            disabled ? "Connecting…" : "Message, or /skill args — Enter sends, Shift+Enter new line"
          }
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setHighlight(0);
          }}
          onKeyDown={(event) => {
            if (
              completions.length > 0 &&
              (event.key === "Tab" || (event.key === "Enter" && !event.shiftKey))
            ) {
              event.preventDefault();
              accept(completions[Math.min(highlight, completions.length - 1)]);
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
        {running ? (
          <Button
            kind="danger"
            testId="chat-stop"
            onClick={onStop}
            title="Cancel the run and kill its tools (key: Esc)"
          >
            Stop <kbd className="text-[0.7rem] opacity-75">Esc</kbd>
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
