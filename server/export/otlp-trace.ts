// Session → OpenTelemetry trace (OTLP/JSON ExportTraceServiceRequest), for Phoenix, Langfuse or any OTLP
// collector. One trace per run: an agent span for the run, a client span per model request, a span per
// tool call, and zero-length spans for each skill activation and each level-3 read, under the call that
// caused them. This module decides which spans exist, when they start and end and how they nest; what each
// span says (the GenAI conventions, OpenInference and `pseudoclaude.*`) is otlp-vocabulary.ts.
//
// Prompt and completion text, tool arguments and results, the user's messages and the workdir are
// content: they are written only with `includeContent` (the inspector's rule: what a person typed or a
// model produced never leaves by default). Keys and the server token are already redacted by the reader
// (exported-session.ts), which is the one reader of session logs every export uses.
import { RequestReader, type ResolvedRequest } from "../protocol/request-model.ts";
import { PLAYGROUND_VERSION } from "../session/workspace.ts";
import type { ExportedSession } from "./exported-session.ts";
import {
  attributes,
  SPAN_KIND,
  stableId,
  STATUS_CODE,
  unixNano,
  type AttributeInput,
  type OtlpEvent,
  type OtlpSpan,
  type OtlpTraceRequest,
} from "./otlp-json.ts";
import {
  AGENT_NAME,
  permissionDecisionAttributes,
  permissionEventAttributes,
  requestAttributes,
  resourceAttributes,
  resourceReadAttributes,
  responseAttributes,
  retryAttributes,
  runAttributes,
  skillActivatedAttributes,
  stopAttributes,
  toolCallAttributes,
  toolResultAttributes,
  usageAttributes,
} from "./otlp-vocabulary.ts";

export interface OtlpExportOptions {
  /** Prompt and completion text, tool arguments and results (off by default). */
  includeContent?: boolean;
}

export const OTLP_SCOPE = "pseudoclaude-playground/export";

interface OpenSpan {
  span: OtlpSpan;
  /** Set once something ended it (a stop, a usage report and the answer, a tool result). */
  ended: boolean;
}

interface RunState {
  traceId: string;
  run: OpenSpan;
  requests: Map<number, OpenSpan & { provider: string; snapshot: ResolvedRequest }>;
  tools: Map<string, OpenSpan>;
  /** The tool call in flight or just answered, whose effects (skill activated, file read) become its children. */
  currentTool?: OpenSpan;
}

function newSpan(
  traceId: string,
  idParts: string[],
  parent: OtlpSpan | undefined,
  name: string,
  kind: number,
  at: string,
  values: Record<string, AttributeInput>,
): OtlpSpan {
  return {
    traceId,
    spanId: stableId(8, ...idParts),
    ...(parent ? { parentSpanId: parent.spanId } : {}),
    name,
    kind,
    startTimeUnixNano: unixNano(at),
    endTimeUnixNano: unixNano(at),
    attributes: attributes(values),
    events: [],
    status: { code: STATUS_CODE.unset },
  };
}

function addAttributes(span: OtlpSpan, values: Record<string, AttributeInput>): void {
  const fresh = attributes(values);
  const keys = new Set(fresh.map((entry) => entry.key));
  span.attributes = [...span.attributes.filter((entry) => !keys.has(entry.key)), ...fresh];
}

function addEvent(span: OtlpSpan, at: string, name: string, values: Record<string, AttributeInput>): void {
  const event: OtlpEvent = { timeUnixNano: unixNano(at), name, attributes: attributes(values) };
  span.events.push(event);
}

