// A skill's detail view: how it may be invoked, its allowed-tools mapped onto this playground's tools,
// its lint notes, frontmatter, rendered SOP and raw text, tools.json specs with their schemas, the token
// cost of listing it vs loading it (the server's counts of the very segments the inspector shows:
// skill_figures), and a console to run each of its tools by hand.
"use client";
import { DescriptionHints, descriptionHints } from "./description-hints.tsx";
import { useEffect, useState } from "react";
import type { LOAD_SKILL_TOOL_NAME, LintNote, SkillFigures, SkillView } from "../../server/protocol/index.ts";
import { SafeMarkdown } from "../lib/markdown.tsx";
import type { ConsoleResult } from "../state/types.ts";
import { sourceTone } from "./catalog-panel.tsx";
import { LintNoteLine } from "./catalog-sections.tsx";
import { SkillAllowedTools } from "./skill-allowed-tools.tsx";
import { TabList, TabPanel, useTabIds } from "./tabs.tsx";
import { ToolConsole } from "./tool-console.tsx";
import { Badge, Button, Pre, formatJson } from "./ui.tsx";

/** The pages import protocol types only: the name is checked against the server's constant by type. */
const LOAD_SKILL: typeof LOAD_SKILL_TOOL_NAME = "load_skill";

type Tab = "sop" | "raw" | "tools";

export function SkillDetail({
  skill,
  figures,
  onNeedFigures,
  consoleResults,
  registeredTools,
  lint = [],
  honourAllowedTools = false,
  mcpSkillGrants = [],
  onGrantAllowedTools,
  onRunTool,
  onClose,
}: {
  skill: SkillView;
  /** What listing and loading it cost, counted on the server (absent until it answers). */
  figures?: SkillFigures;
  /** Asks the server for the figures: when the view opens and whenever the skill's text changes. */
  onNeedFigures: (name: string) => void;
  consoleResults: ConsoleResult[];
  /** Tools in the session's Registry: a skill's tools.json tools arrive there only through load_skill. */
  registeredTools: string[];
  /** The catalog's lint notes about this skill. */
  lint?: LintNote[];
  /** The session's "honour allowed-tools" setting. */
  honourAllowedTools?: boolean;
  /** Consent keys of the MCP skills whose allowed-tools the person granted (session setting). */
  mcpSkillGrants?: readonly string[];
  onGrantAllowedTools?: (key: string, granted: boolean) => void;
  onRunTool: (tool: string, input: unknown) => void;
  onClose: () => void;
}) {
  const [tab, setTab] = useState<Tab>("sop");
  const tabIds = useTabIds();
  useEffect(() => onNeedFigures(skill.name), [skill.name, skill.description, skill.body, onNeedFigures]);
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
          <Badge tone={sourceTone(skill.source)} testId="skill-detail-source">
            {skill.source}
          </Badge>
        </div>
        <Button small testId="skill-detail-close" onClick={onClose}>
          Back to catalog
        </Button>
      </div>
      <div className="min-h-0 flex-1 space-y-2 overflow-y-auto p-2">
        <p className="font-mono text-xs break-all text-slate-500">{skill.entryPath}</p>
        {skill.mcp && <McpOrigin origin={skill.mcp} />}
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
        <DescriptionHints notes={descriptionHints(lint, skill.name)} testId="skill-detail-hints" />
        <SkillAllowedTools
          skill={skill}
          honoured={honourAllowedTools}
          {...(skill.mcp
            ? {
                mcpGrant: {
                  granted: mcpSkillGrants.includes(mcpGrantKey(skill)),
                  onChange: (granted: boolean) => onGrantAllowedTools?.(mcpGrantKey(skill), granted),
                },
              }
            : {})}
        />
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
          <SkillCost figures={figures} />
        </div>
        <details>
          <summary className="cursor-pointer text-xs font-semibold">Frontmatter</summary>
          <Pre testId="skill-frontmatter" text={formatJson(frontmatter)} />
        </details>
        <TabList
          ids={tabIds}
          className="flex gap-1"
          label={`Skill ${skill.name}`}
          selected={tab}
          onSelect={setTab}
          tabs={(["sop", "raw", "tools"] as Tab[]).map((name) => ({
            id: name,
            testId: `skill-tab-${name}`,
            label:
              name === "sop"
                ? "SOP (rendered)"
                : name === "raw"
                  ? "Raw SKILL.md"
                  : `Tools (${skill.toolSpecs.length})`,
          }))}
          tabClassName={(isSelected) =>
            `rounded-t border-b-2 px-2 py-0.5 text-xs ${isSelected ? "border-blue-600 font-semibold" : "border-transparent text-slate-600"}`
          }
        />
        <TabPanel ids={tabIds} selected={tab}>
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
        </TabPanel>
      </div>
    </div>
  );
}

/** "Listing it costs N tokens in every request; loading it adds M": the server's counts, with their source. */
function SkillCost({ figures }: { figures?: SkillFigures }) {
  const shown = (value: number | undefined, testId: string) => (
    <strong data-testid={testId}>{figures ? (value?.toLocaleString("en-US") ?? "—") : "…"}</strong>
  );
  return (
    <>
      <div>
        {figures && figures.indexTokens === undefined ? (
          <>It is not in the skills index of this session (eager mode or a listing budget). </>
        ) : (
          <>
            Listing it costs {shown(figures?.indexTokens, "skill-listing-tokens")} tokens in every
            request;{" "}
          </>
        )}
        {figures?.loadError ? (
          <span data-testid="skill-load-error">it cannot be loaded: {figures.loadError}</span>
        ) : (
          <>
            loading it adds {shown(figures?.loadTokens, "skill-body-tokens")} tokens to the environment (its
            SOP, base directory and file list, without arguments).
          </>
        )}
      </div>
      <div className="text-slate-500">
        {figures?.tokenizer ?? "o200k_base"}, counted on the server: the figures the inspector shows for its
        index line and its environment section
      </div>
    </>
  );
}

/** Where an MCP server's skill comes from, what loading it will fetch, and why its name is qualified. */
function McpOrigin({ origin }: { origin: NonNullable<SkillView["mcp"]> }) {
  const bytes = origin.files?.reduce((sum, file) => sum + file.size, 0);
  return (
    <div
      className="space-y-0.5 rounded border border-amber-200 bg-amber-50 p-1.5 text-xs"
      data-testid="skill-mcp-origin"
    >
      <p>
        Served by MCP server <span className="font-mono">{origin.server}</span> at{" "}
        <span className="font-mono break-all">{origin.uri}</span>. Nothing is fetched until it is loaded;
        loading it asks first, and each file is checked against its listed digest when it is read.
      </p>
      {origin.files ? (
        <p data-testid="skill-mcp-files">
          {origin.files.length} files, {bytes} bytes: {origin.files.map((file) => file.path).join(", ")}
        </p>
      ) : (
        <p data-testid="skill-mcp-files">
          Files: &quot;dynamic&quot; (generated by the server; nothing can be verified)
        </p>
      )}
      {origin.qualifiedBecause && (
        <p data-testid="skill-mcp-qualified">
          Listed as <span className="font-mono">{origin.server}/…</span> because {origin.qualifiedBecause}.
        </p>
      )}
    </div>
  );
}

/** The key a grant of an MCP skill's allowed-tools is bound to: its source, URI and file set. */
function mcpGrantKey(skill: SkillView): string {
  return `${skill.source} ${skill.mcp!.uri} ${skill.mcp!.contentKey}`;
}
