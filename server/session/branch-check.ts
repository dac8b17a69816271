// A branch is exact (issue 22 item 3): its first request must have the origin request's segments, hash by
// hash, except the ones its edits name. Whatever the branch cannot reproduce (a skill's SOP or the catalog
// changed on disk since, an MCP server is down, the playground was upgraded) is found here by comparing
// the two requests segment by segment, and said on the branch with a reason, never left to differ
// silently. Pure: the origin's request as logged, the branch's as the Runner built it.
import type { BranchCheck, BranchDifference, RequestEdit } from "../protocol/branch.ts";
import type { ChatMessage } from "../protocol/model.ts";
import type { PromptSegment, RequestSnapshot } from "../protocol/runner-events.ts";
import type { TokenCounter } from "../prompt/segments.ts";

type Request = RequestSnapshot & { messages: ChatMessage[] };
type Kind = BranchDifference["kind"];

const key = (kind: Kind, name: string) => `${kind}:${name}`;

/** The segment an edit changes (a skill description edit re-renders the stable system). */
function editedKey(edit: RequestEdit): string {
  switch (edit.kind) {
    case "stable":
    case "skill_description":
      return key("system", "stable");
    case "environment":
      return key("environment", edit.section);
    case "message":
      return key("message", String(edit.index));
    case "tool":
      return key("tool", edit.name);
  }
}

const LABELS: Record<Kind, string> = {
  system: "stable system",
  environment: "environment",
  message: "message",
  tool: "tool",
};

/**
 * A request's segments by kind and name. One logged without segment hashes (an older log) gets its
 * tools, stable system and messages hashed here, and its environment as one part named "environment".
 */
function segmentsOf(
  request: Request,
  tokens: TokenCounter,
): { segments: PromptSegment[]; sectioned: boolean } {
  const logged = request.segments?.filter((segment) => segment.kind !== "message");
  const messages = tokens.messageSegments(request.messages);
  if (logged && logged.some((segment) => segment.kind === "environment"))
    return { segments: [...logged, ...messages], sectioned: true };
  const environment: PromptSegment = {
    kind: "environment",
    name: "environment",
    ...tokens.textFigures(request.system.environment),
  };
  return {
    segments: [
      ...tokens.toolSegments(request.tools),
      tokens.stableSegment(request.system.stable),
      environment,
      ...messages,
    ],
    sectioned: false,
  };
}

/** A section's text, cut from the environment at the lengths its segments give ("environment": all of it). */
function sectionText(request: Request, name: string): string {
  if (name === "environment") return request.system.environment;
  const sections = request.segments?.filter((segment) => segment.kind === "environment") ?? [];
  let offset = 0;
  for (const segment of sections) {
    if (segment.name === name) return request.system.environment.slice(offset, offset + (segment.chars ?? 0));
    offset += segment.chars ?? 0;
  }
  return "";
}

/** The lines of a section that differ, "before → after" (what the environment's facts are now). */
function lineChanges(origin: Request, branch: Request, name: string): string {
  const before = sectionText(origin, name).split("\n");
  const after = sectionText(branch, name).split("\n");
  const changed: string[] = [];
  for (let line = 0; line < Math.max(before.length, after.length) && changed.length < 3; line += 1)
    if (before[line] !== after[line])
      changed.push(`"${before[line] ?? "(no line)"}" → "${after[line] ?? "(no line)"}"`);
  return changed.join("; ");
}

function reasonFor(kind: Kind, name: string, origin: Request, branch: Request, presence: string): string {
  const at = `request #${origin.requestIndex}`;
  if (presence === "missing") {
    if (kind === "tool")
      return `tool ${name} was in ${at} but is not registered now (its MCP server is not connected, or its skill no longer loads)`;
    if (kind === "environment")
      return `skill ${name} was active in ${at} but could not be activated again (see the branch's errors)`;
    return `not in the branch's first request`;
  }
  if (presence === "added") {
    if (kind === "tool") return `tool ${name} is new since ${at} (a server or skill registered it)`;
    return `not in ${at}`;
  }
  if (kind === "system") {
    const added = branch.listedSkills.filter((skill) => !origin.listedSkills.includes(skill));
    const removed = origin.listedSkills.filter((skill) => !branch.listedSkills.includes(skill));
    const names = [
      ...(added.length ? [`added ${added.join(", ")}`] : []),
      ...(removed.length ? [`removed ${removed.join(", ")}`] : []),
    ];
    return names.length
      ? `the skills index changed since ${at}: ${names.join("; ")}`
      : `the stable system changed since ${at}: a skill's description or the base instructions are not what they were`;
  }
  if (kind === "tool")
    return `the definition of tool ${name} changed since ${at} (its server or skill now describes it differently)`;
  if (kind === "message") return `message ${name} is not the one logged for ${at}`;
  if (name === "base" || name === "environment") {
    const facts = lineChanges(origin, branch, name);
    return `the environment's facts differ from ${at}${facts ? `: ${facts}` : ""}`;
  }
  // Logged by a version that ended each skill block but the last with a blank line: the SOP is the same.
  if (sectionText(origin, name).replace(/\n+$/, "") === sectionText(branch, name).replace(/\n+$/, ""))
    return `the same SOP as in ${at}; the log's copy was rendered by an older version, with a blank line after its block`;
  return `the SOP of skill ${name} changed since ${at} (its SKILL.md or its files on disk)`;
}

