// A skill's detail view: how it may be invoked, its allowed-tools mapped onto this playground's tools,
// its lint notes, frontmatter, rendered SOP and raw text, tools.json specs with their schemas, the token
// cost of listing it vs loading it, and a console to run each of its tools by hand.
"use client";
import { useState } from "react";
import type { LOAD_SKILL_TOOL_NAME, LintNote, SkillView } from "../../server/protocol/index.ts";
import { SafeMarkdown } from "../lib/markdown.tsx";
import { tokenizerName, useTokenCounts } from "../lib/tokens.ts";
import type { ConsoleResult } from "../state/types.ts";
import { sourceTones } from "./catalog-panel.tsx";
import { LintNoteLine } from "./catalog-sections.tsx";
import { SkillAllowedTools } from "./skill-allowed-tools.tsx";
import { ToolConsole } from "./tool-console.tsx";
import { Badge, Button, Pre, formatJson } from "./ui.tsx";

/** The pages import protocol types only: the name is checked against the server's constant by type. */
const LOAD_SKILL: typeof LOAD_SKILL_TOOL_NAME = "load_skill";

type Tab = "sop" | "raw" | "tools";

export function SkillDetail({
  skill,
  consoleResults,
  registeredTools,
  lint = [],
  honourAllowedTools = false,
  onRunTool,
  onClose,
}: {
  skill: SkillView;
  consoleResults: ConsoleResult[];
  /** Tools in the session's Registry: a skill's tools.json tools arrive there only through load_skill. */
  registeredTools: string[];
  /** The catalog's lint notes about this skill. */
  lint?: LintNote[];
  /** The session's "honour allowed-tools" setting. */
  honourAllowedTools?: boolean;
  onRunTool: (tool: string, input: unknown) => void;
  onClose: () => void;
}) {
  const [tab, setTab] = useState<Tab>("sop");
  // The index line as the model reads it: when_to_use joins the description (Claude Code's listing).
  const indexText = skill.whenToUse ? `${skill.description} ${skill.whenToUse}` : skill.description;
  const counts = useTokenCounts({ listing: `- ${skill.name}: ${indexText}`, body: skill.body });
  const frontmatter = {
    name: skill.name,
    description: skill.description,
    ...skill.meta,
    extra: undefined,
    ...skill.meta.extra,
  };
  return (
    <div className="flex h-full flex-col" data-testid="skill-detail">
      <div className="flex items-center justify-between border-b border-slate-200 px-2 py-1.5">
        <div className="flex items-center gap-1">
          <h2 className="font-mono text-sm font-semibold">{skill.name}</h2>
          <Badge tone={sourceTones[skill.source]}>{skill.source}</Badge>
        </div>
        <Button small testId="skill-detail-close" onClick={onClose}>
          Back to catalog
        </Button>
      </div>
      <div className="min-h-0 flex-1 space-y-2 overflow-y-auto p-2">
        <p className="font-mono text-xs break-all text-slate-500">{skill.entryPath}</p>
        {(skill.invocation?.model === false || skill.invocation?.user === false || skill.whenToUse) && (
          <div className="space-y-0.5 text-xs" data-testid="skill-invocation">
            {skill.invocation?.model === false && (
              <p>
                <Badge tone="violet">disable-model-invocation</Badge> Not in the model&apos;s skills index and
                load_skill refuses it; you can run it with <span className="font-mono">/{skill.name}</span>.
              </p>
            )}
            {skill.invocation?.user === false && (
              <p>
                <Badge tone="slate">user-invocable: false</Badge> Hidden from the slash menu; the model may
                still load it.
              </p>
            )}
            {skill.whenToUse && (
              <p data-testid="skill-when-to-use">
                <span className="font-semibold">when_to_use</span> (joins the description in the index line):{" "}
                {skill.whenToUse}
              </p>
            )}
          </div>
        )}
        <SkillAllowedTools skill={skill} honoured={honourAllowedTools} />
        {lint.length > 0 && (
          <section data-testid="skill-lint">
            <h3 className="text-xs font-semibold text-slate-600">Lint ({lint.length})</h3>
            <ul className="space-y-0.5">
              {lint.map((note, index) => (
                <li key={`${note.rule}-${index}`} className="text-xs">
                  <LintNoteLine note={note} />
                </li>
              ))}
            </ul>
          </section>
        )}
        <div
          className="rounded border border-slate-200 bg-slate-50 p-1.5 text-xs"
          data-testid="skill-token-cost"
        >
          <div>
            Listing it costs{" "}
            <strong data-testid="skill-listing-tokens">{counts ? counts.listing : "…"}</strong> tokens in
            every request; loading it adds{" "}
            <strong data-testid="skill-body-tokens">{counts ? counts.body : "…"}</strong> tokens to the
            environment.
          </div>
          <div className="text-slate-500">{tokenizerName}</div>
        </div>
        <details>
          <summary className="cursor-pointer text-xs font-semibold">Frontmatter</summary>
          <Pre testId="skill-frontmatter" text={formatJson(frontmatter)} />
        </details>
        <div className="flex gap-1" role="tablist">
          {(["sop", "raw", "tools"] as Tab[]).map((name) => (
            <button
              key={name}
              type="button"
              role="tab"
              aria-selected={tab === name}
              data-testid={`skill-tab-${name}`}
              onClick={() => setTab(name)}
              className={`rounded-t border-b-2 px-2 py-0.5 text-xs ${tab === name ? "border-blue-600 font-semibold" : "border-transparent text-slate-600"}`}
            >
              {name === "sop"
                ? "SOP (rendered)"
                : name === "raw"
                  ? "Raw SKILL.md"
                  : `Tools (${skill.toolSpecs.length})`}
            </button>
          ))}
        </div>
        {tab === "sop" && <SafeMarkdown markdown={skill.body} testId="skill-sop" />}
        {tab === "raw" && <Pre testId="skill-raw" text={skill.raw ?? skill.body} className="max-h-none" />}
        {tab === "tools" && (
          <div className="space-y-2" data-testid="skill-tools">
            {skill.meta.tools.length > 0 && (
              <p className="text-xs">
                Needs: <span className="font-mono">{skill.meta.tools.join(", ")}</span>
              </p>
            )}
            {skill.toolSpecs.length === 0 && (
              <p className="text-xs text-slate-500">This skill has no tools.json tools.</p>
            )}
            {skill.toolSpecs.some((spec) => !registeredTools.includes(spec.name)) && (
              <div
                className="rounded border border-violet-300 bg-violet-50 p-1.5 text-xs"
                data-testid="skill-tools-unregistered"
              >
                Its tools are not registered yet: only <span className="font-mono">{LOAD_SKILL}</span>{" "}
                installs them.{" "}
                <Button
                  small
                  testId="skill-load-now"
                  onClick={() => onRunTool(LOAD_SKILL, { name: skill.name })}
                >
                  Run {LOAD_SKILL}({skill.name}) now
                </Button>
              </div>
            )}
            {skill.toolSpecs.map((spec) => (
              <div
                key={spec.name}
                className="rounded border border-slate-200 p-1.5"
                data-testid={`tool-spec-${spec.name}`}
              >
                <div className="font-mono text-sm font-semibold">{spec.name}</div>
                <p className="text-xs">{spec.description}</p>
                <p className="font-mono text-xs text-slate-600">
                  command: {JSON.stringify(spec.command)}
                  {spec.timeout_ms !== undefined && ` · timeout ${spec.timeout_ms} ms`}
                </p>
                <details>
                  <summary className="cursor-pointer text-xs">input schema</summary>
                  <Pre text={formatJson(spec.input_schema)} />
                </details>
                <ToolConsole
                  tool={spec.name}
                  schema={spec.input_schema}
                  results={consoleResults.filter((result) => result.tool === spec.name)}
                  onRun={(input) => onRunTool(spec.name, input)}
                />
              </div>
            ))}
          </div>
        )}
      </div>
    </div>
  );
}
