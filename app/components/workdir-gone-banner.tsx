// The banner a session whose working folder no longer exists shows above its chat: it cannot run there
// (the server refuses a message, server/session/workdir-state.ts), but its conversation and inspector stay
// readable. Loaded only for such a session (./lazy.tsx).
"use client";
import { Button } from "./ui.tsx";

export function WorkdirGoneBanner({ workdir, onNewSession }: { workdir: string; onNewSession: () => void }) {
  return (
    <div
      role="alert"
      className="flex flex-wrap items-center gap-2 border-b border-red-200 bg-red-50 px-2 py-1 text-xs text-red-900"
      data-testid="workdir-gone-banner"
    >
      <span>
        This session&apos;s folder <span className="font-mono break-all">{workdir}</span> no longer exists: it
        cannot run. Its conversation and inspector stay readable here.
      </span>
      <Button small kind="primary" testId="workdir-gone-new-session" onClick={onNewSession}>
        New session… on an existing folder
      </Button>
    </div>
  );
}
