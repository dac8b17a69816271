// Readable one-line renderings of Runner events for `cli run` without --json.
import type { RequestSnapshot, RunnerEvent, SnapshotCache } from "../protocol/runner-events.ts";
import type { CacheStats } from "../protocol/cache-report.ts";
import { segmentTokens } from "../prompt/segments.ts";
import { commandWrites, writesLines } from "../shared/command-writes.ts";
import { formatUsd, plural } from "../shared/figures.ts";

function clip(text: string, limit = 300): string {
  const folded = text.replace(/\s+$/g, "");
  return folded.length > limit ? `${folded.slice(0, limit)}… (${folded.length} chars)` : folded;
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => `    ${line}`)
    .join("\n");
}

/** Where the request's tokens go, as the server counted them. */
/** The cache prediction in one line, with the reason of the first segment not read. */
function cacheLine(cache: SnapshotCache): string {
  const { predicted } = cache;
  const missed = cache.segments.find((segment) => segment.status !== "read");
  const cost = cache.costUsd === null ? "no price" : `${formatUsd(cache.costUsd)} input`;
  return (
    `cache (predicted, ${cache.model}): read ${predicted.cacheReadInputTokens}, write ${predicted.cacheCreationInputTokens}, ` +
    `uncached ${predicted.inputTokens}; ${cost}${missed ? ` — ${missed.part}: ${missed.reason}` : ""}`
  );
}

function tokenLine(snapshot: RequestSnapshot): string {
  const segments = snapshot.segments ?? [];
  const part = (kind: "tool" | "system" | "environment" | "message") => segmentTokens(segments, kind);
  const eager = snapshot.eager ? ` (eager would be ${snapshot.eager.totalTokens})` : "";
  return (
    `tokens (${snapshot.tokenizer}): tools ${part("tool")}, stable ${part("system")}, environment ` +
    `${part("environment")}, messages ${part("message")} = ${segmentTokens(segments)}${eager}`
  );
}

