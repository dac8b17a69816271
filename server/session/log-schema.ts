// The shape every session log record must have to be used (S23). A log is a file on disk: a crafted one
// (from another machine, an old version, an editor) must not reach the page, the replay or the HTML
// export as anything but the types they read. So each record is checked when it is read, and one that
// fails is skipped with a warning naming the file, line and field — never trusted.
//
// The schemas are the fields readers use, with their types; other fields are allowed (newer versions add
// fields: extend, don't rename). Records are checked as stored, in the shape of the format that wrote them:
// format 3's references (a request's `frame` and blobs, a payload's `hash`; server/protocol/
// request-model.ts) and the older formats' (`{"$sameAs": seq}` for repeated snapshot parts, format 1's
// `{"$historyPrefix": n}`, payloads in the event), which the one upgrade step reads (log-upgrade.ts). An
// event of a type this version does not know is kept with only its envelope checked: no reader here
// interprets it, and a newer version's events must survive a round trip.
import { Type, type TSchema } from "typebox";
import Value from "typebox/value";
import { mustCompile, type Validator } from "../protocol/validator.ts";

const text = Type.String();
const integer = Type.Integer();
const number = Type.Number();
const flag = Type.Boolean();
const texts = Type.Array(text);
const open = <P extends Record<string, TSchema>>(properties: P) => Type.Object(properties);
const { Optional } = Type;

/** `{"$sameAs": seq}`: a snapshot part repeated from the record at that seq. */
const sameAs = Type.Object({ $sameAs: integer });
const orSameAs = (schema: TSchema) => Type.Union([schema, sameAs]);

const toolCall = open({ id: text, name: text, input: Type.Unknown() });
const toolDefinition = open({
  name: text,
  description: text,
  inputSchema: Type.Record(Type.String(), Type.Unknown()),
  safety: Optional(text),
  category: Optional(text),
  origin: Optional(text),
});
const chatMessage = Type.Union([
  open({ role: Type.Literal("user"), content: text, addedTools: Optional(Type.Array(toolDefinition)) }),
  open({ role: Type.Literal("assistant"), content: text, toolCalls: Optional(Type.Array(toolCall)) }),
  open({
    role: Type.Literal("tool"),
    toolCallId: text,
    toolName: text,
    content: text,
    isError: Optional(flag),
    system: Optional(text),
  }),
]);
const segment = open({ kind: text, name: text, hash: text, tokens: number, chars: Optional(number) });
// Cache reports and figures (server/protocol/cache-report.ts): the fields the ledger, the page and the
// HTML export read.
const orNull = (schema: TSchema) => Type.Union([schema, Type.Null()]);
const reportedDiagnostics = open({
  provider: text,
  responseId: Optional(text),
  comparedWith: orNull(text),
  outcome: text,
  type: Optional(text),
  missedInputTokens: Optional(number),
  source: text,
});
const predictedDiagnostics = open({
  comparedWith: orNull(integer),
  type: orNull(text),
  missedInputTokens: number,
  cause: Optional(text),
  toolsAdded: texts,
  toolsRemoved: texts,
  systemCharDelta: number,
  announced: Optional(text),
  gapSeconds: Optional(number),
});
const cacheCheck = open({ verdict: text, predicted: orNull(text), reported: Optional(orNull(text)), text });
const cacheStats = open({
  requests: integer,
  figures: open({ reported: integer, predicted: integer }),
  source: text,
  hit_ratio: orNull(number),
  cache_read_tokens: number,
  cache_write_tokens: number,
  uncached_tokens: number,
  misses: integer,
  miss_causes: Type.Record(Type.String(), number),
  last_miss_at: orNull(text),
  last_miss_cause: orNull(
    open({
      causes: texts,
      tools_added: integer,
      tools_removed: integer,
      system_char_delta: number,
      source: text,
      request: integer,
    }),
  ),
  expected_rebuilds: integer,
  miss_recache_tokens: number,
  recache_tokens_if_cold: orNull(number),
  ttl: text,
  expires_at: orNull(text),
  warm: flag,
  disagreements: integer,
  at: text,
});
const usage = open({
  inputTokens: Optional(number),
  outputTokens: Optional(number),
  cacheCreationInputTokens: Optional(number),
  cacheReadInputTokens: Optional(number),
  source: Optional(text),
  estimate: Optional(text),
  cacheWriteTtl: Optional(text),
  cacheDiagnostics: Optional(reportedDiagnostics),
});
const toolResult = open({
  ok: flag,
  tool: text,
  content: text,
  errorType: Optional(text),
  error: Optional(text),
  metadata: Optional(Type.Record(Type.String(), Type.Unknown())),
});
const trace = open({ decision: text, source: text, rule: Optional(text), reason: Optional(text) });
const settings = open({
  workdir: text,
  provider: text,
  model: text,
  permissionMode: Optional(text),
  disclosure: Optional(text),
  scenario: Optional(text),
  replayOf: Optional(text),
});

