// The client commands of the WebSocket, defined once: each is a TypeBox schema, and its TypeScript type is
// derived from it (`Static`), so the type the code uses and the schema every received frame is checked
// against cannot drift. `wire.ts` re-exports the types; the pages import them as types only.
import { Type, type Static, type TSchema } from "typebox";
import type { DisclosureMode, PermissionMode } from "./model.ts";
import type { SessionConfirmation } from "./sandbox.ts";
import type { LintProfileName } from "./catalog.ts";
import type { ClientProfileName } from "./trigger-lab.ts";
import { mustCompile, type Validator } from "./validator.ts";

/** Every value of a string union, checked both ways at compile time (a new mode must be listed here). */
function allOf<T extends string>() {
  return <const L extends readonly T[]>(values: L & ([T] extends [L[number]] ? unknown : never)) => values;
}

const PERMISSION_MODES = allOf<PermissionMode>()(["strict", "default", "acceptEdits", "bypassPermissions"]);
const DISCLOSURE_MODES = allOf<DisclosureMode>()(["progressive", "eager"]);
const CONFIRMATIONS = allOf<SessionConfirmation>()(["broad_workdir", "bypass_permissions"]);

const sessionId = Type.String({ minLength: 1, maxLength: 128 });

const CLIENT_PROFILES = allOf<ClientProfileName>()(["claude-code", "codex"]);
const LINT_PROFILE_NAMES = allOf<LintProfileName>()(["lenient", "agent-skills", "claude-code"]);
/** --max-calls / --max-usd of the trigger lab and the optimizer (issue 25). */
const spendCaps = {
  maxCalls: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
  maxUsd: Type.Optional(Type.Number({ minimum: 0, maximum: 10_000 })),
};
const catalogBudgetSchema = Type.Object(
  {
    profile: Type.Enum([...CLIENT_PROFILES]),
    contextWindow: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000_000 })),
  },
  { additionalProperties: false },
);

export const SessionSettingsSchema = Type.Object(
  {
    workdir: Type.String({ minLength: 1, maxLength: 4096 }),
    provider: Type.String({ minLength: 1, maxLength: 64 }),
    model: Type.String({ maxLength: 256 }),
    permissionMode: Type.Enum([...PERMISSION_MODES]),
    disclosure: Type.Enum([...DISCLOSURE_MODES]),
    /** Scenario file for the scripted provider (path relative to the repo's scenarios/ or absolute). */
    scenario: Type.Optional(Type.String({ maxLength: 4096 })),
    /** Experiment: refresh tool definitions every iteration (a labelled deviation from the design). */
    refreshToolsEachIteration: Type.Optional(Type.Boolean()),
    /** Network inside the sandbox for this session's commands (default off). */
    allowNetwork: Type.Optional(Type.Boolean()),
    /** Trim the skills index as a client would (issue 14; absent or null: off, the bytes are unchanged). */
    catalogBudget: Type.Optional(Type.Union([catalogBudgetSchema, Type.Null()])),
    /** Set when the scenario is a recorded session (imported): the recording's session id or name. */
    replayOf: Type.Optional(Type.String({ maxLength: 256 })),
    /** A replay's recorded user messages, in order: the page offers them to send (absent in older logs). */
    replayMessages: Type.Optional(Type.Array(Type.String({ maxLength: 100_000 }), { maxItems: 500 })),
    /** Anthropic breakpoints: the stable block only, or also the conversation's last block (default rolling). */
    cacheBreakpoints: Type.Optional(Type.Union([Type.Literal("stable"), Type.Literal("rolling")])),
    /** Scripted and manual sessions: the model whose caching rules the prediction applies. */
    cacheAs: Type.Optional(Type.String({ maxLength: 256 })),
    /** Experiment: active SOPs in the environment (the design), the load_skill result, or a mid-conversation system message. */
    skillPlacement: Type.Optional(
      Type.Union([Type.Literal("environment"), Type.Literal("message"), Type.Literal("system")]),
    ),
    /** Ask the provider for its cache diagnostics (Anthropic `diagnostics`); absent: on. */
    cacheDiagnostics: Type.Optional(Type.Boolean()),
    /**
     * Honour a loaded skill's `allowed-tools` as allow rules while it is active (default off; a project
     * skill's only once the folder is trusted).
     */
    honourAllowedTools: Type.Optional(Type.Boolean()),
    /**
     * Skills served by MCP servers whose `allowed-tools` the person granted (SEP-2640: ignored unless
     * granted), each by its consent key: `mcp:<server> <uri> <file set sha256>`, so a changed skill loses it.
     */
    mcpSkillGrants: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 4096 }), { maxItems: 256, uniqueItems: true }),
    ),
    /** The catalog's lint profile: which notes refuse a skill (default lenient: none). */
    lintProfile: Type.Optional(Type.Enum([...LINT_PROFILE_NAMES])),
  },
  { additionalProperties: false },
);
export type SessionSettings = Static<typeof SessionSettingsSchema>;

