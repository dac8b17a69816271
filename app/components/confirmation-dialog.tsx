// The server refused a risky create_session / update_session (a workdir that is `/` or contains the home
// folder, bypassPermissions) until the user confirms. The dialog says in plain words what will happen if
// they go on — not the server's protocol message — and resends the same command with `confirm` only on an
// explicit yes. The safe answer has the focus, so Enter or Escape never turns protections off.
"use client";
import { useRef } from "react";
import type { SessionConfirmation } from "../../server/protocol/index.ts";
import type { PendingConfirmation } from "../state/types.ts";
import { Dialog } from "./dialog.tsx";
import { EscapedText } from "./escaped-text.tsx";
import { Button } from "./ui.tsx";

/** What each confirmation means, for a person: what changes, and what still protects them. */
export function confirmationText(item: SessionConfirmation, workdir: string | undefined): string {
  switch (item) {
    case "broad_workdir":
      return (
        `${workdir ? `The working directory ${workdir}` : "This working directory"} is / or contains your home ` +
        "folder. The agent can read every file under it, and change them when you approve."
      );
    case "bypass_permissions":
      return (
        "Every tool call — writing files, running commands, skill tools — runs without asking you first. " +
        "Dangerous commands (like rm -rf on the whole folder) and protected files (.git, .PseudoClaude/, " +
        ".mcp.json) are still refused. You can switch back in the session's settings at any time."
      );
    default:
      return String(item);
  }
}

function dialogTitle(confirmation: PendingConfirmation): string {
  if (confirmation.confirm.includes("bypass_permissions"))
    return confirmation.command === "create_session"
      ? "Create a session that never asks before a tool runs?"
      : "Stop asking before each tool runs?";
  return "Work in a folder that holds your home folder?";
}

const confirmLabels: Record<string, string> = {
  create_session: "Create it anyway",
  update_session: "Run tools without asking",
};

export function ConfirmationDialog({
  confirmation,
  workdir,
  onConfirm,
  onCancel,
}: {
  confirmation: PendingConfirmation;
  /** The workdir the refused command names, for the words about it. */
  workdir?: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const keep = useRef<HTMLButtonElement>(null);
  return (
    <Dialog
      title={dialogTitle(confirmation)}
      testId="confirmation-dialog"
      tone="danger"
      alert
      onClose={onCancel}
      initialFocus={keep}
    >
      <ul className="list-disc space-y-1 pl-5" data-testid="confirmation-items">
        {confirmation.confirm.map((item) => (
          <li key={item} data-testid={`confirmation-item-${item}`}>
            <EscapedText text={confirmationText(item, workdir)} />
          </li>
        ))}
      </ul>
      <div className="flex justify-end gap-2 pt-1">
        <button
          ref={keep}
          type="button"
          data-testid="confirmation-cancel"
          className="rounded border border-slate-300 bg-white px-2.5 py-1 text-sm font-medium text-slate-800 hover:bg-slate-100"
          onClick={onCancel}
        >
          {confirmation.confirm.includes("bypass_permissions") ? "Keep asking me" : "Cancel"}
        </button>
        <Button kind="danger" testId="confirmation-confirm" onClick={onConfirm}>
          {confirmLabels[confirmation.command] ?? "Go on"}
        </Button>
      </div>
    </Dialog>
  );
}
