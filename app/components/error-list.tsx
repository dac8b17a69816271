// The errors of the open session (and the connection's own), one card per distinct error with a count
// when it repeated; and the banner of a page whose token is from an earlier start of the server.
"use client";
import type { UiError } from "../state/types.ts";
import { ErrorCard } from "./ui.tsx";

export function ErrorList({ errors, onDismiss }: { errors: UiError[]; onDismiss: (id: string) => void }) {
  if (errors.length === 0) return null;
  return (
    <div className="max-h-40 space-y-1 overflow-y-auto border-b border-red-200 p-1" data-testid="error-list">
      {errors.map((error) => (
        <ErrorCard
          key={error.id}
          title={`Error: ${error.code}${error.count > 1 ? ` (×${error.count})` : ""}`}
          message={error.message}
          onDismiss={() => onDismiss(error.id)}
        />
      ))}
    </div>
  );
}

/**
 * The server answered that this tab's token is not this start's: it was restarted, and the token changes
 * on every start. Pasting the new address into this tab reconnects (app/lib/connection.ts listens for it).
 */
export function WrongTokenBanner() {
  return (
    <div
      role="alert"
      className="border-b border-red-300 bg-red-50 px-2 py-1.5 text-sm text-red-900"
      data-testid="wrong-token"
    >
      <strong>The server was restarted: this tab&apos;s token is from its earlier start.</strong> Paste the
      address the server printed when it started again (it ends with <code>#token=…</code>) into this
      tab&apos;s address bar; the page reconnects and keeps what it shows.
    </div>
  );
}