/** A snapshot's cache prediction: the fields the ledger, the page and the HTML export read. */
const cacheFigures = open({ diagnostics: Optional(predictedDiagnostics), placementNote: Optional(text) });

const eagerFigures = open({
  stableChars: number,
  stableTokens: number,
  environmentTokens: number,
  totalTokens: number,
});

/** A request snapshot as formats 1 and 2 stored it: repeated parts may be `$sameAs`, messages format 1's prefix. */
const oldSnapshot = open({
  runId: text,
  requestIndex: integer,
  iteration: integer,
  provider: text,
  model: text,
  disclosure: text,
  system: open({ stable: orSameAs(text), environment: orSameAs(text) }),
  stableHash: text,
  messages: Optional(Type.Union([Type.Array(chatMessage), open({ $historyPrefix: integer })])),
  historyLength: Optional(integer),
  tools: orSameAs(Type.Array(toolDefinition)),
  registeredNotVisible: texts,
  listedSkills: orSameAs(texts),
  activeSkills: texts,
  eagerStableLength: Optional(number),
  tokenizer: Optional(text),
  segments: Optional(orSameAs(Type.Array(segment))),
  eager: Optional(eagerFigures),
  cache: Optional(cacheFigures),
  at: text,
});

/** A segment of format 3, whose tokens an upgraded old request may lack. */
const frameSegment = open({
  kind: text,
  name: text,
  hash: text,
  tokens: Optional(number),
  chars: Optional(number),
});

/** A request as format 3 stores it: its own fields, its content by reference (request-model.ts). */
const requestRef = open({
  runId: text,
  requestIndex: integer,
  iteration: integer,
  provider: text,
  model: text,
  disclosure: text,
  frame: text,
  historyLength: Optional(integer),
  messageSegments: Optional(Type.Array(frameSegment)),
  registeredNotVisible: texts,
  activeSkills: texts,
  eager: Optional(eagerFigures),
  cache: Optional(cacheFigures),
  at: text,
});

const snapshot = Type.Union([requestRef, oldSnapshot]);

/** Blobs an event is the first to carry: a text or a JSON value, by its sha256 (checked when read). */
const blobs = Optional(
  Type.Array(Type.Union([open({ hash: text, text }), open({ hash: text, json: Type.Unknown() })])),
);

const object = Type.Record(Type.String(), Type.Unknown());
const run = { runId: text, console: Optional(Type.Literal(true)) };
/** The description router's decision (issue 25): the inspector's "why this skill" reads every field. */
const routing = open({
  label: text,
  method: text,
  threshold: number,
  queryTerms: texts,
  scores: Type.Array(
    open({
      skill: text,
      score: number,
      terms: Type.Array(open({ term: text, weight: number })),
      named: flag,
    }),
  ),
  chosen: Type.Union([text, Type.Null()]),
  reason: text,
});

