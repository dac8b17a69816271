// The catalog budget view: for a client profile and a context window, which skill descriptions that
// client would cut or drop from its listing (the server's prediction from the clients' published rules),
// and a switch that applies the same budget to this session's own index.
"use client";
import { useState } from "react";
import type { CatalogBudgetReport, ClientProfileName } from "../../server/protocol/index.ts";
import { Badge, Button } from "./ui.tsx";

const tones = { full: "green", cut: "amber", dropped: "red" } as const;

export function CatalogBudgetView({
  report,
  applied,
  onCheck,
  onApply,
}: {
  report?: CatalogBudgetReport;
  /** The budget this session's own index uses (null/undefined: off). */
  applied?: { profile: ClientProfileName; contextWindow?: number } | null;
  onCheck: (profile: ClientProfileName, contextWindow?: number) => void;
  onApply: (budget: { profile: ClientProfileName; contextWindow?: number } | null) => void;
}) {
  const [profile, setProfile] = useState<ClientProfileName>("claude-code");
  const [windowText, setWindowText] = useState("200000");
  const contextWindow = /^[1-9][0-9]*$/.test(windowText.trim()) ? Number(windowText.trim()) : undefined;
  return (
    <div className="space-y-2 text-xs" data-testid="catalog-budget">
      <div className="flex flex-wrap items-end gap-2">
        <label className="flex flex-col">
          client profile
          <select
            className="rounded border border-slate-300 px-1 py-0.5"
            data-testid="budget-profile"
            value={profile}
            onChange={(event) => setProfile(event.target.value as ClientProfileName)}
          >
            <option value="claude-code">Claude Code (≈1% of the window)</option>
            <option value="codex">Codex (≈2% of the window)</option>
          </select>
        </label>
        <label className="flex flex-col">
          context window (tokens; empty: unknown)
          <input
            className="w-32 rounded border border-slate-300 px-1 py-0.5"
            data-testid="budget-window"
            value={windowText}
            onChange={(event) => setWindowText(event.target.value)}
          />
        </label>
        <Button testId="budget-check" small onClick={() => onCheck(profile, contextWindow)}>
          Check the listing
        </Button>
        <label
          className="flex items-center gap-1"
          title="Trim this session's own skills index the same way (from the next run); the stable system then says which skills were trimmed"
        >
          <input
            type="checkbox"
            data-testid="budget-apply"
            checked={Boolean(applied)}
            onChange={(event) =>
              onApply(event.target.checked ? { profile, ...(contextWindow ? { contextWindow } : {}) } : null)
            }
          />
          apply to this session&apos;s index
          {applied && (
            <span className="text-slate-500">
              ({applied.profile}
              {applied.contextWindow ? `, ${applied.contextWindow.toLocaleString("en-US")} tokens` : ""})
            </span>
          )}
        </label>
      </div>
      {report && (
        <div className="space-y-1" data-testid="budget-report" data-profile={report.profile}>
          <p>
            <strong>Prediction</strong> from {report.profile}&apos;s published rules ({report.derivation}):
            budget <span data-testid="budget-limit">{report.limit.toLocaleString("en-US")}</span>{" "}
            {report.unit === "chars" ? "characters" : "approximate tokens"}; this listing would use{" "}
            {report.used.toLocaleString("en-US")} of the {report.fullCost.toLocaleString("en-US")} it needs in
            full.
          </p>
          <table className="w-full">
            <thead>
              <tr className="text-left text-slate-500">
                <th className="px-1">skill</th>
                <th className="px-1">status</th>
                <th className="px-1">shown / description chars</th>
                <th className="px-1">why</th>
              </tr>
            </thead>
            <tbody>
              {report.entries.map((entry) => (
                <tr key={entry.name} data-testid={`budget-entry-${entry.name}`} data-status={entry.status}>
                  <td className="px-1 font-mono">{entry.name}</td>
                  <td className="px-1">
                    <Badge tone={tones[entry.status]}>{entry.listed ? entry.status : "not listed"}</Badge>
                  </td>
                  <td className="px-1">
                    {entry.shownChars} / {entry.descriptionChars}
                  </td>
                  <td className="px-1 text-slate-600">{entry.reason ?? ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="text-slate-500">{report.note}</p>
          <p className="text-slate-500">Sources: {report.sources.join("; ")}</p>
        </div>
      )}
    </div>
  );
}
