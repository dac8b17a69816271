// Right column: the timeline of model requests and, for the selected one, the stable-hash badge, token
// counts (the server's, with the tokenizer it names, plus the provider's usage), where the tokens went, the
// progressive-disclosure lane, eager vs progressive, the diff against the previous request and the panes.
"use client";
import { memo, useEffect, useMemo, useRef, useState } from "react";
import { requestCost, runCost, totalCost, type CostInput } from "../lib/cache-cost.ts";
import { contextBreakdown } from "../lib/context-breakdown.ts";
import { usageText } from "../lib/usage-text.ts";
import { compareStable, diffRequests } from "../state/derive.ts";
import { requestCache, requestPayload, requestSnapshot, tokenFigures } from "../state/snapshot-view.ts";
import type { RequestView } from "../state/types.ts";
import type { CacheStats } from "../../server/protocol/index.ts";
import type { SkillResourceView } from "../state/skill-resources.ts";
import { CacheStrip } from "./cache-strip.tsx";
import { useKeptSelection } from "./kept-selection.ts";
import { CacheStatsHeader } from "./cache-report.tsx";
import { ContextView } from "./context-view.tsx";
import { LineDiffView, Loading } from "./lazy.tsx";
import { RequestPane, paneHelp, paneLabels, paneText, type PaneName } from "./request-panes.tsx";
import { RoutingView } from "./routing-view.tsx";
import { SkillResourcesLane } from "./skill-resources-lane.tsx";
import { TabList, TabPanel, useTabIds } from "./tabs.tsx";
import { Badge, Button, CopyButton } from "./ui.tsx";

// Dotted underline: "hover me for what this means".
const laneHeading = "w-fit cursor-help font-semibold underline decoration-slate-400 decoration-dotted";
/** One line per lane of the progressive-disclosure lane, for newcomers (tooltips). */
export const laneHelp = {
  listed: "Listed: skills whose name and description are in the stable system's index. The body is not sent.",
  active:
    "Loaded (active): skills the model loaded with load_skill; their full SOP is in this request's Environment pane.",
  notVisible:
    "Registered, not visible: tools of a skill loaded during this run. They exist on the server, but the model only sees them in the Tools pane from the next run, so the tool list stays stable within a run.",
};
const stableHelp =
  "A hash of the stable system block. It stays the same while the catalog and the disclosure mode do not change: loading a skill changes the Environment, not this block. That alone does not make a cache hit: the provider caches the prefix tools → stable system, so a tool that becomes visible (a skill's tool in the next run) changes the prefix before it, and a prefix below the model's minimum is never cached. The Prompt cache strip says what is read.";

const barColors = {
  stable: "bg-slate-500",
  environment: "bg-amber-500",
  messages: "bg-blue-500",
  tools: "bg-violet-500",
} as const;
type Part = keyof typeof barColors;

/** What the cost figures read of a request: its provider, usage and cache prediction (read from its blob). */
function costInput(request: RequestView): CostInput {
  const cache = requestCache(request);
  return {
    runId: request.runId,
    snapshot: { provider: request.snapshot.provider, ...(cache ? { cache } : {}) },
    ...(request.usage ? { usage: request.usage } : {}),
  };
}

function clip(text: string, length = 90): string {
  return text.length > length ? `${text.slice(0, length)}…` : text;
}

