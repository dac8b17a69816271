// The files a command wrote, on its tool card: one line ("Wrote 3 files: package.json (changed), …") that
// opens to the whole list; each small text file added or changed opens to a line diff, loaded when first
// opened (lazy.tsx: the diff library stays out of the first-load JS).
"use client";
import { useState } from "react";
import type { ToolResultMetadata, WrittenPath } from "../../server/protocol/index.ts";
import { commandWrites, hasDiff, writtenLabel } from "../../server/shared/command-writes.ts";
import { LineDiffView, Loading } from "./lazy.tsx";

const changeTones: Record<WrittenPath["change"], string> = {
  added: "text-emerald-800",
  changed: "text-amber-800",
  removed: "text-red-800",
};

function WrittenRow({ entry }: { entry: WrittenPath }) {
  const [open, setOpen] = useState(false);
  const label = (
    <>
      <span className="font-mono">{entry.path}</span>{" "}
      <span className={changeTones[entry.change]}>({entry.change})</span>
    </>
  );
  if (!hasDiff(entry))
    return (
      <li data-testid="tool-call-write" data-change={entry.change}>
        {label}
        {entry.noDiff && <span className="text-slate-500"> · no diff: {entry.noDiff}</span>}
      </li>
    );
  return (
    <li data-testid="tool-call-write" data-change={entry.change}>
      <details onToggle={(event) => setOpen(event.currentTarget.open)}>
        <summary className="cursor-pointer" title={`Show the line diff of ${writtenLabel(entry)}`}>
          {label}
        </summary>
        {open && (
          <Loading inline>
            <LineDiffView
              before={entry.before ?? ""}
              after={entry.after ?? ""}
              beforeLabel={entry.change === "added" ? "(new file)" : `${entry.path} before`}
              afterLabel={`${entry.path} after`}
              testId="tool-call-write-diff"
            />
          </Loading>
        )}
      </details>
    </li>
  );
}

export function CommandWrites({ metadata }: { metadata: ToolResultMetadata | undefined }) {
  const view = commandWrites(metadata);
  if (!view) return null;
  if (view.kind === "unknown")
    return (
      <p className="text-slate-600" data-testid="tool-call-writes-unknown" title={view.title}>
        {view.line}
      </p>
    );
  return (
    <details data-testid="tool-call-writes">
      <summary className="cursor-pointer text-slate-700">{view.summary}</summary>
      <ul className="ml-3 list-none">
        {view.entries.map((entry) => (
          <WrittenRow key={`${entry.change}:${entry.path}`} entry={entry} />
        ))}
        {view.more && <li className="text-slate-500">{view.more}</li>}
      </ul>
    </details>
  );
}
