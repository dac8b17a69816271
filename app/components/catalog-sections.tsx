// The catalog's two answers about skills that are not simply listed: "Why isn't it offered?" (every skill
// found on disk but not in the model's index, one sentence each) and the lint, each note naming its rule
// set (Agent Skills, Claude Code, or this playground's advice) and the profile the catalog enforces.
"use client";
import type {
  CatalogSnapshot,
  LintNote,
  LintRuleSet,
  NotOfferedKind,
  NotOfferedSkill,
} from "../../server/protocol/index.ts";
import { Badge, type Tone } from "./ui.tsx";

const kindLabels: Record<NotOfferedKind, string> = {
  unreadable: "could not be read",
  shadowed: "shadowed",
  refused: "refused by profile",
  removed: "removed",
  disabled: "disabled for the model",
  budget: "left out by the budget",
};
const kindTones: Record<NotOfferedKind, Tone> = {
  unreadable: "red",
  shadowed: "slate",
  refused: "red",
  removed: "amber",
  disabled: "violet",
  budget: "amber",
};
const kindHelp: Record<NotOfferedKind, string> = {
  unreadable: "The SKILL.md (or its tools.json) has a problem the parser cannot get past.",
  shadowed: "A skill of the same name in a later layer wins (project > user > builtin).",
  refused: "The catalog's lint profile refuses a skill that breaks one of its error rules.",
  removed: 'A tool its "tools" key needs is not registered, so the model is never offered it.',
  disabled: "disable-model-invocation: true — only a person can run it, with /name.",
  budget: "The session's listing budget (a client's rules) leaves it out of the index entirely.",
};

const ruleSetLabels: Record<LintRuleSet, string> = {
  "agent-skills": "Agent Skills",
  "claude-code": "Claude Code",
  playground: "playground",
};

/** Paths are shown the way the catalog shows them (relative to the workdir when inside it). */
type DisplayPath = (fullPath: string) => string;

export function NotOfferedSection({
  entries,
  displayPath,
  onSelect,
}: {
  entries: NotOfferedSkill[];
  displayPath: DisplayPath;
  /** Opens a skill's detail; only offered for skills that are in the catalog (disabled, budget). */
  onSelect?: (name: string) => void;
}) {
  return (
    <section data-testid="catalog-not-offered">
      <h3
        className="text-xs font-semibold text-amber-900 uppercase"
        title="Every skill the catalog found on disk that the model's skills index does not offer, and why"
      >
        Not offered to the model ({entries.length})
      </h3>
      {entries.length === 0 && (
        <p className="text-xs text-slate-500" data-testid="not-offered-none">
          Every skill found on disk is offered.
        </p>
      )}
      <ul className="space-y-1">
        {entries.map((entry, index) => (
          <li
            key={`${entry.kind}-${entry.path}-${index}`}
            className="rounded border border-amber-200 bg-amber-50 p-1 text-xs"
            data-testid={`not-offered-${entry.name}`}
            data-kind={entry.kind}
          >
            <div className="flex flex-wrap items-center gap-1">
              {onSelect && (entry.kind === "disabled" || entry.kind === "budget") ? (
                <button
                  type="button"
                  className="font-mono font-semibold text-blue-800 underline"
                  onClick={() => onSelect(entry.name)}
                >
                  {entry.name}
                </button>
              ) : (
                <span className="font-mono font-semibold">{entry.name}</span>
              )}
              <Badge tone={kindTones[entry.kind]} title={kindHelp[entry.kind]}>
                {kindLabels[entry.kind]}
              </Badge>
              <span className="text-slate-500">{entry.source}</span>
            </div>
            <p>{entry.reason}</p>
            <p className="font-mono break-all text-slate-600" title={entry.path}>
              {displayPath(entry.path)}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function LintNoteLine({ note }: { note: LintNote }) {
  const ruleSet = note.profile ?? "agent-skills";
  return (
    <>
      <Badge
        tone={note.level === "error" ? "red" : "slate"}
        title={`${ruleSetLabels[ruleSet]} rule${note.level === "error" ? " (an error: a profile that enforces it refuses the skill)" : ""}`}
      >
        {ruleSetLabels[ruleSet]}
      </Badge>{" "}
      <span className="font-mono text-slate-500">{note.rule}</span>
      {note.line !== undefined && <span className="text-slate-500"> (line {note.line})</span>}: {note.message}
    </>
  );
}

export function LintSection({ catalog }: { catalog: CatalogSnapshot }) {
  if (catalog.lint.length === 0) return null;
  const profile = catalog.profile ?? "lenient";
  return (
    <section data-testid="catalog-lint">
      <h3
        className="text-xs font-semibold text-slate-600 uppercase"
        title="Each note names its rule set. The profile decides which error notes refuse a skill: lenient refuses none."
      >
        Lint ({catalog.lint.length}) · profile {profile}
      </h3>
      <ul className="space-y-0.5">
        {catalog.lint.map((note, index) => (
          <li key={`${note.skill}-${note.rule}-${index}`} className="text-xs" data-testid="lint-note">
            <span className="font-mono">{note.skill}</span> · <LintNoteLine note={note} />
          </li>
        ))}
      </ul>
    </section>
  );
}
