// The one modal dialog of the pages, on the native <dialog> element opened with showModal(): the browser
// puts it in the top layer, makes the rest of the page inert (no click, no focus, hidden from assistive
// technology) and draws the ::backdrop. It is named by its heading. On open the focus moves into it (the
// `initialFocus` element, else its first control); Tab and Shift+Tab wrap inside it rather than leave for
// the browser's own controls; Escape closes it through `onClose` (handled here with preventDefault, so the
// Escape-stops-the-run shortcut and an open menu behind it do not also act); on close the focus goes back
// where it was. Every dialog, confirmation and prompt of the pages is built on this one component.
"use client";
import {
  useEffect,
  useId,
  useRef,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
  type SyntheticEvent,
} from "react";

const focusable =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';

/** The controls of `root` a Tab can reach, in document order. */
function tabStops(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(focusable)].filter(
    (element) => element.getClientRects().length > 0 && !element.closest("[inert]"),
  );
}

export function Dialog({
  title,
  testId,
  onClose,
  initialFocus,
  tone = "plain",
  width = "w-[32rem]",
  align = "center",
  alert = false,
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
  /** `top` for tall dialogs: they start near the top and scroll inside. */
  align?: "center" | "top";
  /** An urgent question the user must answer (role="alertdialog"): a confirmation, the trust prompt. */
  alert?: boolean;
  children: ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const headingId = useId();
  const closeRef = useRef(onClose);
  closeRef.current = onClose;

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!element.open) element.showModal();
    const target = initialFocus?.current ?? tabStops(element)[0] ?? element;
    target.focus();
    return () => {
      if (element.open) element.close();
      if (before?.isConnected) before.focus();
    };
    // Once per opening: the focus moves in when the dialog appears, not on every render.
  }, [initialFocus]);

  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    // A dialog opened from inside this one handles its own keys first.
    if (event.defaultPrevented) return;
    if (event.key === "Escape") {
      event.preventDefault();
      closeRef.current();
      return;
    }
    if (event.key !== "Tab" || !dialog.current) return;
    const controls = tabStops(dialog.current);
    if (controls.length === 0) return;
    const first = controls[0];
    const last = controls[controls.length - 1];
    const active = document.activeElement;
    if (event.shiftKey && (active === first || active === dialog.current)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    }
  };

  // The browser's own close request (Escape without a key event reaching the page, e.g. a close watcher):
  // the owner decides, so the dialog never disappears behind React's back.
  const onCancel = (event: SyntheticEvent<HTMLDialogElement>) => {
    event.preventDefault();
    closeRef.current();
  };

  return (
    <dialog
      ref={dialog}
      role={alert ? "alertdialog" : undefined}
      aria-modal="true"
      aria-labelledby={headingId}
      data-testid={testId}
      onKeyDown={onKeyDown}
      onCancel={onCancel}
      className={`${width} max-w-[calc(100vw-2rem)] space-y-2 overflow-y-auto rounded bg-white p-4 text-sm text-slate-900 shadow-xl backdrop:bg-slate-900/50 focus:outline-none ${align === "top" ? "mx-auto mt-4 mb-auto max-h-[calc(100vh-2rem)]" : "m-auto max-h-[calc(100vh-2rem)]"} ${tone === "danger" ? "border-2 border-red-400" : "border-0"}`}
    >
      <h2 id={headingId} className={`text-base font-semibold ${tone === "danger" ? "text-red-900" : ""}`}>
        {title}
      </h2>
      {children}
    </dialog>
  );
}
