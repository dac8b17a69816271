// Why a segment of a request could not be read because of what changed since the request before it, in
// words: the cache strip's cause. Worded from the request's one divergence (./predicted-diagnostics.ts
// findDivergence), the same one its prediction carries as `diagnostics` (the Diagnostics row), so the
// strip and the row name the same change against the same request. Pure.
import type { PromptSegment } from "../protocol/runner-events.ts";
import { divergedKind, type ComparedRequest, type Divergence } from "./predicted-diagnostics.ts";

/** Where a tool that became visible was registered (the run and request that loaded its skill). */
export interface ToolOrigin {
  requestIndex: number;
  run: number;
}

function listNames(names: string[]): string {
  return names.length <= 3
    ? names.join(", ")
    : `${names.slice(0, 3).join(", ")} and ${names.length - 3} more`;
}

/**
 * The reason of every segment from the divergence on. `sameModelBefore`: whether an earlier request of
 * this request's model was seen (after a change of model, whether anything of it can be cached).
 */
export function missReason(
  divergence: Divergence,
  baseline: ComparedRequest | undefined,
  current: ComparedRequest,
  registeredIn: ReadonlyMap<string, ToolOrigin>,
  sameModelBefore: boolean,
): string {
  const { diagnostics, index } = divergence;
  if (!baseline) return "first request: nothing cached yet";
  const since = `request #${baseline.requestIndex}`;
  if (diagnostics.type === "model_changed") {
    return sameModelBefore
      ? `model changed from ${baseline.model} since ${since}: caches are per model`
      : `model changed from ${baseline.model}: caches are per model, nothing of ${current.model} cached yet`;
  }
  if (diagnostics.type === null) return `new since ${since}`;
  const before = baseline.segments;
  const now = current.segments;
  const tail = ", so everything after it is re-sent";
  const kind = divergedKind(before[index], now[index]);
  if (kind === "tool") {
    const parts: string[] = [];
    if (diagnostics.toolsAdded.length > 0) {
      const origin = diagnostics.toolsAdded
        .map((name) => registeredIn.get(name))
        .find((info) => info !== undefined);
      parts.push(
        `${listNames(diagnostics.toolsAdded)} became visible${origin ? ` (registered in run ${origin.run}, request #${origin.requestIndex})` : ""}`,
      );
    }
    if (diagnostics.toolsRemoved.length > 0)
      parts.push(`${listNames(diagnostics.toolsRemoved)} no longer visible`);
    if (parts.length === 0) parts.push(`the definition of ${(now[index] ?? before[index]).name} changed`);
    return `tools changed: ${parts.join("; ")}${tail}`;
  }
  if (kind === "system") {
    return `stable system changed since ${since} (skills index or disclosure)${tail}`;
  }
  if (kind === "environment") {
    const sections = (segments: readonly PromptSegment[]) =>
      new Map(segments.filter((s) => s.kind === "environment").map((s) => [s.name, s.hash]));
    const was = sections(before);
    const is = sections(now);
    const added = [...is.keys()].filter((name) => !was.has(name));
    const changed = [...is.keys()].filter((name) => was.has(name) && was.get(name) !== is.get(name));
    const what =
      added.length > 0
        ? `${listNames(added)} SOP added`
        : changed.includes("base")
          ? "its facts changed (date, model or working directory)"
          : changed.length > 0
            ? `${listNames(changed)} SOP changed`
            : "a section was removed";
    return `environment changed: ${what}, so every message after it is re-sent`;
  }
  if (index >= now.length) return `conversation shorter than ${since}`;
  return `conversation differs from ${since} at message ${now[index].name}${tail}`;
}