/** Text for an event, or undefined for events that are only interesting as JSON. */
export function describeEvent(event: RunnerEvent): string | undefined {
  switch (event.type) {
    case "run_started":
      // A slash invocation's turn is the command plus the whole SOP: show the command line only.
      return `\n▶ run ${event.runId}${event.skill ? ` (skill ${event.skill})` : ""}: ${clip(
        event.skill ? event.userMessage.split("\n", 1)[0] : event.userMessage,
        200,
      )}`;
    case "request": {
      const snapshot = event.snapshot;
      const notVisible = snapshot.registeredNotVisible.length
        ? `; registered, not visible yet: ${snapshot.registeredNotVisible.join(", ")}`
        : "";
      return [
        `→ request #${snapshot.requestIndex} (iteration ${snapshot.iteration}) to ${snapshot.provider}/${snapshot.model}`,
        `  stable system: ${snapshot.system.stable.length} chars, sha256 ${snapshot.stableHash.slice(0, 12)}…` +
          ` (eager would be ${snapshot.eagerStableLength ?? "?"} chars)`,
        `  active skills: ${snapshot.activeSkills.join(", ") || "none"}; environment: ${snapshot.system.environment.length} chars`,
        ...(snapshot.segments ? [`  ${tokenLine(snapshot)}`] : []),
        ...(snapshot.cache ? [`  ${cacheLine(snapshot.cache)}`] : []),
        `  tools: ${snapshot.tools.map((tool) => tool.name).join(", ")}${notVisible}`,
      ].join("\n");
    }
    case "provider_retry":
      return `  ↻ retry ${event.attempt} in ${event.delayMs} ms: ${event.reason}`;
    case "assistant_message":
      return event.message.content ? `◆ assistant: ${event.message.content}` : undefined;
    case "tool_call": {
      const note = !event.known
        ? "  (unknown tool)"
        : !event.visible
          ? "  (registered, not visible to the model)"
          : "";
      return `⚙ ${event.call.name} ${JSON.stringify(event.call.input)}${note}`;
    }
    case "permission_request": {
      const request = event.request;
      const what = request.command
        ? `command: ${request.command}`
        : request.path
          ? `path: ${request.path}`
          : "";
      return (
        `  ? approval needed for ${request.tool} (${request.category}) ${what} cwd: ${request.cwd}` +
        (request.stdin ? ` stdin: ${clip(request.stdin, 200)}` : "")
      );
    }
    case "permission_decision": {
      const trace = event.trace;
      const why = [trace.rule, trace.reason].filter(Boolean).join(" — ");
      const resource = trace.resource ? ` [${trace.resource}]` : "";
      return `  permission: ${trace.decision} (${trace.source}${why ? `: ${why}` : ""})${resource}`;
    }
    case "tool_result": {
      const result = event.result;
      const mark = result.ok ? "✓" : `✗ ${result.errorType ?? "error"}`;
      // What a command wrote, as its tool card and the HTML export say it (server/shared/command-writes.ts).
      const view = commandWrites(result.metadata);
      const writes = view ? writesLines(view) : undefined;
      const written = writes
        ? `\n  ${writes.summary}${writes.why ? ` — ${writes.why}` : ""}${writes.rowsInSummary ? "" : writes.rows.map((row) => `\n    - ${row}`).join("")}`
        : "";
      return `  ${mark} ${result.tool} (${event.durationMs} ms)\n${indent(clip(result.content))}${written}`;
    }
    case "skill_activated":
      return (
        `★ skill activated: ${event.name} [${event.source}] at position ${event.position}` +
        (event.arguments ? ` with arguments ${JSON.stringify(event.arguments)}` : "") +
        (event.resources
          ? `\n  base directory ${event.resources.baseDir} (${plural(event.resources.files.length + event.resources.more, "file")})`
          : "")
      );
    case "skill_resource_read":
      return `  ◆ skill file read: ${event.skill}/${event.path} (${event.bytes} bytes, ${event.tokens} tokens)`;
    case "skill_resource_used":
      return `  ◆ skill file ${event.how === "ran" ? "ran" : "named in a command"}: ${event.skill}/${event.path} (${event.tool})`;
    case "tools_registered":
      return event.tools.length
        ? `  tools registered by ${event.skill}: ${event.tools.join(", ")} (visible to the model from the next run)`
        : undefined;
    case "stop":
      return `■ stop: ${event.reason} after ${event.iterations} iteration(s)${event.message ? ` — ${event.message}` : ""}`;
    case "provider_payload": {
      // A replay of a recorded session says where the request left the recording.
      const divergence = (event.payload as { divergence?: unknown } | null)?.divergence;
      return Array.isArray(divergence) && divergence.length > 0
        ? `  ⚠ replay diverged from the recording at request #${event.requestIndex}:\n${divergence
            .map((line) => `    - ${String(line)}`)
            .join("\n")}`
        : undefined;
    }
    case "usage":
      // The provider's cache diagnostics beside the prediction, when there is something to compare.
      return event.cacheCheck
        ? `  cache diagnostics (request #${event.requestIndex}): ${event.cacheCheck.verdict === "disagree" ? "DISAGREE — " : ""}${event.cacheCheck.text}`
        : undefined;
    case "cache_stats":
      return cacheStatsLine(event.stats);
    case "provider_notice":
      return `  ! ${event.code}: ${event.message}`;
    case "text_delta":
    case "tool_started":
      return undefined;
    case "history_appended":
      // Since log format 2 an assistant message arrives once, here (it names its request).
      return event.message.role === "assistant" && event.requestIndex !== undefined && event.message.content
        ? `◆ assistant: ${event.message.content}`
        : undefined;
  }
}

const percent = (ratio: number | null) => (ratio === null ? "—" : `${Math.round(ratio * 100)} %`);

/** The session's cache figures after a run, in Claude Code's terms (cache-report.ts). */
export function cacheStatsLine(stats: CacheStats): string {
  const cause = stats.last_miss_cause;
  const lastMiss = cause
    ? `; last miss #${cause.request}: ${cause.causes.join("+")} (${cause.source}; tools +${cause.tools_added} −${cause.tools_removed}, system ${cause.system_char_delta >= 0 ? "+" : ""}${cause.system_char_delta} chars)`
    : "";
  const expires = stats.expires_at ? `; expires ${stats.expires_at} (${stats.ttl})` : "";
  return (
    `cache stats (${stats.source === "mixed" ? `${stats.figures.reported} reported, ${stats.figures.predicted} predicted` : stats.source}): ` +
    `hit ${percent(stats.hit_ratio)}, misses ${stats.misses}/${stats.requests}, expected rebuilds ${stats.expected_rebuilds}, ` +
    `disagreements ${stats.disagreements}, recache if cold ${stats.recache_tokens_if_cold ?? "—"}${expires}${lastMiss}`
  );
}
