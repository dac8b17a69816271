// Experiments on a request (issue 14): a branch of a session, made by editing request #N and sending it
// again ("Edit & resend") or by sending it unchanged ("Rerun from here"), and the per-run digest two runs
// are compared by. A branch is a session of its own whose log header names its origin, so the session
// list, reopening and old logs work as they did. Wire types: the pages import them as types only.
import type { ChatMessage, JsonSchema, StopReason, ToolDefinition, Usage } from "./model.ts";

/** One edited part of a request. */
export type RequestEdit =
  /** The whole stable system, as text. Wins over a skill description edit. */
  | { kind: "stable"; text: string }
  /** One environment section ("base" or an active skill's name), as text; it replaces that section in every request of the branch. */
  | { kind: "environment"; section: string; text: string }
  /** The content of one message of the request (0-based index), for the branch's first request only. */
  | { kind: "message"; index: number; content: string }
  /** A tool definition's description and/or input schema, as the model sees it (execution is unchanged). */
  | { kind: "tool"; name: string; description?: string; inputSchema?: JsonSchema }
  /** A skill's description: the stable system's index line is rendered again with it. */
  | { kind: "skill_description"; skill: string; description: string };

export type BranchKind = "edit" | "rerun";

/** Where a branch comes from; in its log header and its session summary. */
export interface BranchOrigin {
  originSessionId: string;
  /** The origin session's request the branch starts from. */
  requestIndex: number;
  kind: BranchKind;
  edits: RequestEdit[];
  /** "forked from #N: <what was edited>" or "rerun of #N". */
  label: string;
}

/** A segment of the branch's first request that is not as it was in the origin's request. */
export interface BranchDifference {
  /** "tool", "system", "environment", "message" (the segment's kind). */
  kind: "tool" | "system" | "environment" | "message";
  /** The segment's name: a tool's, "stable", "base" or a skill's, a message's index. */
  name: string;
  /** Why, in words, as far as the server can tell (what changed since the origin's request). */
  reason: string;
}

/**
 * How a branch's first request compares with the origin's request it resends, segment by segment
 * (sha256 of each, server/prompt/segments.ts). Sent once, right after that request, and logged.
 */
export interface BranchCheck {
  /** The branch's first request (the origin's index + 1: numbering continues from the fork). */
  requestIndex: number;
  /** The origin's request it resends. */
  originRequestIndex: number;
  /** Every segment has the origin's hash, except the ones the edits name. */
  exact: boolean;
  /** The segments this branch's edits changed, as "stable system", "environment base", "message 0", "tool x". */
  edited: string[];
  /** Segments that differ although no edit names them (the catalog, a SOP or a server changed since). */
  differences: BranchDifference[];
  /** How many of the origin's segments were compared (a request of an older log has fewer hashes). */
  compared: number;
  /** The environment's date, pinned to the origin request's so that its facts are the same. */
  pinnedDate?: string;
}

/** The figures of one request of a run, for the compare view. */
export interface RequestDigest {
  requestIndex: number;
  iteration: number;
  provider: string;
  model: string;
  /** Server token counts by part, with the tokenizer named (absent for requests from old logs). */
  tokens?: { tools: number; stable: number; environment: number; messages: number; total: number };
  tokenizer?: string;
  /** What the provider reported. */
  usage?: Usage;
  /** Cost in USD from the cache/cost model, when the snapshot carries one. */
  costUsd?: number;
  stableHash: string;
  system: { stable: string; environment: string };
  tools: ToolDefinition[];
  messages: ChatMessage[];
  activeSkills: string[];
}

/** One run of a session as the compare view shows it. */
export interface RunDigest {
  sessionId: string;
  runId: string;
  /** The user message that started it ("" for a branch's first run, which continues the copied conversation). */
  userMessage: string;
  requests: RequestDigest[];
  /** Skills loaded during the run, in order. */
  skillsLoaded: string[];
  /** Tool calls the model made, by name, in order. */
  toolsCalled: string[];
  stopReason?: StopReason;
  stopMessage?: string;
  /** The last assistant text of the run. */
  finalAnswer: string;
}
