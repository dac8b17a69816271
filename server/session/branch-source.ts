// Where a branch starts: request #N of its origin session, read back from the origin's log (resolved from
// its references: server/protocol/request-model.ts), the arguments its active skills were loaded with and
// the settings it was sent under, with the message edits applied, and the label the branch is known by.
// Pure functions over logged events.
import { PlaygroundError } from "../errors/index.ts";
import type { BranchKind, RequestEdit } from "../protocol/branch.ts";
import type { ChatMessage } from "../protocol/model.ts";
import type { RequestSnapshot } from "../protocol/runner-events.ts";
import { RequestReader, type ResolvedRequest } from "../protocol/request-model.ts";
import type { SessionEvent, SessionSettings } from "../protocol/wire.ts";

/** An active skill of the origin's request, with the arguments its SOP was rendered with. */
export interface OriginSkill {
  name: string;
  arguments: string;
}

/** Everything request #N depended on besides the code and the files on disk, read back from the log. */
export interface OriginRequest {
  snapshot: ResolvedRequest;
  /** The skills active at the request, in activation order, each with its last load's arguments. */
  activeSkills: OriginSkill[];
  /** The session's settings when the request was sent: the header's, then each settings_changed before it. */
  settings: SessionSettings;
}

/** Request #requestIndex of the logged events, in full, with its skills and settings. */
export function originRequest(
  events: readonly { event: SessionEvent }[],
  requestIndex: number,
  headerSettings: SessionSettings,
): OriginRequest {
  const requests = new RequestReader();
  const argumentsOf = new Map<string, string>();
  let settings = headerSettings;
  for (const { event } of events) {
    requests.observe(event);
    // A log written before arguments were recorded rendered them unknown: "" (the check then says so).
    if (event.type === "skill_activated") argumentsOf.set(event.name, event.arguments ?? "");
    if (event.type === "settings_changed") settings = event.settings;
    if (event.type !== "request" || event.snapshot.requestIndex !== requestIndex) continue;
    return {
      snapshot: requests.resolve(event.snapshot),
      activeSkills: event.snapshot.activeSkills.map((name) => ({
        name,
        arguments: argumentsOf.get(name) ?? "",
      })),
      settings: { ...settings },
    };
  }
  throw new PlaygroundError("not_found", `the session has no request #${requestIndex}`);
}

/** The messages with each message edit applied to its content (an index out of range is refused). */
export function editedMessages(
  messages: readonly ChatMessage[],
  edits: readonly RequestEdit[],
): ChatMessage[] {
  const result = messages.map((message) => structuredClone(message));
  for (const edit of edits) {
    if (edit.kind !== "message") continue;
    const message = result[edit.index];
    if (!message)
      throw new PlaygroundError(
        "invalid_arguments",
        `message edit #${edit.index} is out of range: the request has ${result.length} messages (0-based)`,
      );
    result[edit.index] = { ...message, content: edit.content };
  }
  return result;
}

/** Refuses edits that name parts the request does not have, saying which ones it has. */
export function checkEdits(snapshot: RequestSnapshot, edits: readonly RequestEdit[]): void {
  for (const edit of edits) {
    if (edit.kind === "skill_description" && !snapshot.listedSkills.includes(edit.skill))
      throw new PlaygroundError(
        "invalid_arguments",
        `skill "${edit.skill}" is not in request #${snapshot.requestIndex}'s index; listed: ${snapshot.listedSkills.join(", ") || "none"}`,
      );
    if (edit.kind === "tool" && !snapshot.tools.some((tool) => tool.name === edit.name))
      throw new PlaygroundError(
        "invalid_arguments",
        `tool "${edit.name}" is not in request #${snapshot.requestIndex}'s definitions`,
      );
  }
}

function editLabel(edit: RequestEdit): string {
  switch (edit.kind) {
    case "stable":
      return "stable system";
    case "environment":
      return `environment ${edit.section}`;
    case "message":
      return `message ${edit.index}`;
    case "tool":
      return `tool ${edit.name}`;
    case "skill_description":
      return `skill ${edit.skill} description`;
  }
}

/** "forked from #N: skill csv-report description, message 0" / "forked from #N: rerun, unchanged". */
export function branchLabel(requestIndex: number, kind: BranchKind, edits: readonly RequestEdit[]): string {
  if (kind === "rerun" || edits.length === 0) return `forked from #${requestIndex}: rerun, unchanged`;
  const parts = [...new Set(edits.map(editLabel))];
  return `forked from #${requestIndex}: ${parts.join(", ")}`;
}