const createSettings = Type.Partial(SessionSettingsSchema, { additionalProperties: false });
const updateSettings = Type.Partial(Type.Omit(SessionSettingsSchema, ["workdir"]), {
  additionalProperties: false,
});
const confirm = Type.Array(Type.Enum([...CONFIRMATIONS]), { maxItems: 4, uniqueItems: true });

export const ApprovalAnswerSchema = Type.Union([
  Type.Object({ kind: Type.Literal("allow_once") }, { additionalProperties: false }),
  Type.Object({ kind: Type.Literal("allow_session") }, { additionalProperties: false }),
  Type.Object(
    { kind: Type.Literal("deny"), reason: Type.Optional(Type.String({ maxLength: 4096 })) },
    { additionalProperties: false },
  ),
]);
export type ApprovalAnswer = Static<typeof ApprovalAnswerSchema>;

const text = Type.String({ maxLength: 1_000_000 });
/** One edited part of a request (server/protocol/branch.ts RequestEdit). */
export const RequestEditSchema = Type.Union([
  Type.Object({ kind: Type.Literal("stable"), text }, { additionalProperties: false }),
  Type.Object(
    { kind: Type.Literal("environment"), section: Type.String({ minLength: 1, maxLength: 256 }), text },
    { additionalProperties: false },
  ),
  Type.Object(
    { kind: Type.Literal("message"), index: Type.Integer({ minimum: 0 }), content: text },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      kind: Type.Literal("tool"),
      name: Type.String({ minLength: 1, maxLength: 128 }),
      description: Type.Optional(text),
      inputSchema: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      kind: Type.Literal("skill_description"),
      skill: Type.String({ minLength: 1, maxLength: 128 }),
      description: Type.String({ minLength: 1, maxLength: 100_000 }),
    },
    { additionalProperties: false },
  ),
]);

function command<K extends string, P extends Record<string, TSchema>>(type: K, properties: P) {
  return Type.Object({ type: Type.Literal(type), ...properties }, { additionalProperties: false });
}

/**
 * `batchLive` (create_session, open_session, fork_request): the live events the server produces in one
 * turn of its event loop (a burst of text deltas) come as one `events` frame instead of one `event` each;
 * an event alone still comes as an `event`. Order and seqs are unchanged.
 */
const batchLive = Type.Optional(Type.Boolean());