/** The fields each known event type must have (`type` itself is checked by the envelope). */
const EVENT_FIELDS: Record<string, Record<string, TSchema>> = {
  run_started: {
    ...run,
    userMessage: text,
    skill: Optional(text),
    sandbox: Optional(object),
    continues: Optional(Type.Literal(true)),
  },
  request: { ...run, snapshot, blobs },
  manual_turn_requested: { ...run, requestIndex: integer, snapshot, blobs },
  // Format 3: the payload by hash; before it, the payload itself (`payload`).
  provider_payload: {
    ...run,
    requestIndex: integer,
    hash: Optional(text),
    blobs,
    routing: Optional(routing),
  },
  provider_retry: { ...run, requestIndex: integer, attempt: integer, delayMs: number, reason: text },
  text_delta: { ...run, requestIndex: integer, text },
  usage: { ...run, requestIndex: integer, usage, cacheCheck: Optional(cacheCheck) },
  cache_stats: { ...run, stats: cacheStats },
  cache_repredicted: {
    model: text,
    requests: Type.Array(
      open({
        requestIndex: integer,
        cache: open({
          predicted: open({
            inputTokens: number,
            cacheCreationInputTokens: number,
            cacheReadInputTokens: number,
          }),
        }),
      }),
    ),
  },
  provider_notice: { ...run, requestIndex: integer, code: text, message: text },
  assistant_message: { ...run, requestIndex: integer, message: chatMessage },
  tool_call: { ...run, requestIndex: integer, call: toolCall, known: flag, visible: flag },
  permission_request: { ...run, request: open({ callId: text }) },
  permission_decision: { ...run, callId: text, trace, answer: Optional(object) },
  tool_started: { ...run, callId: text, tool: text },
  tool_result: {
    ...run,
    callId: text,
    result: toolResult,
    durationMs: number,
    trace: Optional(trace),
    fullOutput: Optional(text),
  },
  skill_activated: {
    ...run,
    name: text,
    source: text,
    position: integer,
    arguments: Optional(text),
    resources: Optional(object),
    indexTokens: Optional(number),
  },
  tools_registered: { ...run, skill: text, tools: texts },
  skill_resource_read: { ...run, skill: text, path: text, bytes: number, tokens: number },
  skill_resource_used: {
    ...run,
    callId: text,
    tool: text,
    skill: text,
    path: text,
    how: Type.Union([Type.Literal("ran"), Type.Literal("named")]),
  },
  history_appended: {
    ...run,
    message: chatMessage,
    requestIndex: Optional(integer),
    figures: Optional(open({ hash: text, tokens: number })),
  },
  stop: { ...run, reason: text, message: Optional(text), iterations: integer },
  catalog_snapshot: {
    catalog: open({
      skills: Type.Array(open({ name: text, description: text, source: text })),
      warnings: Type.Array(open({ path: text, reason: text })),
    }),
    visibleTools: texts,
    registeredTools: texts,
  },
  catalog_diff: { diff: object, warnings: Type.Array(object), trigger: text },
  settings_changed: { settings },
  trust_state: { trust: object },
  tool_console_result: {
    requestId: text,
    runId: Optional(text),
    tool: text,
    input: Type.Unknown(),
    result: toolResult,
    durationMs: number,
    fullOutput: Optional(text),
  },
  session_error: { message: text, code: text },
  branch_started: { branch: object },
  branch_checked: {
    check: open({
      requestIndex: integer,
      originRequestIndex: integer,
      exact: flag,
      edited: texts,
      differences: Type.Array(open({ kind: text, name: text, reason: text })),
      compared: integer,
    }),
  },
  mcp_state: { servers: Type.Array(open({ name: text, status: text })), warnings: texts },
};

const header = open({
  kind: Type.Literal("header"),
  version: integer,
  id: text,
  createdAt: text,
  title: text,
  settings,
  branch: Optional(object),
});
const envelope = open({
  kind: Type.Literal("event"),
  seq: Type.Integer({ minimum: 0 }),
  at: text,
  event: open({ type: text }),
});

const headerValidator = mustCompile(header, { root: "(header)" });
const envelopeValidator = mustCompile(envelope, { root: "(record)" });
const eventValidators = new Map<string, Validator<unknown>>(
  Object.entries(EVENT_FIELDS).map(([type, fields]) => [
    type,
    mustCompile(open({ type: Type.Literal(type), ...fields }), { root: "event" }),
  ]),
);

/** Every validator a log's records are checked with (for compileSoon: a server compiles them once it listens). */
export function logRecordValidators(): Validator<unknown>[] {
  return [headerValidator, envelopeValidator, ...eventValidators.values()];
}

/**
 * A record the log validator accepts, made from its schema (required fields only), to warm it up before
 * the first reopen checks thousands of records with it (compileSoon's `warm`): undefined when the made
 * value is not accepted (a required field of any type is left out), as warming the refusal path would
 * not help reading a sound log.
 */
export function logRecordSample(validator: Validator<unknown>): unknown {
  const sample: unknown = Value.Create(validator.schema as TSchema);
  return validator(sample).ok ? sample : undefined;
}

/** Why a parsed log line cannot be used as a record (its first problems), or undefined when it can. */
export function recordProblem(record: unknown): string | undefined {
  const kind = (record as { kind?: unknown } | null)?.kind;
  if (kind === "header") {
    const checked = headerValidator(record);
    return checked.ok ? undefined : checked.message;
  }
  const checked = envelopeValidator(record);
  if (!checked.ok) return checked.message;
  const event = (record as { event: { type: string } }).event;
  const validator = eventValidators.get(event.type);
  if (!validator) return undefined;
  const result = validator(event);
  return result.ok ? undefined : `${event.type}: ${result.message}`;
}