/** One timeline button; memoised, so selecting a request re-renders two entries, not five hundred. */
const TimelineEntry = memo(function TimelineEntry({
  request,
  previous,
  first,
  selected,
  onSelect,
  onShowTurn,
}: {
  request: RequestView;
  previous?: RequestView;
  first: boolean;
  selected: boolean;
  onSelect: (index: number) => void;
  onShowTurn: (index: number) => void;
}) {
  const newRun = !previous || previous.runId !== request.runId;
  // Marks the requests where a skill body entered the environment.
  const newlyActive = request.snapshot.activeSkills.filter(
    (name) => !previous?.snapshot.activeSkills.includes(name),
  ).length;
  return (
    <li className="shrink-0 snap-start">
      <button
        type="button"
        data-testid={`timeline-request-${request.requestIndex}`}
        aria-pressed={selected}
        onClick={() => onSelect(request.requestIndex)}
        onDoubleClick={() => onShowTurn(request.requestIndex)}
        title={`run ${request.runId}, iteration ${request.snapshot.iteration}; active skills: ${request.snapshot.activeSkills.join(", ") || "none"}${newlyActive ? ` (+${newlyActive} new)` : ""}. Double-click to show its chat turn.`}
        className={`rounded border px-1.5 py-0.5 text-xs ${selected ? "border-blue-600 bg-blue-600 text-white" : "border-slate-300 bg-white hover:bg-slate-50"} ${newRun && !first ? "ml-2" : ""}`}
      >
        #{request.requestIndex}
        {newlyActive > 0 && <sup className="ml-px font-semibold">+{newlyActive}</sup>}
      </button>
    </li>
  );
});

function Timeline({
  requests,
  selected,
  onSelect,
  onShowTurn,
}: {
  requests: RequestView[];
  selected?: number;
  onSelect: (index: number) => void;
  onShowTurn: (index: number) => void;
}) {
  // The selected entry stays in sight in the three rows the timeline shows (the newest, on open, is at the
  // bottom of a long session's list): the list alone scrolls, never the panel around it.
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    const box = list.current;
    const entry = box?.querySelector<HTMLElement>('button[aria-pressed="true"]');
    if (!box || !entry) return;
    const shown = box.getBoundingClientRect();
    const at = entry.getBoundingClientRect();
    if (at.top < shown.top) box.scrollTop -= shown.top - at.top;
    else if (at.bottom > shown.bottom) box.scrollTop += at.bottom - shown.bottom;
  }, [selected, requests.length]);
  return (
    <ol
      ref={list}
      className="flex max-h-[4.2rem] snap-y snap-mandatory flex-wrap gap-1 overflow-y-auto"
      data-testid="inspector-timeline"
    >
      {requests.map((request, position) => (
        <TimelineEntry
          key={request.requestIndex}
          request={request}
          previous={requests[position - 1]}
          first={position === 0}
          selected={selected === request.requestIndex}
          onSelect={onSelect}
          onShowTurn={onShowTurn}
        />
      ))}
      {requests.length > 1 && (
        <li className="self-center text-[0.65rem] text-slate-500">
          +n: skills loaded before it · gap: new run
        </li>
      )}
    </ol>
  );
}