function end(open: OpenSpan, at: string): void {
  open.span.endTimeUnixNano = unixNano(at);
  open.ended = true;
}
/** Builds the ExportTraceServiceRequest of one saved session. */
export function sessionToOtlp(session: ExportedSession, options: OtlpExportOptions = {}): OtlpTraceRequest {
  const content = options.includeContent === true;
  const sessionId = session.header.id;
  // Requests are read in full from their references (server/protocol/request-model.ts), in log order.
  const requests = new RequestReader();
  const runs = new Map<string, RunState>();
  const spans: OtlpSpan[] = [];
  const keep = <T extends OpenSpan>(open: T): T => {
    spans.push(open.span);
    return open;
  };
  let lastAt = session.header.createdAt;

  for (const record of session.events) {
    lastAt = record.at;
    const { event, at } = record;
    requests.observe(event);
    // Calls made by hand from the tool console belong to no run and no model request.
    if ("console" in event && event.console) continue;
    if (event.type === "run_started") {
      const traceId = stableId(16, sessionId, event.runId);
      const run = keep({
        ended: false,
        span: newSpan(
          traceId,
          [sessionId, event.runId],
          undefined,
          `invoke_agent ${AGENT_NAME}`,
          SPAN_KIND.internal,
          at,
          runAttributes(event, sessionId, content),
        ),
      });
      runs.set(event.runId, { traceId, run, requests: new Map(), tools: new Map() });
      continue;
    }
    const runId = "runId" in event ? event.runId : undefined;
    const run = runId !== undefined ? runs.get(runId) : undefined;
    if (!run) continue;
    switch (event.type) {
      case "request": {
        const snapshot = requests.resolve(event.snapshot);
        const request = keep({
          ended: false,
          provider: snapshot.provider,
          snapshot,
          span: newSpan(
            run.traceId,
            [sessionId, event.runId, "request", String(snapshot.requestIndex)],
            run.run.span,
            `chat ${snapshot.model}`,
            SPAN_KIND.client,
            at,
            requestAttributes(snapshot, sessionId, content),
          ),
        });
        run.requests.set(snapshot.requestIndex, request);
        break;
      }
      case "provider_retry": {
        const request = run.requests.get(event.requestIndex);
        if (request) addEvent(request.span, at, "provider_retry", retryAttributes(event));
        break;
      }
      case "usage": {
        const request = run.requests.get(event.requestIndex);
        if (!request) break;
        addAttributes(request.span, usageAttributes(request, event.usage));
        end(request, at);
        break;
      }
      case "history_appended": {
        if (event.message.role !== "assistant" || event.requestIndex === undefined) break;
        const request = run.requests.get(event.requestIndex);
        if (!request) break;
        addAttributes(request.span, responseAttributes(request.snapshot, event.message, content));
        end(request, at);
        break;
      }
      case "tool_call": {
        const { call } = event;
        const tool = keep({
          ended: false,
          span: newSpan(
            run.traceId,
            [sessionId, event.runId, "tool", call.id],
            run.run.span,
            `execute_tool ${call.name}`,
            SPAN_KIND.internal,
            at,
            toolCallAttributes(event, sessionId, content),
          ),
        });
        run.tools.set(call.id, tool);
        run.currentTool = tool;
        break;
      }
      case "permission_request": {
        const tool = run.tools.get(event.request.callId);
        if (tool)
          addEvent(tool.span, at, "permission_request", permissionEventAttributes(event.request.trace));
        break;
      }
      case "permission_decision": {
        const tool = run.tools.get(event.callId);
        if (!tool) break;
        addAttributes(tool.span, permissionDecisionAttributes(event));
        addEvent(tool.span, at, "permission_decision", permissionEventAttributes(event.trace));
        break;
      }
      case "tool_result": {
        const tool = run.tools.get(event.callId);
        if (!tool) break;
        const { result } = event;
        addAttributes(tool.span, toolResultAttributes(event, content));
        if (!result.ok) tool.span.status = { code: STATUS_CODE.error, message: result.error };
        end(tool, at);
        // Its effects (skill activated, file read) are logged right after its result.
        run.currentTool = tool;
        break;
      }
      case "skill_activated": {
        const parent = run.currentTool ?? run.run;
        keep({
          ended: true,
          span: newSpan(
            run.traceId,
            [sessionId, event.runId, "skill", event.name, String(record.seq)],
            parent.span,
            `skill_activated ${event.name}`,
            SPAN_KIND.internal,
            at,
            skillActivatedAttributes(event, sessionId, content),
          ),
        });
        break;
      }
      case "skill_resource_read": {
        const parent = run.currentTool ?? run.run;
        keep({
          ended: true,
          span: newSpan(
            run.traceId,
            [sessionId, event.runId, "read", event.skill, event.path, String(record.seq)],
            parent.span,
            `skill_resource_read ${event.skill}/${event.path}`,
            SPAN_KIND.internal,
            at,
            resourceReadAttributes(event, sessionId),
          ),
        });
        break;
      }
      case "stop": {
        const stopped = stopAttributes(event, content);
        addAttributes(run.run.span, stopped.attributes);
        run.run.span.status = stopped.status;
        closeRun(run, at, false);
        break;
      }
      default:
        break;
    }
  }
  // A run the log never saw stop (the server was killed) ends at the last record, marked as such.
  for (const run of runs.values()) if (!run.run.ended) closeRun(run, lastAt, true);

  return {
    resourceSpans: [
      {
        resource: { attributes: attributes(resourceAttributes(session.header, PLAYGROUND_VERSION, content)) },
        scopeSpans: [{ scope: { name: OTLP_SCOPE, version: PLAYGROUND_VERSION }, spans }],
      },
    ],
  };
}

/** Ends whatever the run left open at `at` (a request cut by a stop, a tool the run never finished). */
function closeRun(run: RunState, at: string, interrupted: boolean): void {
  for (const open of [...run.requests.values(), ...run.tools.values()]) if (!open.ended) end(open, at);
  if (interrupted) addAttributes(run.run.span, { "pseudoclaude.run.interrupted": true });
  end(run.run, at);
}
