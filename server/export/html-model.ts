// The data an exported HTML page carries, folded from a saved session's events: every request with its
// panes (stable, environment, messages, tools, raw, diffs, token and cache figures), the conversation, the
// disclosure lane and the run settings. The page reads the log's own model (server/protocol/
// request-model.ts): each text, tool definition, message and payload part once, as a blob by its hash,
// and each request as references to them, so the file grows with the session, not with its square.
import type { CacheCheck, CacheStats } from "../protocol/cache-report.ts";
import { diffLines } from "diff";
import type { ChatMessage, ToolCall, ToolResult, Usage } from "../protocol/model.ts";
import type { PermissionTrace } from "../protocol/permission.ts";
import {
  RequestReader,
  frameOf,
  type BlobStore,
  type FrameSegment,
  type ResolvedRequest,
} from "../protocol/request-model.ts";
import type { RequestSnapshot } from "../protocol/runner-events.ts";
import type { SessionSettings } from "../protocol/wire.ts";
import { commandWrites, writesLines, type WritesLines } from "../shared/command-writes.ts";
import type { ExportedSession } from "./exported-session.ts";

/** One changed run of lines: `+` added, `-` removed, `=` unchanged (its line count only). */
export type DiffPart = ["+" | "-", string] | ["=", number];

export interface ExportedCall {
  id: string;
  name: string;
  input: unknown;
  known: boolean;
  visible: boolean;
  result?: { ok: boolean; content: string; errorType?: string; durationMs: number };
  permission?: Pick<PermissionTrace, "decision" | "source" | "rule" | "reason">;
}

export interface ExportedRequest {
  index: number;
  runId: string;
  iteration: number;
  provider: string;
  model: string;
  disclosure: string;
  at: string;
  stableHash: string;
  /** Blob hashes (`HtmlModel.blobs`): the stable system, the environment's sections, the tool definitions. */
  stable: string;
  environment: string[];
  tools: string[];
  /** The first `historyLength` messages of `conversation`, or the run's own messages by blob (an isolated run). */
  historyLength?: number;
  messages?: string[];
  registeredNotVisible: string[];
  listedSkills: string[];
  activeSkills: string[];
  tokenizer?: string;
  /** The prompt's segments apart from messages (absent in logs written before figures existed). */
  segments?: FrameSegment[];
  eager?: RequestSnapshot["eager"];
  eagerStableLength?: number;
  /** Another part of the playground's cache figures (`snapshot.cache`), shown as they are when present. */
  cache?: unknown;
  usage: Usage[];
  /** The provider's cache diagnostics checked against the prediction (the usage event's). */
  cacheCheck?: CacheCheck;
  /** The provider payload's blob hash (a StoredPayload: its top-level lists are blobs too). */
  payload?: string;
  answer?: string;
  calls: ExportedCall[];
  diff?: { stable?: DiffPart[]; environment?: DiffPart[]; toolsAdded: string[]; toolsRemoved: string[] };
  stop?: { reason: string; message?: string };
}

export interface ChatEntry {
  kind: "user" | "assistant" | "tool" | "stop" | "skill" | "error";
  text: string;
  requestIndex?: number;
  detail?: string;
  calls?: ToolCall[];
  ok?: boolean;
  /** A command's written files, worded as on its tool card (server/shared/command-writes.ts). */
  writes?: WritesLines;
}

export interface LaneRow {
  skill: string;
  listed: boolean;
  loadedAt?: number;
  tools: string[];
  visibleFrom?: number;
  resources: string[];
}

export interface HtmlModel {
  id: string;
  title: string;
  createdAt: string;
  settings: SessionSettings;
  settingsChanges: { at: string; settings: SessionSettings }[];
  sandbox?: unknown;
  trust?: unknown;
  /** Every blob a request or payload refers to, by hash: a text, or a JSON value. */
  blobs: Record<string, unknown>;
  conversation: ChatMessage[];
  /** Tokens of each conversation message (its history_appended figures; null when the log has none). */
  conversationTokens: (number | null)[];
  requests: ExportedRequest[];
  chat: ChatEntry[];
  lane: LaneRow[];
  warnings: string[];
  /** The session's cache figures after its last run (its last cache_stats event). */
  cacheStats?: CacheStats;
}

/** The blobs of the page: those a request or a payload refers to, copied from the log's store. */
class PageBlobs {
  readonly values: Record<string, unknown> = {};
  constructor(private readonly store: BlobStore) {}
  text(hash: string): string {
    this.values[hash] ??= this.store.text(hash) ?? "";
    return hash;
  }
  json(hash: string): string {
    const value = this.store.json(hash);
    if (value !== undefined) this.values[hash] ??= value;
    return hash;
  }
  /** A payload and the lists it grows from (each list names the one it extends). */
  payload(hash: string): string {
    const stored = this.store.json(hash) as { lists?: Record<string, string> } | undefined;
    this.json(hash);
    for (const list of Object.values(stored?.lists ?? {})) {
      for (let next: string | undefined = list; next !== undefined && !(next in this.values);) {
        this.json(next);
        const list: unknown = this.store.json(next);
        const after: unknown =
          typeof list === "object" && list !== null ? (list as { after?: unknown }).after : undefined;
        next = typeof after === "string" ? after : undefined;
      }
    }
    return hash;
  }
}