export function InspectorPanel({
  requests,
  sessionId,
  replayed = true,
  selectedIndex,
  onSelect,
  onShowTurn,
  skillResources = [],
  onEditResend,
  onRerun,
  onCompare,
  cacheStats,
}: {
  requests: RequestView[];
  /** The session shown: its selected request is kept for a reload of the tab (./kept-selection.ts). */
  sessionId?: string;
  /** Whether the session's replay has arrived in full (a kept request it lacks will not come). */
  replayed?: boolean;
  /** The session's cache figures after its last run (cache_stats). */
  cacheStats?: CacheStats;
  selectedIndex?: number;
  onSelect: (index: number) => void;
  onShowTurn: (index: number) => void;
  /** Level 3: the loaded skills' files and reads (app/state/skill-resources.ts). */
  skillResources?: SkillResourceView[];
  /** Edit & resend / Rerun from here of the selected request; Compare two runs (issue 14). */
  onEditResend?: (index: number) => void;
  onRerun?: (index: number) => void;
  onCompare?: () => void;
}) {
  const [pane, setPane] = useState<PaneName>("environment");
  const scroller = useRef<HTMLDivElement>(null);
  const summaryArea = useRef<HTMLDivElement>(null);
  const [lineDiffOn, setLineDiffOn] = useState(false);
  const paneIds = useTabIds();
  const shownIndex = useKeptSelection(sessionId, requests, selectedIndex, replayed, onSelect);
  // Every request's cost inputs (its cache prediction read from the blobs), once per list of requests:
  // not again, twice, on each selection of a 500-request session.
  const costs = useMemo(() => requests.map(costInput), [requests]);
  const selected =
    requests.find((request) => request.requestIndex === shownIndex) ?? requests[requests.length - 1];
  const position = selected ? requests.indexOf(selected) : -1;
  const previous = position > 0 ? requests[position - 1] : undefined;
  // The selected request in full (resolved from the session's blobs only for the one shown).
  const snapshot = selected && requestSnapshot(selected);
  const payload = selected && requestPayload(selected);
  // The server counted every segment once; a snapshot from an older log has no figures.
  const counts = snapshot ? tokenFigures(snapshot) : undefined;
  const unknown = "—";
  if (!selected || !snapshot) {
    return (
      <div className="p-2 text-sm text-slate-500" data-testid="inspector-panel">
        <h2 className="mb-1 font-semibold text-slate-800">Prompt inspector</h2>
        No model request yet. Send a message: every request the model receives appears here, pane by pane.
      </div>
    );
  }
  const diff = previous ? diffRequests(requestSnapshot(previous), snapshot) : undefined;
  const stable = compareStable(requests, selected);
  const parts: Part[] = ["stable", "environment", "messages", "tools"];
  const total = counts ? counts.total : 0;
  const usage = selected.usage;

  // One scroller for the whole column: the summary at its full height (no box inside a box), then the pane
  // tabs, which stick to the column's bottom edge while the summary fills the view and to its top edge once
  // the pane is scrolled into view; so they are always on screen. Choosing a pane brings it into view.
  const openPane = (name: PaneName) => {
    setPane(name);
    const column = scroller.current;
    const summary = summaryArea.current;
    if (column && summary && column.scrollTop < summary.offsetHeight) column.scrollTop = summary.offsetHeight;
  };
  return (
    <div ref={scroller} className="h-full overflow-y-auto" data-testid="inspector-panel">
      <div ref={summaryArea} className="space-y-1.5 p-2" data-testid="inspector-summary-area">
        <div className="flex items-center justify-between">
          <h2 className="text-sm font-semibold">Prompt inspector</h2>
          <CopyButton
            testId="copy-request-json"
            label="Copy request as JSON"
            text={() => JSON.stringify({ ...snapshot, providerPayload: payload, usage }, null, 2)}
          />
        </div>
        <CacheStatsHeader {...(cacheStats ? { stats: cacheStats } : {})} shown={requests.length} />
        <Timeline
          requests={requests}
          selected={selected.requestIndex}
          onSelect={onSelect}
          onShowTurn={onShowTurn}
        />
        <div className="flex flex-wrap items-center gap-1 text-xs" data-testid="inspector-summary">
          <strong data-testid="inspector-selected">Request #{selected.requestIndex}</strong>
          <span className="text-slate-500">
            run {selected.runId.slice(0, 8)} · iteration {snapshot.iteration} · {snapshot.provider}/
            {snapshot.model} · {snapshot.disclosure}
          </span>
          <button
            type="button"
            className="text-blue-800 underline"
            data-testid="inspector-show-turn"
            onClick={() => onShowTurn(selected.requestIndex)}
          >
            show chat turn
          </button>
        </div>
        {(onEditResend || onRerun || onCompare) && (
          <div className="flex flex-wrap gap-1" data-testid="inspector-experiments">
            {onEditResend && (
              <Button
                small
                testId="inspector-edit-resend"
                onClick={() => onEditResend(selected.requestIndex)}
              >
                Edit &amp; resend
              </Button>
            )}
            {onRerun && (
              <Button small testId="inspector-rerun" onClick={() => onRerun(selected.requestIndex)}>
                Rerun from here
              </Button>
            )}
            {onCompare && (
              <Button small testId="inspector-compare" onClick={onCompare}>
                Compare runs
              </Button>
            )}
          </div>
        )}
        <div className="flex flex-wrap items-center gap-1 text-xs" data-testid="stable-hash">
          <span>stable system</span>
          <code
            className="rounded bg-slate-100 px-1"
            data-testid="stable-hash-value"
            title={snapshot.stableHash}
          >
            {snapshot.stableHash.slice(0, 12)}
          </code>
          {stable.firstIndex === selected.requestIndex ? (
            <Badge tone="slate" testId="stable-baseline" title={stableHelp}>
              first request: the baseline
            </Badge>
          ) : stable.unchangedSinceFirst ? (
            <Badge tone="green" testId="stable-unchanged" title={stableHelp}>
              unchanged since request #{stable.firstIndex}
            </Badge>
          ) : (
            <Badge tone="red" testId="stable-changed" title={stableHelp}>
              changed since request #{stable.firstIndex}
            </Badge>
          )}
        </div>
        {stable.firstDifference && (
          <p className="text-xs text-red-800" data-testid="stable-first-difference">
            First difference from #{stable.firstDifference.comparedWith}, line {stable.firstDifference.line}:{" "}
            <code title={stable.firstDifference.before}>{clip(stable.firstDifference.before)}</code> →{" "}
            <code title={stable.firstDifference.after}>{clip(stable.firstDifference.after)}</code>
          </p>
        )}
        {selected.routing && <RoutingView decision={selected.routing} />}
        <div data-testid="token-summary">
          <div
            className="flex h-3 w-full overflow-hidden rounded bg-slate-100"
            data-testid="token-bar"
            aria-label="where the tokens went"
          >
            {counts &&
              total > 0 &&
              parts.map((part) => (
                <div
                  key={part}
                  className={barColors[part]}
                  style={{ width: `${(100 * (counts[part] ?? 0)) / total}%` }}
                  title={`${paneLabels[part]}: ${counts[part]} tokens`}
                />
              ))}
          </div>
          <div className="mt-0.5 flex flex-wrap gap-x-2 text-[0.7rem]">
            {parts.map((part) => (
              <span key={part} data-testid={`tokens-${part}`}>
                <span className={`mr-0.5 inline-block h-2 w-2 rounded-sm ${barColors[part]}`} />
                {paneLabels[part]} {counts ? counts[part] : unknown}
              </span>
            ))}
            <span className="font-semibold" data-testid="tokens-total">
              = {counts ? total : unknown} tokens
            </span>
          </div>
          <div className="text-[0.7rem] text-slate-500" data-testid="tokenizer-name">
            {counts
              ? `counted by the server: ${counts.tokenizer}`
              : "no token figures: this request was logged by an older version"}
            {usage && (
              <span data-testid="provider-usage" className="ml-1 text-slate-800">
                · {usageText(usage)}
              </span>
            )}
          </div>
          <div className="text-[0.7rem]" data-testid="eager-vs-progressive">
            {snapshot.disclosure === "eager" ? (
              <>
                Eager disclosure: every skill body is already inlined in this stable system (
                <strong>{counts ? counts.stable : unknown}</strong> tokens, sent with every request). Switch
                the header to progressive to compare.
              </>
            ) : (
              <>
                Eager vs progressive: the stable system is <strong>{counts ? counts.stable : unknown}</strong>{" "}
                tokens now; with every body inlined it would be{" "}
                <strong data-testid="eager-tokens">{snapshot.eager?.stableTokens ?? unknown}</strong>
                {snapshot.eagerStableLength !== undefined &&
                  ` (${snapshot.eagerStableLength} characters as built by the server)`}
                {snapshot.eager && (
                  <span data-testid="eager-total">
                    , and the whole request {snapshot.eager.totalTokens} tokens instead of {total}
                  </span>
                )}
                .
              </>
            )}
          </div>
        </div>
        <CacheStrip
          cache={snapshot.cache}
          usage={usage}
          {...(selected.cacheCheck ? { check: selected.cacheCheck } : {})}
          provider={snapshot.provider}
          cost={requestCost(costInput(selected))}
          run={runCost(costs, selected.runId)}
          session={totalCost(costs)}
          {...(snapshot.disclosure === "progressive" && snapshot.eager
            ? { eagerTokens: snapshot.eager.totalTokens }
            : {})}
        />
        <ContextView items={contextBreakdown(snapshot)} />
        <div className="grid grid-cols-3 gap-1 text-[0.7rem]" data-testid="disclosure-lane">
          <div>
            <div className={laneHeading} title={laneHelp.listed} data-testid="lane-help-listed">
              Listed ({snapshot.listedSkills.length})
            </div>
            <div
              className="max-h-[4.5em] overflow-y-auto font-mono break-words text-slate-600"
              data-testid="lane-listed"
              // It may scroll: a keyboard user reaches it to scroll it.
              tabIndex={0}
              role="group"
              aria-label="Listed skills"
              title={snapshot.listedSkills.join(", ")}
            >
              {snapshot.listedSkills.join(", ") || "—"}
            </div>
          </div>
          <div>
            <div className={laneHeading} title={laneHelp.active} data-testid="lane-help-active">
              Loaded (active)
            </div>
            <div className="font-mono break-words text-amber-900" data-testid="lane-active">
              {snapshot.activeSkills.join(", ") || "—"}
            </div>
          </div>
          <div>
            <div className={laneHeading} title={laneHelp.notVisible} data-testid="lane-help-not-visible">
              Registered, not visible
            </div>
            <div className="font-mono break-words text-violet-900" data-testid="lane-not-visible">
              {snapshot.registeredNotVisible.join(", ") || "—"}
            </div>
          </div>
        </div>
        <SkillResourcesLane
          skills={skillResources}
          segments={snapshot.segments}
          requestIndex={selected.requestIndex}
          activeSkills={snapshot.activeSkills}
        />
        {diff && (
          <p className="text-[0.7rem] text-slate-700" data-testid="request-diff">
            vs #{previous!.requestIndex}:{" "}
            {diff.historyRewritten
              ? "new conversation history"
              : `+${diff.addedMessages.length} message${diff.addedMessages.length === 1 ? "" : "s"}`}
            {diff.environment.added.length + diff.environment.changed.length > 0 &&
              `; environment ${[...diff.environment.added.map((h) => `+${h}`), ...diff.environment.changed.map((h) => `~${h}`)].join(" ")}`}
            {diff.toolsAdded.length > 0 && `; tools +${diff.toolsAdded.join(", +")}`}
            {diff.toolsRemoved.length > 0 && `; tools −${diff.toolsRemoved.join(", −")}`}
            {diff.stableChanged ? "; stable system CHANGED" : "; stable system identical"}
          </p>
        )}
      </div>
      <TabList
        ids={paneIds}
        className="sticky top-0 bottom-0 z-10 flex flex-wrap gap-x-0.5 border-y border-slate-200 bg-white px-2 pt-1"
        label="Panes of the selected request"
        testId="inspector-pane-tabs"
        selected={pane}
        onSelect={openPane}
        tabs={(Object.keys(paneLabels) as PaneName[]).map((name) => ({
          id: name,
          testId: `pane-tab-${name}`,
          title: paneHelp[name],
          label: (
            <>
              {paneLabels[name]}
              {counts && name !== "raw" && <span className="ml-0.5 text-slate-600">{counts[name]}</span>}
            </>
          ),
        }))}
        tabClassName={(isSelected) =>
          `rounded-t border-b-2 px-1.5 py-0.5 text-xs whitespace-nowrap ${isSelected ? "border-blue-600 font-semibold" : "border-transparent text-slate-600"}`
        }
      />
      <TabPanel ids={paneIds} selected={pane} className="min-h-full p-2">
        {previous && pane !== "raw" && (
          <label className="mb-1 flex items-center gap-1 text-xs">
            <input
              type="checkbox"
              data-testid="pane-line-diff-toggle"
              checked={lineDiffOn}
              onChange={(event) => setLineDiffOn(event.target.checked)}
            />
            line diff against #{previous.requestIndex}
          </label>
        )}
        {lineDiffOn && previous && pane !== "raw" ? (
          <Loading inline>
            <LineDiffView
              testId="pane-line-diff"
              before={paneText(requestSnapshot(previous), pane, requestPayload(previous))}
              after={paneText(snapshot, pane, payload)}
              beforeLabel={`#${previous.requestIndex}`}
              afterLabel={`#${selected.requestIndex}`}
            />
          </Loading>
        ) : (
          <RequestPane pane={pane} snapshot={snapshot} payload={payload} diff={diff} />
        )}
      </TabPanel>
    </div>
  );
}
