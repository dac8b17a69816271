// The one modal dialog of the pages: a backdrop and a panel with role="dialog", aria-modal and a name
// from its heading. On open the focus moves into it (the `initialFocus` element, else its first control),
// Tab and Shift+Tab stay inside it, Escape closes it (handled here, so the Escape-stops-the-run shortcut
// does not also fire), and on close the focus goes back where it was. Every dialog is built on this one
// component, so moving them to the native <dialog> element later is a change in one file.
"use client";
import { useEffect, useId, useRef, type ReactNode, type RefObject } from "react";

const focusable =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export function Dialog({
  title,
  testId,
  onClose,
  initialFocus,
  tone = "plain",
  width = "w-[32rem]",
  align = "center",
  children,
}: {
  title: ReactNode;
  testId: string;
  onClose: () => void;
  /** The control that gets the focus when the dialog opens (default: the first one). */
  initialFocus?: RefObject<HTMLElement | null>;
  /** `danger`: a confirmation of something risky (red border and heading). */
  tone?: "plain" | "danger";
  /** Tailwind width of the panel. */
  width?: string;
  /** `top` for tall dialogs that scroll with the page. */
  align?: "center" | "top";
  children: ReactNode;
}) {
  const panel = useRef<HTMLDivElement>(null);
  const headingId = useId();
  const closeRef = useRef(onClose);
  closeRef.current = onClose;

  useEffect(() => {
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const target =
      initialFocus?.current ?? panel.current?.querySelector<HTMLElement>(focusable) ?? panel.current;
    target?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        event.preventDefault();
        closeRef.current();
        return;
      }
      if (event.key !== "Tab" || !panel.current) return;
      const controls = [...panel.current.querySelectorAll<HTMLElement>(focusable)];
      if (controls.length === 0) return;
      const first = controls[0];
      const last = controls[controls.length - 1];
      const active = document.activeElement;
      const inside = active instanceof Node && panel.current.contains(active);
      if (event.shiftKey && (active === first || !inside)) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (active === last || !inside)) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("keydown", onKey);
      if (before?.isConnected) before.focus();
    };
    // Once per opening: the focus moves in when the dialog appears, not on every render.
  }, [initialFocus]);

  return (
    <div
      className={`fixed inset-0 z-40 flex justify-center bg-slate-900/50 p-4 ${align === "top" ? "items-start overflow-y-auto" : "items-center"}`}
    >
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={headingId}
        tabIndex={-1}
        data-testid={testId}
        className={`${width} max-w-full space-y-2 rounded bg-white p-4 text-sm shadow-xl focus:outline-none ${tone === "danger" ? "border-2 border-red-400" : ""}`}
      >
        <h2 id={headingId} className={`text-base font-semibold ${tone === "danger" ? "text-red-900" : ""}`}>
          {title}
        </h2>
        {children}
      </div>
    </div>
  );
}