/** One schema per command type, so an error names the command and the field instead of an anyOf soup. */
export const commandSchemas = {
  list_providers: command("list_providers", {}),
  list_sessions: command("list_sessions", {}),
  create_session: command("create_session", {
    settings: Type.Optional(createSettings),
    /** What the user confirmed (a broad workdir, bypassPermissions); refused with `confirmation_required` otherwise. */
    confirm: Type.Optional(confirm),
    batchLive,
  }),
  /** `batchReplay`: the stored events after `lastSeq` come as `events` frames (a few) instead of one `event` each. */
  open_session: command("open_session", {
    sessionId,
    lastSeq: Type.Optional(Type.Integer({ minimum: 0 })),
    batchReplay: Type.Optional(Type.Boolean()),
    batchLive,
  }),
  delete_session: command("delete_session", { sessionId }),
  /**
   * Answered with `session_export` carrying the session's JSONL log; with `format` html, scenario or
   * otlp, with `session_file` carrying one self-contained HTML page, a scenario YAML that replays it, or
   * an OpenTelemetry trace (OTLP/JSON, no prompt or completion text).
   */
  export_session: command("export_session", {
    sessionId,
    format: Type.Optional(Type.Enum(["jsonl", "html", "scenario", "otlp"])),
  }),
  /** A scenario YAML (e.g. a recorded session) the session's scripted model plays from now on. */
  import_scenario: command("import_scenario", {
    sessionId,
    fileName: Type.String({ minLength: 1, maxLength: 256 }),
    yaml: Type.String({ minLength: 1, maxLength: 900_000 }),
    /**
     * Play it in a new session (the open one's workdir and modes, the scripted model), which this
     * connection then opens; without it, the session `sessionId` plays it from its next message.
     */
    newSession: Type.Optional(Type.Boolean()),
  }),
  update_session: command("update_session", {
    sessionId,
    settings: updateSettings,
    /** Switching to bypassPermissions needs `bypass_permissions` here. */
    confirm: Type.Optional(confirm),
  }),
  /**
   * Trust the session's workdir: its own allow rules (and MCP servers) take effect. `digest`: the grants
   * the prompt showed (trust covers exactly those); `networkServers`: its MCP servers given network.
   */
  trust_folder: command("trust_folder", {
    sessionId,
    remember: Type.Boolean(),
    digest: Type.Optional(Type.String({ maxLength: 80 })),
    networkServers: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 100 }),
    ),
  }),
  send_message: command("send_message", {
    sessionId,
    text: Type.String({ minLength: 1, maxLength: 200_000 }),
    /** Plan mode for this run: only read-only tools are offered (`cli run --plan`). */
    planMode: Type.Optional(Type.Boolean()),
  }),
  cancel: command("cancel", { sessionId }),
  approval_answer: command("approval_answer", {
    sessionId,
    callId: Type.String({ minLength: 1, maxLength: 256 }),
    answer: ApprovalAnswerSchema,
  }),
  reload_catalog: command("reload_catalog", { sessionId }),
  /** What listing and loading one skill cost in tokens, counted on the server; answered with `skill_figures`. */
  skill_figures: command("skill_figures", {
    sessionId,
    name: Type.String({ minLength: 1, maxLength: 128 }),
  }),
  /** Ends the session's MCP server of this name and starts it again (after a crash or a failed start). */
  mcp_reconnect: command("mcp_reconnect", {
    sessionId,
    server: Type.String({ minLength: 1, maxLength: 64 }),
  }),
  run_tool: command("run_tool", {
    sessionId,
    requestId: Type.String({ minLength: 1, maxLength: 128 }),
    tool: Type.String({ minLength: 1, maxLength: 128 }),
    input: Type.Unknown(),
  }),
  /**
   * One chunk of a skill .zip for "Add skill" (frames are at most 1 MiB, so an archive travels in chunks
   * of at most 512 KiB, base64). A new `uploadId` discards the connection's previous upload.
   */
  skill_upload: command("skill_upload", {
    sessionId,
    uploadId: Type.String({ minLength: 1, maxLength: 64, pattern: "^[A-Za-z0-9_-]+$" }),
    index: Type.Integer({ minimum: 0, maximum: 63 }),
    count: Type.Integer({ minimum: 1, maximum: 64 }),
    data: Type.String({ maxLength: 700_000, pattern: "^[A-Za-z0-9+/]*={0,2}$" }),
  }),
  /** Plans (`dryRun`) or installs the uploaded .zip; answered with `skill_install`. */
  install_skill: command("install_skill", {
    sessionId,
    uploadId: Type.String({ minLength: 1, maxLength: 64, pattern: "^[A-Za-z0-9_-]+$" }),
    fileName: Type.String({ minLength: 1, maxLength: 256 }),
    layer: Type.Enum(["user", "project"]),
    dryRun: Type.Boolean(),
    force: Type.Boolean(),
  }),
  /** Start the trigger lab on the session's workdir and provider; progress arrives as trigger_lab_* events. */
  start_trigger_lab: command("start_trigger_lab", {
    sessionId,
    /** The eval file, relative to the workdir (default .PseudoClaude/evals/triggers.yaml); must be inside it. */
    evalPath: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
    runs: Type.Integer({ minimum: 1, maximum: 20 }),
    concurrency: Type.Optional(Type.Integer({ minimum: 1, maximum: 16 })),
    /** The B side: this skill's description replaced. */
    ablation: Type.Optional(
      Type.Object(
        {
          skill: Type.String({ minLength: 1, maxLength: 128 }),
          description: Type.String({ minLength: 1, maxLength: 4096 }),
        },
        { additionalProperties: false },
      ),
    ),
    /** The skill a skill-creator JSON eval file (a list of {query, should_trigger}) tests. */
    skill: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    /** Also run every probe with an empty skills index. */
    withoutSkills: Type.Optional(Type.Boolean()),
    ...spendCaps,
    /** Say what it would cost (trigger_lab_started's estimate) and send nothing. */
    estimateOnly: Type.Optional(Type.Boolean()),
  }),
  cancel_trigger_lab: command("cancel_trigger_lab", { sessionId }),
  /**
   * The description optimizer (issue 25) on the session's workdir and provider. A real model proposes
   * the descriptions; offline (router, scripted) the person does, answering optimizer_proposal_requested.
   */
  start_optimizer: command("start_optimizer", {
    sessionId,
    skill: Type.String({ minLength: 1, maxLength: 128 }),
    evalPath: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
    runs: Type.Integer({ minimum: 1, maximum: 20 }),
    iterations: Type.Optional(Type.Integer({ minimum: 1, maximum: 20 })),
    holdout: Type.Optional(Type.Number({ minimum: 0, maximum: 0.9 })),
    seed: Type.Optional(Type.Integer({ minimum: 0, maximum: 4294967295 })),
    ...spendCaps,
  }),
  /** The person's proposal when they are the improver (the text of the next description). */
  optimizer_proposal: command("optimizer_proposal", {
    sessionId,
    description: Type.String({ minLength: 1, maxLength: 4096 }),
  }),
  cancel_optimizer: command("cancel_optimizer", { sessionId }),
  /** Writes this description into the skill's SKILL.md (project or user layer); answered with description_applied. */
  apply_description: command("apply_description", {
    sessionId,
    skill: Type.String({ minLength: 1, maxLength: 128 }),
    description: Type.String({ minLength: 1, maxLength: 1024 }),
  }),
  /** Answered with a catalog_budget_report event: which descriptions a client would cut or drop. */
  catalog_budget: command("catalog_budget", {
    sessionId,
    profile: Type.Enum([...CLIENT_PROFILES]),
    contextWindow: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000_000 })),
  }),
  manual_response: command("manual_response", {
    sessionId,
    requestIndex: Type.Integer({ minimum: 1 }),
    text: Type.String({ maxLength: 200_000 }),
    toolCalls: Type.Array(
      Type.Object(
        { name: Type.String({ minLength: 1, maxLength: 128 }), input: Type.Unknown() },
        { additionalProperties: false },
      ),
      { maxItems: 64 },
    ),
  }),
  /**
   * Edit & resend (kind "edit") or Rerun from here (kind "rerun", no edits) of request #requestIndex: a new
   * branch session, opened on this connection like create_session. Provider and model default to the
   * origin's.
   */
  fork_request: command("fork_request", {
    sessionId,
    requestIndex: Type.Integer({ minimum: 1 }),
    kind: Type.Union([Type.Literal("edit"), Type.Literal("rerun")]),
    edits: Type.Array(RequestEditSchema, { maxItems: 256 }),
    provider: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    batchLive,
    model: Type.Optional(Type.String({ maxLength: 256 })),
  }),
  /** Answered with `session_runs`: the session's runs for the compare view (does not open the session's stream). */
  get_runs: command("get_runs", { sessionId }),
};

type CommandSchemas = typeof commandSchemas;
export type ClientCommand = { [K in keyof CommandSchemas]: Static<CommandSchemas[K]> }[keyof CommandSchemas];

const validators = new Map<string, Validator<ClientCommand>>(
  Object.entries(commandSchemas).map(([type, schema]) => [
    type,
    mustCompile<ClientCommand>(schema, { root: "(command)" }),
  ]),
);

export type CommandParse = { ok: true; command: ClientCommand } | { ok: false; message: string };

/** Parses one text frame: JSON, then a known `type`, then that command's schema. */
export function parseClientCommand(text: string): CommandParse {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `frame is not valid JSON: ${(error as Error).message}` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, message: 'frame must be a JSON object with a string "type"' };
  }
  const type = (value as { type?: unknown }).type;
  if (typeof type !== "string") return { ok: false, message: 'frame has no string "type" field' };
  const validate = validators.get(type);
  if (!validate) {
    return {
      ok: false,
      message: `unknown command type "${type.slice(0, 64)}"; known: ${[...validators.keys()].join(", ")}`,
    };
  }
  const checked = validate(value);
  if (!checked.ok) return { ok: false, message: `invalid ${type}: ${checked.message}` };
  return { ok: true, command: checked.value };
}
