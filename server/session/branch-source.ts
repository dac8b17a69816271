// Where a branch starts: request #N of its origin session, read back from the origin's log (resolved from
// its references: server/protocol/request-model.ts), with the message
// edits applied, and the label the branch is known by. Pure functions over logged events.
import { PlaygroundError } from "../errors/index.ts";
import type { BranchKind, RequestEdit } from "../protocol/branch.ts";
import type { ChatMessage } from "../protocol/model.ts";
import type { RequestSnapshot } from "../protocol/runner-events.ts";
import { RequestReader, type ResolvedRequest } from "../protocol/request-model.ts";
import type { SessionEvent } from "../protocol/wire.ts";

export interface BranchStart {
  snapshot: RequestSnapshot;
  /** The request's messages, with the message edits applied: the branch's conversation. */
  messages: ChatMessage[];
}

/** Request #requestIndex of the logged events, in full. */
export function requestFromEvents(
  events: readonly { event: SessionEvent }[],
  requestIndex: number,
): ResolvedRequest {
  const requests = new RequestReader();
  for (const { event } of events) {
    requests.observe(event);
    if (event.type === "request" && event.snapshot.requestIndex === requestIndex)
      return requests.resolve(event.snapshot);
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
