// A skill's `allowed-tools` as this playground reads it: pre-approval while the skill is active, never a
// dependency. Each entry, the tool of this playground it maps to (or "no equivalent here"), and whether
// this session honours them.
"use client";
import type { SkillView } from "../../server/protocol/index.ts";

export function SkillAllowedTools({
  skill,
  honoured,
}: {
  skill: SkillView;
  /** The session's "honour allowed-tools" setting. */
  honoured: boolean;
}) {
  const entries = skill.allowedTools ?? [];
  if (entries.length === 0) return null;
  const projectUntrusted = skill.source === "project";
  return (
    <section className="rounded border border-slate-200 p-1.5 text-xs" data-testid="skill-allowed-tools">
      <h3 className="font-semibold">allowed-tools — pre-approval, not a dependency</h3>
      <p className="text-slate-600">
        While this skill is active, these may run without asking{" "}
        <strong data-testid="skill-allowed-tools-state">
          {honoured
            ? "(this session honours allowed-tools)"
            : "only if the session honours allowed-tools (off)"}
        </strong>
        {projectUntrusted && " — a project skill's, only once the folder is trusted"}. Denies, protected
        paths, the dangerous list and a sandbox that is off still apply.
      </p>
      <ul className="mt-1 space-y-0.5">
        {entries.map((entry) => (
          <li
            key={entry.entry}
            className="border-t border-slate-100 pt-0.5 break-words"
            data-testid={`allowed-tool-${entry.entry}`}
          >
            <span className="font-mono">{entry.entry}</span> →{" "}
            {entry.rule ? (
              <span className="font-mono font-semibold">{entry.rule}</span>
            ) : (
              <span className="font-semibold text-amber-900">no equivalent here</span>
            )}
            <span className="text-slate-600"> · {entry.note}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
