// Left column: every skill with its source and disclosure stage, what shadowed what, warnings, the skills
// not offered to the model (and why), lint notes, the Reload button and the feed of reload diffs.
"use client";
import { DescriptionHints, descriptionHints } from "./description-hints.tsx";
import type { CatalogSnapshot, CatalogSource, SkillSource, SkillView } from "../../server/protocol/index.ts";
import { skillStageLabels, type SkillStage } from "../state/derive.ts";
import type { ReloadFeedEntry } from "../state/types.ts";
import { Badge, Button, type Tone } from "./ui.tsx";
import { plural } from "../../server/shared/figures.ts";
import type { SkillResourceView } from "../state/skill-resources.ts";
import { NeverReadHints } from "./skill-resources-lane.tsx";
import { LintSection, NotOfferedSection } from "./catalog-sections.tsx";

/** Paths inside the session's workdir are shown relative to it; the full path stays in the tooltip. */
export function displayPath(fullPath: string, workdir?: string): string {
  if (workdir && fullPath.startsWith(workdir.endsWith("/") ? workdir : `${workdir}/`))
    return `<workdir>/${fullPath.slice(workdir.replace(/\/$/, "").length + 1)}`;
  return fullPath;
}

/** The newest reload that changed something (a watcher event right after a manual reload often has none). */
function latestChange(feed: ReloadFeedEntry[]): ReloadFeedEntry | undefined {
  const changed = (entry: ReloadFeedEntry) =>
    entry.diff.added.length + entry.diff.removed.length + entry.diff.updated.length + entry.warnings.length >
    0;
  return feed.find(changed) ?? feed[0];
}

/**
 * What made the catalog reload: a watched file changed, or the user asked for it — the Reload button, but
 * also installing a skill or a plugin and applying an optimized description, so never "button".
 */
const triggerLabels: Record<ReloadFeedEntry["trigger"], string> = {
  watch: "file change",
  manual: "asked for",
};
const askedForTitle = "Reload, Add skill, a plugin install or an applied description";

function LatestReload({ feed }: { feed: ReloadFeedEntry[] }) {
  const entry = latestChange(feed);
  if (!entry) return null;
  const changes = [
    ...entry.diff.added.map((name) => `+${name}`),
    ...entry.diff.removed.map((name) => `−${name}`),
    ...entry.diff.updated.map((name) => `~${name}`),
  ];
  return (
    <p className="border-b border-slate-200 bg-slate-50 px-2 py-1 text-xs" data-testid="reload-latest">
      Last reload (
      <span title={entry.trigger === "manual" ? askedForTitle : undefined}>
        {triggerLabels[entry.trigger]}
      </span>
      ): {changes.join(" ") || "no changes"}
      {entry.warnings.length > 0 && `, ${plural(entry.warnings.length, "warning")}`}
    </p>
  );
}

export const sourceTones: Record<SkillSource, Tone> = { builtin: "slate", user: "violet", project: "blue" };

/** A source's badge tone: a layer's, or amber for `mcp:<server>` (a skill an MCP server serves). */
export function sourceTone(source: CatalogSource): Tone {
  return source.startsWith("mcp:") ? "amber" : sourceTones[source as SkillSource];
}
const stageTones: Record<SkillStage, Tone> = {
  listed: "slate",
  loaded: "amber",
  tools_registered: "violet",
  tools_visible: "green",
};

/** What each stage means, for newcomers (the stage badge's tooltip). */
export const stageHelp: Record<SkillStage, string> = {
  listed: "listed: the model sees only this skill's name and description, in the stable system's index",
  loaded: "loaded (active): the model called load_skill; the full SOP is now in every request's Environment",
  tools_registered:
    "tools registered: the skill's tools exist on the server but are not in the model's tool list until the next run",
  tools_visible:
    "tools visible to the model: the skill's tools are in this run's Tools pane and can be called",
};
const sourceHelp: Record<SkillSource, string> = {
  builtin: "builtin: shipped with the playground",
  user: "user: from ~/.PseudoClaude/skills, available in every project",
  project:
    "project: from this workdir's .PseudoClaude/skills; overrides a builtin or user skill of the same name",
};

function sourceHelpText(source: CatalogSource): string {
  return source.startsWith("mcp:")
    ? `${source}: served by the MCP server ${source.slice(4)} (SEP-2640); fetched and verified when loaded, and loading it asks first`
    : sourceHelp[source as SkillSource];
}

