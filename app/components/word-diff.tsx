// A word diff of two descriptions (the `diff` library's diffWords): removed words struck through in red,
// added words in green. Descriptions are one line, so a line diff would show nothing but "changed".
"use client";
import { diffWords } from "diff";

export function WordDiff({ before, after, testId }: { before: string; after: string; testId?: string }) {
  const parts = diffWords(before, after);
  return (
    <span className="text-xs" data-testid={testId}>
      {parts.map((part, index) =>
        part.added ? (
          <ins key={index} className="bg-emerald-100 text-emerald-900 no-underline" data-diff="added">
            {part.value}
          </ins>
        ) : part.removed ? (
          <del key={index} className="bg-red-100 text-red-900" data-diff="removed">
            {part.value}
          </del>
        ) : (
          <span key={index}>{part.value}</span>
        ),
      )}
    </span>
  );
}