function lineDiff(before: string, after: string): DiffPart[] | undefined {
  if (before === after) return undefined;
  return diffLines(before, after).map((change): DiffPart => {
    if (change.added) return ["+", change.value];
    if (change.removed) return ["-", change.value];
    return ["=", change.count ?? change.value.split("\n").length - 1];
  });
}

function requestDiff(previous: ResolvedRequest | undefined, next: ResolvedRequest): ExportedRequest["diff"] {
  if (!previous) return undefined;
  const before = previous.tools.map((tool) => tool.name);
  const after = next.tools.map((tool) => tool.name);
  const stable = lineDiff(previous.system.stable, next.system.stable);
  const environment = lineDiff(previous.system.environment, next.system.environment);
  return {
    ...(stable ? { stable } : {}),
    ...(environment ? { environment } : {}),
    toolsAdded: after.filter((name) => !before.includes(name)),
    toolsRemoved: before.filter((name) => !after.includes(name)),
  };
}

function firstLine(text: string): string {
  return text.split("\n", 1)[0];
}

/** Folds the session's events into what the page shows. */
export function buildHtmlModel(session: ExportedSession): HtmlModel {
  const { header } = session;
  const reader = new RequestReader();
  const blobs = new PageBlobs(reader.blobs);
  const conversation: ChatMessage[] = [];
  const requests = new Map<number, ExportedRequest>();
  const byRun = new Map<string, ExportedRequest>();
  const callsById = new Map<string, ExportedCall>();
  const chat: ChatEntry[] = [];
  const lane = new Map<string, LaneRow>();
  const model: HtmlModel = {
    id: header.id,
    title: header.title,
    createdAt: header.createdAt,
    settings: header.settings,
    settingsChanges: [],
    blobs: blobs.values,
    conversation,
    conversationTokens: [],
    requests: [],
    chat,
    lane: [],
    warnings: [...session.warnings],
  };
  const laneRow = (skill: string): LaneRow => {
    let row = lane.get(skill);
    if (!row) {
      row = { skill, listed: false, tools: [], resources: [] };
      lane.set(skill, row);
    }
    return row;
  };
  let previousSnapshot: ResolvedRequest | undefined;
  let lastRequest: ExportedRequest | undefined;
  for (const { at, event } of session.events) {
    reader.observe(event);
    switch (event.type) {
      case "run_started":
        if (event.sandbox) model.sandbox = event.sandbox;
        chat.push({
          kind: "user",
          text: event.skill ? firstLine(event.userMessage) : event.userMessage,
          ...(event.skill ? { detail: `slash invocation of ${event.skill}` } : {}),
          ...(event.continues
            ? { detail: "copied from the original session: the branch answers it again" }
            : {}),
        });
        break;
      case "request": {
        const ref = event.snapshot;
        const snapshot = reader.resolve(ref);
        const frame = frameOf(ref, reader.blobs);
        const parts = (kind: FrameSegment["kind"]) =>
          frame.segments.filter((segment) => segment.kind === kind).map((segment) => segment.hash);
        const request: ExportedRequest = {
          index: snapshot.requestIndex,
          runId: snapshot.runId,
          iteration: snapshot.iteration,
          provider: snapshot.provider,
          model: snapshot.model,
          disclosure: snapshot.disclosure,
          at: snapshot.at,
          stableHash: snapshot.stableHash,
          stable: blobs.text(parts("system")[0] ?? ""),
          environment: parts("environment").map((hash) => blobs.text(hash)),
          tools: parts("tool").map((hash) => blobs.json(hash)),
          ...(ref.historyLength !== undefined
            ? { historyLength: Math.min(ref.historyLength, conversation.length) }
            : { messages: (ref.messageSegments ?? []).map((segment) => blobs.json(segment.hash)) }),
          registeredNotVisible: snapshot.registeredNotVisible,
          listedSkills: snapshot.listedSkills,
          activeSkills: snapshot.activeSkills,
          ...(snapshot.tokenizer ? { tokenizer: snapshot.tokenizer } : {}),
          ...(frame.segments.every((segment) => segment.tokens !== undefined)
            ? { segments: frame.segments }
            : {}),
          ...(snapshot.eager ? { eager: snapshot.eager } : {}),
          ...(snapshot.eagerStableLength !== undefined
            ? { eagerStableLength: snapshot.eagerStableLength }
            : {}),
          ...(snapshot.cache !== undefined ? { cache: snapshot.cache } : {}),
          usage: [],
          calls: [],
          diff: requestDiff(previousSnapshot, snapshot),
        };
        for (const name of snapshot.listedSkills) laneRow(name).listed = true;
        for (const row of lane.values())
          if (
            row.visibleFrom === undefined &&
            row.tools.some((tool) => snapshot.tools.some((t) => t.name === tool))
          )
            row.visibleFrom = snapshot.requestIndex;
        previousSnapshot = snapshot;
        requests.set(request.index, request);
        byRun.set(request.runId, request);
        lastRequest = request;
        break;
      }
      case "cache_repredicted":
        // A new "cache as" model: the export shows each request as the session last predicted it.
        for (const entry of event.requests) {
          const request = requests.get(entry.requestIndex);
          if (request) request.cache = entry.cache;
        }
        break;
      case "provider_payload": {
        const request = requests.get(event.requestIndex);
        if (request) request.payload = blobs.payload(event.hash);
        break;
      }
      case "usage": {
        const request = requests.get(event.requestIndex);
        request?.usage.push(event.usage);
        if (request && event.cacheCheck) request.cacheCheck = event.cacheCheck;
        break;
      }
      case "cache_stats":
        model.cacheStats = event.stats;
        break;
      case "provider_notice":
        chat.push({ kind: "error", text: `${event.code}: ${event.message}` });
        break;
      case "assistant_message":
      case "history_appended": {
        const message = event.message;
        if (event.type === "history_appended") {
          conversation.push(message);
          model.conversationTokens.push(event.figures?.tokens ?? null);
        }
        if (message.role !== "assistant" || event.requestIndex === undefined) break;
        const request = requests.get(event.requestIndex);
        if (request) request.answer = message.content;
        if (event.type === "history_appended" && chat.at(-1)?.requestIndex === event.requestIndex) break;
        chat.push({
          kind: "assistant",
          text: message.content,
          requestIndex: event.requestIndex,
          calls: message.toolCalls,
        });
        break;
      }
      case "tool_call": {
        if (event.console) break;
        const call: ExportedCall = {
          id: event.call.id,
          name: event.call.name,
          input: event.call.input,
          known: event.known,
          visible: event.visible,
        };
        callsById.set(call.id, call);
        requests.get(event.requestIndex)?.calls.push(call);
        break;
      }
      case "permission_decision": {
        const call = callsById.get(event.callId);
        if (call) {
          const { decision, source, rule, reason } = event.trace;
          call.permission = { decision, source, ...(rule ? { rule } : {}), ...(reason ? { reason } : {}) };
        }
        break;
      }
      case "tool_result": {
        const result: ToolResult = event.result;
        const call = callsById.get(event.callId);
        if (call)
          call.result = {
            ok: result.ok,
            content: result.content,
            ...(result.errorType ? { errorType: result.errorType } : {}),
            durationMs: event.durationMs,
          };
        const writes = commandWrites(result.metadata);
        chat.push({
          kind: "tool",
          text: result.content,
          detail: `${result.tool}${result.ok ? "" : ` failed: ${result.errorType ?? "error"}`} (${event.durationMs} ms)`,
          ok: result.ok,
          ...(writes ? { writes: writesLines(writes) } : {}),
        });
        break;
      }
      case "skill_activated": {
        const row = laneRow(event.name);
        row.loadedAt ??= byRun.get(event.runId)?.index ?? lastRequest?.index;
        chat.push({ kind: "skill", text: `skill ${event.name} loaded (${event.source})` });
        break;
      }
      case "tools_registered":
        laneRow(event.skill).tools.push(
          ...event.tools.filter((tool) => !laneRow(event.skill).tools.includes(tool)),
        );
        break;
      case "stop": {
        const request = byRun.get(event.runId);
        if (request)
          request.stop = { reason: event.reason, ...(event.message ? { message: event.message } : {}) };
        chat.push({
          kind: "stop",
          text: `stop: ${event.reason} after ${event.iterations} iteration(s)`,
          ...(event.message ? { detail: event.message } : {}),
        });
        break;
      }
      case "catalog_snapshot":
        for (const skill of event.catalog.skills) laneRow(skill.name).listed = true;
        break;
      case "settings_changed":
        model.settingsChanges.push({ at, settings: event.settings });
        break;
      case "trust_state":
        model.trust = event.trust;
        break;
      case "session_error":
        chat.push({ kind: "error", text: `${event.code}: ${event.message}` });
        break;
      default: {
        // Events of other parts of the playground (e.g. a level-3 file read): shown in the lane when
        // they name a skill and a path, ignored otherwise.
        const other = event as { type: string; skill?: unknown; path?: unknown };
        if (
          other.type === "skill_resource_read" &&
          typeof other.skill === "string" &&
          typeof other.path === "string"
        )
          laneRow(other.skill).resources.push(other.path);
      }
    }
  }
  model.requests = [...requests.values()].sort((left, right) => left.index - right.index);
  model.lane = [...lane.values()];
  return model;
}
