// A skill's `allowed-tools` as this playground reads it: pre-approval while the skill is active, never a
// dependency. Each entry, the tool of this playground it maps to (or "no equivalent here"), and whether
// this session honours them.
"use client";
import type { SkillView } from "../../server/protocol/index.ts";

export function SkillAllowedTools({
  skill,
  honoured,
  mcpGrant,
}: {
  skill: SkillView;
  /** The session's "honour allowed-tools" setting. */
  honoured: boolean;
  /** An MCP server's skill: its allowed-tools count only once granted here, for this content. */
  mcpGrant?: { granted: boolean; onChange: (granted: boolean) => void };
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
      {mcpGrant && (
        <label className="mt-1 flex items-start gap-1 text-amber-900">
          <input
            type="checkbox"
            data-testid="skill-mcp-grant"
            checked={mcpGrant.granted}
            onChange={(event) => mcpGrant.onChange(event.target.checked)}
          />
          <span>
            Grant them: this skill is served by an MCP server, so its allowed-tools are ignored unless you
            grant them here — for these files only (a changed skill loses the grant).
          </span>
        </label>
      )}
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
