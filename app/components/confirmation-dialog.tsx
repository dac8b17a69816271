// The server refused a risky create_session / update_session (a workdir that is `/` or contains the home
// folder, bypassPermissions) until the user confirms: quote its message, say what each confirmation means,
// and resend the same command with `confirm` only on an explicit yes.
"use client";
import { useEffect } from "react";
import type { SessionConfirmation } from "../../server/protocol/index.ts";
import type { PendingConfirmation } from "../state/types.ts";
import { EscapedText } from "./escaped-text.tsx";
import { Button } from "./ui.tsx";

export const confirmationText: Record<SessionConfirmation, string> = {
  broad_workdir:
    "The working directory is / or contains your home folder: the agent's file tools and commands can read, and with your approval change, everything under it.",
  bypass_permissions:
    "bypassPermissions: every tool call runs without asking you (the dangerous-command list and protected paths still apply).",
};

const commandLabels: Record<string, string> = {
  create_session: "Create the session anyway",
  update_session: "Change the setting anyway",
};

export function ConfirmationDialog({
  confirmation,
  onConfirm,
  onCancel,
}: {
  confirmation: PendingConfirmation;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      event.preventDefault();
      onCancel();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [onCancel]);
  return (
    <div
      className="fixed inset-0 z-40 flex items-center justify-center bg-slate-900/50"
      data-testid="confirmation-dialog"
      role="alertdialog"
      aria-label="Confirm a risky session"
    >
      <div className="w-[32rem] space-y-2 rounded border-2 border-red-400 bg-white p-4 text-sm shadow-xl">
        <h2 className="text-base font-semibold text-red-900">This needs your confirmation</h2>
        <blockquote
          className="rounded border-l-4 border-red-300 bg-red-50 p-2 whitespace-pre-wrap text-red-950"
          data-testid="confirmation-message"
        >
          <EscapedText text={confirmation.message} />
        </blockquote>
        <ul className="list-disc space-y-1 pl-5 text-xs" data-testid="confirmation-items">
          {confirmation.confirm.map((item) => (
            <li key={item} data-testid={`confirmation-item-${item}`}>
              {confirmationText[item] ?? item}
            </li>
          ))}
        </ul>
        <div className="flex justify-end gap-2 pt-1">
          <Button testId="confirmation-cancel" onClick={onCancel}>
            Cancel
          </Button>
          <Button
            kind="danger"
            testId="confirmation-confirm"
            onClick={onConfirm}
            title="Resends the same command, saying you confirmed this"
          >
            {commandLabels[confirmation.command] ?? "Confirm"}
          </Button>
        </div>
      </div>
    </div>
  );
}
