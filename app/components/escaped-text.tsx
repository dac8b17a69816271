// Text that may carry hidden characters (a command, a path, stdin), rendered so each one shows as a
// visible `\u202E` marker, plus the warning line the approval card puts under it.
"use client";
import { hiddenWarning, splitHidden, type HiddenCharacter } from "../../server/shared/hidden-characters.ts";

export function EscapedText({ text }: { text: string }) {
  return (
    <>
      {splitHidden(text).map((part, index) =>
        part.kind === "text" ? (
          part.text
        ) : (
          <span
            key={index}
            className="rounded-sm bg-red-100 px-px text-red-800 ring-1 ring-red-300"
            data-testid="hidden-character"
            title={`Hidden character ${part.character.code}: ${part.character.name}`}
          >
            {part.character.code}
          </span>
        ),
      )}
    </>
  );
}

/** Like ui.tsx's Pre, with hidden characters shown as markers (so copying it copies the markers too). */
export function EscapedPre({
  text,
  testId,
  className = "",
}: {
  text: string;
  testId?: string;
  className?: string;
}) {
  return (
    <pre
      className={`max-h-80 overflow-auto rounded border border-slate-200 bg-slate-50 p-2 font-mono text-xs leading-snug break-words whitespace-pre-wrap ${className}`}
      data-testid={testId}
    >
      <EscapedText text={text} />
    </pre>
  );
}

export function HiddenCharactersWarning({
  characters,
  subject,
  testId,
}: {
  characters: readonly HiddenCharacter[];
  subject?: string;
  testId: string;
}) {
  if (characters.length === 0) return null;
  return (
    <p
      role="alert"
      className="mt-1 rounded border border-red-300 bg-red-50 p-1 text-red-900"
      data-testid={testId}
      title="Bidirectional overrides, zero-width and control characters can make text read differently from what it does (Trojan Source)."
    >
      <strong>⚠ Hidden characters.</strong> {hiddenWarning(characters, subject)}
    </p>
  );
}