export function CatalogPanel({
  catalog,
  workdir,
  stageOf,
  reloadFeed,
  selectedSkill,
  onSelectSkill,
  skillResources = [],
  onReload,
  onAddSkill,
}: {
  catalog?: CatalogSnapshot;
  workdir?: string;
  stageOf: (skill: SkillView) => SkillStage;
  reloadFeed: ReloadFeedEntry[];
  selectedSkill?: string;
  onSelectSkill: (name: string) => void;
  /** Level 3: loaded skills' files, for the "never read" hint after a run. */
  skillResources?: SkillResourceView[];
  onReload: () => void;
  /** Opens the Add skill dialog (absent: no button). */
  onAddSkill?: () => void;
}) {
  return (
    <div className="flex h-full flex-col" data-testid="catalog-panel">
      <div className="flex items-center justify-between border-b border-slate-200 px-2 py-1.5">
        <h2 className="text-sm font-semibold">
          Skill catalog{" "}
          {catalog && <span className="font-normal text-slate-500">({catalog.skills.length})</span>}
        </h2>
        <div className="flex gap-1">
          {onAddSkill && (
            <Button
              small
              testId="catalog-add-skill"
              onClick={onAddSkill}
              title="Install a skill from a .zip or a folder"
            >
              Add skill
            </Button>
          )}
          <Button
            small
            testId="catalog-reload"
            onClick={onReload}
            title="Rescan builtin, user and project skills"
          >
            Reload
          </Button>
        </div>
      </div>
      <LatestReload feed={reloadFeed} />
      <div className="min-h-0 flex-1 space-y-3 overflow-y-auto p-2">
        {!catalog && <p className="text-sm text-slate-500">Waiting for the catalog…</p>}
        {catalog && (
          <ul className="space-y-1" data-testid="skill-list">
            {catalog.skills.map((skill) => {
              const stage = stageOf(skill);
              const shadow = catalog.shadowed.filter((entry) => entry.name === skill.name);
              return (
                <li key={skill.name}>
                  <button
                    type="button"
                    data-testid={`skill-${skill.name}`}
                    data-stage={stage}
                    onClick={() => onSelectSkill(skill.name)}
                    className={`w-full rounded border p-1.5 text-left ${selectedSkill === skill.name ? "border-blue-500 bg-blue-50" : "border-slate-200 hover:bg-slate-50"}`}
                  >
                    <div className="flex flex-wrap items-center gap-1">
                      <span className="font-mono text-sm font-semibold">{skill.name}</span>
                      <Badge
                        tone={sourceTone(skill.source)}
                        testId={`skill-source-${skill.name}`}
                        title={sourceHelpText(skill.source)}
                      >
                        {skill.source}
                      </Badge>
                      {skill.plugin && (
                        <Badge
                          tone="slate"
                          testId={`skill-plugin-${skill.name}`}
                          title={`installed with the plugin ${skill.plugin} (its skills are listed and removed together)`}
                        >
                          plugin: {skill.plugin}
                        </Badge>
                      )}
                      <Badge
                        tone={stageTones[stage]}
                        testId={`skill-stage-${skill.name}`}
                        title={stageHelp[stage]}
                      >
                        {skillStageLabels[stage]}
                      </Badge>
                      {skill.invocation?.model === false && (
                        <Badge
                          tone="violet"
                          testId={`skill-user-only-${skill.name}`}
                          title="disable-model-invocation: true — not in the model's skills index; run it with /name"
                        >
                          not in the index · /{skill.name} only
                        </Badge>
                      )}
                      {skill.invocation?.user === false && (
                        <Badge
                          tone="slate"
                          testId={`skill-hidden-slash-${skill.name}`}
                          title="user-invocable: false — hidden from the slash menu; the model may still load it"
                        >
                          hidden from /
                        </Badge>
                      )}
                    </div>
                    <p className="mt-0.5 line-clamp-2 text-xs text-slate-600">{skill.description}</p>
                    <DescriptionHints
                      compact
                      notes={descriptionHints(catalog.lint, skill.name)}
                      testId={`skill-hints-${skill.name}`}
                    />
                    {shadow.map((entry) => (
                      <p
                        key={entry.loser.path}
                        className="mt-0.5 text-xs text-amber-900"
                        data-testid={`skill-shadow-${skill.name}`}
                      >
                        {entry.winner.source} overrides {entry.loser.source}:{" "}
                        <span className="font-mono break-all" title={entry.loser.path}>
                          {displayPath(entry.loser.path, workdir)}
                        </span>
                      </p>
                    ))}
                  </button>
                </li>
              );
            })}
          </ul>
        )}
        {catalog && catalog.warnings.length > 0 && (
          <section data-testid="catalog-warnings">
            <h3 className="text-xs font-semibold text-red-800 uppercase">
              Warnings ({catalog.warnings.length})
            </h3>
            <ul className="space-y-1">
              {catalog.warnings.map((warning, index) => (
                <li
                  key={`${warning.path}-${index}`}
                  className="rounded border border-red-200 bg-red-50 p-1 text-xs"
                  data-testid="catalog-warning"
                >
                  <span className="font-mono break-all" title={warning.path}>
                    {displayPath(warning.path, workdir)}
                    {warning.line !== undefined &&
                      `:${warning.line}${warning.column !== undefined ? `:${warning.column}` : ""}`}
                  </span>{" "}
                  <Badge tone={sourceTone(warning.source)}>{warning.source}</Badge>
                  <p>{warning.reason}</p>
                </li>
              ))}
            </ul>
          </section>
        )}
        {catalog?.notOffered ? (
          <NotOfferedSection
            entries={catalog.notOffered}
            displayPath={(fullPath) => displayPath(fullPath, workdir)}
            onSelect={onSelectSkill}
          />
        ) : (
          catalog &&
          catalog.removed.length > 0 && (
            // A catalog logged before "not offered" existed: its removed skills, as they were shown then.
            <section data-testid="catalog-removed">
              <h3 className="text-xs font-semibold text-amber-900 uppercase">Removed: missing tools</h3>
              <ul className="space-y-1">
                {catalog.removed.map((removed) => (
                  <li
                    key={removed.path}
                    className="rounded border border-amber-200 bg-amber-50 p-1 text-xs"
                    data-testid={`removed-${removed.name}`}
                  >
                    <span className="font-mono font-semibold">{removed.name}</span> ({removed.source}) needs{" "}
                    <span className="font-mono">{removed.missing.join(", ")}</span>
                    <p className="font-mono break-all text-slate-600" title={removed.path}>
                      {displayPath(removed.path, workdir)}
                    </p>
                  </li>
                ))}
              </ul>
            </section>
          )
        )}
        {catalog && <LintSection catalog={catalog} />}
        <NeverReadHints skills={skillResources} />
        <section data-testid="reload-feed">
          <h3 className="text-xs font-semibold text-slate-600 uppercase">Reload feed</h3>
          {reloadFeed.length === 0 && (
            <p className="text-xs text-slate-500">No reloads yet. Edit a SKILL.md or press Reload.</p>
          )}
          <ul className="space-y-1">
            {reloadFeed.map((entry) => (
              <li
                key={entry.id}
                className="rounded border border-slate-200 p-1 text-xs"
                data-testid="reload-entry"
              >
                <Badge
                  tone={entry.trigger === "watch" ? "violet" : "slate"}
                  {...(entry.trigger === "manual" ? { title: askedForTitle } : {})}
                >
                  {triggerLabels[entry.trigger]}
                </Badge>{" "}
                {entry.diff.added.length === 0 &&
                  entry.diff.removed.length === 0 &&
                  entry.diff.updated.length === 0 && <span>no changes</span>}
                {entry.diff.added.length > 0 && (
                  <span className="text-emerald-800">+{entry.diff.added.join(", ")} </span>
                )}
                {entry.diff.removed.length > 0 && (
                  <span className="text-red-800">−{entry.diff.removed.join(", ")} </span>
                )}
                {entry.diff.updated.length > 0 && (
                  <span className="text-blue-800">~{entry.diff.updated.join(", ")}</span>
                )}
                {entry.warnings.map((warning, index) => (
                  <p key={index} className="text-red-800">
                    {displayPath(warning.path, workdir)}
                    {warning.line !== undefined && `:${warning.line}`}: {warning.reason}
                  </p>
                ))}
              </li>
            ))}
          </ul>
        </section>
      </div>
    </div>
  );
}