/** The base section of the origin's request with its provider and model lines as the branch's: the same bytes? */
function switchedBaseMatches(origin: Request, branch: Request, tokens: TokenCounter): boolean {
  const expected = sectionText(origin, "base")
    .replace(`\n- Provider: ${origin.provider}\n`, `\n- Provider: ${branch.provider}\n`)
    .replace(`\n- Model: ${origin.model}\n`, `\n- Model: ${branch.model}\n`);
  const base = branch.segments?.find((segment) => segment.kind === "environment" && segment.name === "base");
  return base !== undefined && tokens.textFigures(expected).hash === base.hash;
}

/** The branch's first request against the origin's request, segment by segment. */
export function checkBranchRequest(input: {
  origin: Request;
  branch: Request;
  /** The edits of this fork (not those inherited from a branch's own origin: both requests have them). */
  edits: readonly RequestEdit[];
  pinnedDate?: string;
  /** The session's token counter (segments the log did not hash are hashed here). */
  tokens: TokenCounter;
}): BranchCheck {
  const { origin, branch, tokens } = input;
  const before = segmentsOf(origin, tokens);
  // A request of an older log has its environment as one part: the branch's is compared the same way.
  const after = before.sectioned
    ? segmentsOf(branch, tokens)
    : segmentsOf({ ...branch, segments: undefined }, tokens);
  const edited = new Set(input.edits.map(editedKey));
  // Another provider or model, picked in Edit & resend, is named by the environment's facts: the base
  // section is then expected to differ by exactly those two lines, and the change is listed as an edit.
  const switched = origin.provider !== branch.provider || origin.model !== branch.model;
  if (switched && before.sectioned && switchedBaseMatches(origin, branch, tokens))
    edited.add(key("environment", "base"));
  const originByKey = new Map(before.segments.map((segment) => [key(segment.kind, segment.name), segment]));
  const branchByKey = new Map(after.segments.map((segment) => [key(segment.kind, segment.name), segment]));
  const differences: BranchDifference[] = [];
  const differ = (segment: PromptSegment, presence: string) => {
    if (edited.has(key(segment.kind, segment.name))) return;
    differences.push({
      kind: segment.kind,
      name: segment.name,
      reason: reasonFor(segment.kind, segment.name, origin, branch, presence),
    });
  };
  for (const [name, segment] of originByKey) {
    const now = branchByKey.get(name);
    if (!now) differ(segment, "missing");
    else if (now.hash !== segment.hash) differ(segment, "changed");
  }
  for (const [name, segment] of branchByKey) if (!originByKey.has(name)) differ(segment, "added");
  // The same tools in another order are another prefix for the prompt cache.
  const order = (segments: PromptSegment[]) =>
    segments
      .filter(
        (segment) =>
          segment.kind === "tool" &&
          originByKey.has(key("tool", segment.name)) &&
          branchByKey.has(key("tool", segment.name)),
      )
      .map((segment) => segment.name);
  if (order(before.segments).join("\n") !== order(after.segments).join("\n"))
    differences.push({
      kind: "tool",
      name: "(order)",
      reason: `the tool definitions are in another order than in request #${origin.requestIndex}`,
    });
  const editedLabels = [...edited].map((entry) => {
    if (
      entry === key("environment", "base") &&
      switched &&
      !input.edits.some((edit) => editedKey(edit) === entry)
    )
      return `provider and model (${branch.provider}/${branch.model})`;
    const [kind, ...rest] = entry.split(":");
    const name = rest.join(":");
    return kind === "system" ? LABELS.system : `${LABELS[kind as Kind]} ${name}`;
  });
  return {
    requestIndex: branch.requestIndex,
    originRequestIndex: origin.requestIndex,
    exact: differences.length === 0,
    edited: editedLabels,
    differences,
    compared: before.segments.length,
    ...(input.pinnedDate ? { pinnedDate: input.pinnedDate } : {}),
  };
}
