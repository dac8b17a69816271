// Builders for realistic wire messages, shared by the reducer and derive tests.
import type {
  Blob,
  WireRunnerEvent,
  LOAD_SKILL_TOOL_NAME,
  RequestEvent,
  RequestRef,
  ServerMessage,
  SessionEvent,
  SessionSummary,
  SkillView,
  ToolDefinition,
} from "../../server/protocol/index.ts";
import type { ResolvedSnapshot } from "./snapshot-view.ts";
import type { RequestView, UiState } from "./types.ts";
import { initialUiState, uiReducer } from "./reducer.ts";
import { RequestStore } from "./request-store.ts";
import { buildFrame, ownFields } from "../../server/protocol/request-model.ts";

const LOAD_SKILL: typeof LOAD_SKILL_TOOL_NAME = "load_skill";

export function summary(id = "s1"): SessionSummary {
  return {
    id,
    title: "demo",
    createdAt: "2026-12-02T10:00:00.000Z",
    updatedAt: "2026-12-02T10:00:00.000Z",
    settings: {
      workdir: "/tmp/demo",
      provider: "scripted",
      model: "scripted-1",
      permissionMode: "default",
      disclosure: "progressive",
    },
    messageCount: 0,
    running: false,
  };
}

export function envelope(seq: number, event: SessionEvent, sessionId = "s1"): ServerMessage {
  return { type: "event", sessionId, seq, event };
}

export function tool(name: string, origin: ToolDefinition["origin"] = "system"): ToolDefinition {
  return {
    name,
    description: `${name} tool`,
    inputSchema: { type: "object" },
    safety: origin === "skill" ? "side_effect" : "read_only",
    category: origin === "skill" ? "exec" : "read",
    origin,
  };
}

/** A snapshot with its messages in full (as the Runner makes it, and as the reducer resolves it). */
export function snapshot(overrides: Partial<ResolvedSnapshot> = {}): ResolvedSnapshot {
  return {
    runId: "r1",
    requestIndex: 1,
    iteration: 1,
    provider: "scripted",
    model: "scripted-1",
    disclosure: "progressive",
    system: {
      stable: "You are PseudoClaude.\n## Skills\n- review: reviews code",
      environment: "## Environment\ncwd: /tmp/demo\n",
    },
    stableHash: "aaaa",
    messages: [{ role: "user", content: "review it" }],
    tools: [tool(LOAD_SKILL), tool("read_file")],
    registeredNotVisible: [],
    listedSkills: ["review"],
    activeSkills: [],
    at: "2026-12-02T10:00:01.000Z",
    ...overrides,
  };
}

export function skill(name: string, toolNames: string[] = []): SkillView {
  return {
    name,
    description: `${name} skill`,
    source: "builtin",
    entryPath: `/skills/${name}/SKILL.md`,
    rootDir: `/skills/${name}`,
    toolNames,
    toolSpecs: toolNames.map((toolName) => ({
      name: toolName,
      description: "",
      input_schema: { type: "object" },
      command: ["node", "run.js"],
    })),
    meta: { tools: toolNames, mode: "shared", history: "recent", extra: {} },
    body: `Body of ${name}`,
  };
}

/**
 * A name for test content (the pages never check a hash; the server's are sha256). Distinct for distinct
 * texts in practice: a 53-bit FNV-style hash of the text and its length.
 */
function testHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), 16777619);
  return `t${(hash >>> 0).toString(16)}-${text.length}`;
}

function textBlob(text: string): Blob {
  return { hash: testHash(`text:${text}`), text };
}

function jsonBlob(json: unknown): Blob {
  return { hash: testHash(`json:${JSON.stringify(json)}`), json };
}

/**
 * A request in full as the server sends it: every part a blob, the request a reference. The messages are
 * the conversation's first `historyLength` when given (the usual form), else each a blob of its own.
 */
export function wireRequest(
  full: ResolvedSnapshot,
  options: { historyLength?: number } = {},
): {
  snapshot: RequestRef;
  blobs: Blob[];
} {
  // Named as the segment names it when there is one, as the server's writer does.
  const { messages, segments } = full;
  const { frame: frameBlob, blobs } = buildFrame(full, {
    text: (known, text) => ({ ...textBlob(text), ...(known ? { hash: known } : {}) }),
    json: (known, json) => ({ ...jsonBlob(json), ...(known ? { hash: known } : {}) }),
  });
  const figures = new Map((segments ?? []).map((segment) => [`${segment.kind}:${segment.name}`, segment]));
  blobs.push(frameBlob);
  const messageParts =
    options.historyLength !== undefined
      ? { historyLength: options.historyLength }
      : {
          messageSegments: messages.map((message, index) => {
            const known = figures.get(`message:${index}`);
            const blob = jsonBlob(message);
            blobs.push(blob);
            return {
              kind: "message" as const,
              name: String(index),
              hash: blob.hash,
              ...(known ? { tokens: known.tokens } : {}),
            };
          }),
        };
  return { snapshot: { ...ownFields(full), frame: frameBlob.hash, ...messageParts }, blobs };
}

/** A `request` event for a snapshot in full (see wireRequest). */
export function requestEvent(full: ResolvedSnapshot, options: { historyLength?: number } = {}): RequestEvent {
  return { type: "request", runId: full.runId, ...wireRequest(full, options) };
}

/** The blobs of a provider payload as the server stores it (its value; arrays stay in it here). */
export function payloadBlobs(payload: unknown): { hash: string; blobs: Blob[] } {
  const blob = jsonBlob({ value: payload });
  return { hash: blob.hash, blobs: [blob] };
}

/** A RequestView of a snapshot in full, with a store of its own (derive and component tests). */
export function requestView(full: ResolvedSnapshot, options: { payload?: unknown } = {}): RequestView {
  const store = new RequestStore();
  const { snapshot: ref, blobs } = wireRequest(full);
  store.addBlobs(blobs);
  const view: RequestView = { requestIndex: full.requestIndex, runId: full.runId, snapshot: ref, store };
  if (options.payload === undefined) return view;
  const payload = payloadBlobs(options.payload);
  store.addBlobs(payload.blobs);
  return { ...view, payload: payload.hash };
}

/** The UI state after a session opens empty and `events` arrive, one message each, in order. */
export function playEvents(events: readonly (WireRunnerEvent | SessionEvent)[]): UiState {
  let state = uiReducer(initialUiState, {
    type: "server",
    message: envelope(1, { type: "session_opened", session: summary(), history: [], activeSkills: [] }),
  });
  events.forEach((event, index) => {
    state = uiReducer(state, { type: "server", message: envelope(index + 2, event) });
  });
  return state;
}
