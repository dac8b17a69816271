// Small presentational pieces shared by the panels.
"use client";
import { Component, useState, type ReactNode, type Ref } from "react";
import { copyText } from "../lib/clipboard.ts";

const badgeTones = {
  slate: "bg-slate-100 text-slate-700 border-slate-300",
  blue: "bg-blue-50 text-blue-800 border-blue-300",
  green: "bg-emerald-50 text-emerald-800 border-emerald-300",
  amber: "bg-amber-50 text-amber-900 border-amber-300",
  red: "bg-red-50 text-red-800 border-red-300",
  violet: "bg-violet-50 text-violet-800 border-violet-300",
} as const;
export type Tone = keyof typeof badgeTones;

export function Badge({
  tone = "slate",
  children,
  testId,
  title,
  wrap = false,
}: {
  tone?: Tone;
  children: ReactNode;
  testId?: string;
  title?: string;
  /** A badge holding a sentence rather than a word may wrap, so a narrow column never scrolls sideways. */
  wrap?: boolean;
}) {
  return (
    <span
      className={`inline-flex items-center rounded border px-1.5 py-px text-[0.7rem] font-medium ${wrap ? "" : "whitespace-nowrap"} ${badgeTones[tone]}`}
      data-testid={testId}
      data-tone={tone}
      title={title}
    >
      {children}
    </span>
  );
}

const buttonKinds = {
  primary: "bg-blue-700 text-white hover:bg-blue-800 border-blue-800",
  plain: "bg-white text-slate-800 hover:bg-slate-100 border-slate-300",
  danger: "bg-red-700 text-white hover:bg-red-800 border-red-800",
  good: "bg-emerald-700 text-white hover:bg-emerald-800 border-emerald-800",
} as const;

export function Button({
  kind = "plain",
  testId,
  onClick,
  disabled,
  children,
  title,
  type = "button",
  small,
  ariaLabel,
  pressed,
  expanded,
  buttonRef,
}: {
  kind?: keyof typeof buttonKinds;
  testId: string;
  onClick?: () => void;
  disabled?: boolean;
  children: ReactNode;
  title?: string;
  type?: "button" | "submit";
  small?: boolean;
  /** The button's name when its text is an icon. */
  ariaLabel?: string;
  /** A toggle's state (aria-pressed). */
  pressed?: boolean;
  /** A menu button's state (aria-expanded). */
  expanded?: boolean;
  /** For a dialog's `initialFocus`. */
  buttonRef?: Ref<HTMLButtonElement>;
}) {
  return (
    <button
      ref={buttonRef}
      type={type}
      className={`rounded border ${small ? "px-1.5 py-0.5 text-xs" : "px-2.5 py-1 text-sm"} font-medium disabled:cursor-not-allowed disabled:opacity-50 ${buttonKinds[kind]}`}
      data-testid={testId}
      onClick={onClick}
      disabled={disabled}
      title={title}
      aria-label={ariaLabel}
      aria-pressed={pressed}
      aria-expanded={expanded}
    >
      {children}
    </button>
  );
}

export function CopyButton({
  text,
  testId,
  label = "Copy",
}: {
  text: () => string;
  testId: string;
  label?: string;
}) {
  const [copied, setCopied] = useState<"idle" | "copied" | "failed">("idle");
  return (
    <Button
      small
      testId={testId}
      onClick={() => {
        copyText(text()).then(
          (done) => setCopied(done ? "copied" : "failed"),
          () => setCopied("failed"),
        );
      }}
    >
      {copied === "copied" ? "Copied" : copied === "failed" ? "Copy failed" : label}
    </Button>
  );
}

export function ErrorCard({
  title,
  message,
  testId,
  onDismiss,
}: {
  title: string;
  message: string;
  testId?: string;
  onDismiss?: () => void;
}) {
  return (
    <div
      role="alert"
      className="rounded border border-red-300 bg-red-50 p-2 text-sm text-red-900"
      data-testid={testId ?? "error-card"}
    >
      <div className="flex items-start justify-between gap-2">
        <strong>{title}</strong>
        {onDismiss && (
          <button type="button" className="text-xs underline" data-testid="error-dismiss" onClick={onDismiss}>
            dismiss
          </button>
        )}
      </div>
      <p className="mt-1 whitespace-pre-wrap break-words">{message}</p>
    </div>
  );
}

/** Keeps one broken panel from blanking the whole page; shows what failed instead. */
export class PanelBoundary extends Component<{ name: string; children: ReactNode }, { error?: Error }> {
  state: { error?: Error } = {};
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  render() {
    if (this.state.error) {
      return (
        <div className="p-2">
          <ErrorCard
            testId={`panel-error-${this.props.name}`}
            title={`The ${this.props.name} panel failed to render`}
            message={`${this.state.error.message}\nThe rest of the workspace still works; reopen the session to retry.`}
            onDismiss={() => this.setState({ error: undefined })}
          />
        </div>
      );
    }
    return this.props.children;
  }
}

export function Pre({ text, testId, className = "" }: { text: string; testId?: string; className?: string }) {
  return (
    <pre
      className={`max-h-80 overflow-auto rounded bg-slate-50 p-2 font-mono text-xs leading-snug whitespace-pre-wrap break-words border border-slate-200 ${className}`}
      data-testid={testId}
    >
      {text}
    </pre>
  );
}

export function formatJson(value: unknown): string {
  if (value === undefined) return "";
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return String(value);
  }
}
