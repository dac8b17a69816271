// The five panes of one model request (Stable system, Environment, Messages, Tools, Raw), each with its
// token count, a copy button and what changed since the request before it.
"use client";
import type { RequestDiff } from "../state/derive.ts";
import { environmentParts, type ResolvedSnapshot } from "../state/snapshot-view.ts";
import { MessageList } from "./message-list.tsx";
import { Badge, CopyButton, Pre, formatJson } from "./ui.tsx";

export type PaneName = "stable" | "environment" | "messages" | "tools" | "raw";
export const paneLabels: Record<PaneName, string> = {
  stable: "Stable system",
  environment: "Environment",
  messages: "Messages",
  tools: "Tools",
  raw: "Raw",
};
/** One line per pane for newcomers (shown as the tab's tooltip). */
export const paneHelp: Record<PaneName, string> = {
  stable:
    "Stable system: the identity, rules and the skills index (names and descriptions only). It stays byte-identical across requests while the catalog does not change. The provider caches it only as part of the prefix tools → stable system, and only when that prefix reaches the model's minimum (4,096 tokens for claude-haiku-4-5): see the Prompt cache strip.",
  environment:
    "Environment: the second system block, rebuilt every request (workdir, date, and the full SOP of every loaded skill). Loading a skill changes this, not the stable system.",
  messages: "Messages: the conversation so far — user turns, assistant turns, tool calls and their results.",
  tools:
    "Tools: the tool definitions the model can call in this request (built-ins, load_skill, and the tools of skills loaded in an earlier run).",
  raw: "Raw: the exact payload sent to the provider, API keys redacted.",
};

export function paneText(snapshot: ResolvedSnapshot, pane: PaneName, payload: unknown): string {
  switch (pane) {
    case "stable":
      return snapshot.system.stable;
    case "environment":
      return snapshot.system.environment;
    case "messages":
      return formatJson(snapshot.messages);
    case "tools":
      return formatJson(snapshot.tools);
    case "raw":
      return payload === undefined ? "" : formatJson(payload);
  }
}

export function RequestPane({
  pane,
  snapshot,
  payload,
  diff,
}: {
  pane: PaneName;
  snapshot: ResolvedSnapshot;
  payload: unknown;
  diff?: RequestDiff;
}) {
  const copy = (
    <CopyButton
      testId={`copy-pane-${pane}`}
      text={() => paneText(snapshot, pane, payload)}
      label={`Copy ${paneLabels[pane]}`}
    />
  );
  return (
    <div className="space-y-1" data-testid={`pane-${pane}`}>
      <div className="flex justify-end">{copy}</div>
      {pane === "stable" && (
        <Pre testId="pane-stable-text" text={snapshot.system.stable} className="max-h-none" />
      )}
      {pane === "environment" && (
        <div className="space-y-1" data-testid="pane-environment-text">
          {environmentParts(snapshot).map((section, index) => {
            const status = !diff
              ? undefined
              : diff.environment.added.includes(section.name)
                ? "new"
                : diff.environment.changed.includes(section.name)
                  ? "changed"
                  : undefined;
            return (
              <div
                key={`${section.name}-${index}`}
                className={`rounded border p-1 ${status ? "border-emerald-400 bg-emerald-50" : "border-slate-200"}`}
                data-testid="env-section"
                data-section={section.name}
                data-status={status ?? "same"}
              >
                <div className="flex items-center gap-1 font-mono text-xs font-semibold">
                  {section.heading}
                  {section.tokens !== undefined && (
                    <span className="font-normal text-slate-500">{section.tokens} tokens</span>
                  )}
                  {status && <Badge tone="green">{status} since previous request</Badge>}
                </div>
                <pre className="font-mono text-xs whitespace-pre-wrap break-words">
                  {section.text.replace(/\n+$/, "")}
                </pre>
              </div>
            );
          })}
          {diff && diff.environment.removed.length > 0 && (
            <p className="text-xs text-red-800">Removed sections: {diff.environment.removed.join(", ")}</p>
          )}
        </div>
      )}
      {pane === "messages" && (
        <MessageList
          messages={snapshot.messages}
          added={diff && !diff.historyRewritten ? diff.addedMessages.length : 0}
          rewritten={diff?.historyRewritten === true}
        />
      )}
      {pane === "tools" && (
        <div className="space-y-1" data-testid="pane-tools-list">
          {snapshot.tools.map((tool) => (
            <details
              key={tool.name}
              className={`rounded border p-1 ${diff?.toolsAdded.includes(tool.name) ? "border-emerald-400 bg-emerald-50" : "border-slate-200"}`}
              data-testid={`pane-tool-${tool.name}`}
            >
              <summary className="cursor-pointer text-xs">
                <span className="font-mono font-semibold">{tool.name}</span> <Badge>{tool.origin}</Badge>{" "}
                {tool.mcpServer && (
                  <Badge
                    tone="violet"
                    testId="tool-origin-mcp"
                    title={`A tool of the MCP server ${tool.mcpServer}`}
                  >
                    MCP: {tool.mcpServer}
                  </Badge>
                )}{" "}
                <Badge tone={tool.safety === "read_only" ? "green" : "amber"}>{tool.safety}</Badge>
                {tool.skill && <span className="text-slate-500"> from {tool.skill}</span>}
                {diff?.toolsAdded.includes(tool.name) && <Badge tone="green">added</Badge>}
              </summary>
              <p className="text-xs">{tool.description}</p>
              <Pre text={formatJson(tool.inputSchema)} />
            </details>
          ))}
          {diff && diff.toolsRemoved.length > 0 && (
            <p className="text-xs text-red-800">
              Removed since previous request: {diff.toolsRemoved.join(", ")}
            </p>
          )}
          {snapshot.registeredNotVisible.length > 0 && (
            <p
              className="rounded border border-violet-300 bg-violet-50 p-1 text-xs"
              data-testid="pane-tools-not-visible"
            >
              Registered, not visible to the model yet:{" "}
              <span className="font-mono">{snapshot.registeredNotVisible.join(", ")}</span> (the run keeps the
              tool definitions it started with; the next run will see them).
            </p>
          )}
        </div>
      )}
      {pane === "raw" &&
        (payload === undefined ? (
          <p className="text-xs text-slate-500" data-testid="pane-raw-empty">
            The provider has not reported its payload for this request (the scripted and manual providers may
            not send one).
          </p>
        ) : (
          <Pre testId="pane-raw-text" text={formatJson(payload)} className="max-h-none" />
        ))}
    </div>
  );
}
