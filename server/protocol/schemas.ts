// JSON Schemas mirroring ClientCommand in ./wire.ts, checked on every frame the server receives.
// Keep the two in step: a field added to a command in wire.ts must be added here, or the server refuses it.
import { mustCompile, type Validator } from "./validator.ts";
import type { ClientCommand } from "./wire.ts";

type Schema = Record<string, unknown>;

const sessionId: Schema = { type: "string", minLength: 1, maxLength: 128 };
const permissionMode: Schema = { enum: ["strict", "default", "acceptEdits", "bypassPermissions"] };
const disclosure: Schema = { enum: ["progressive", "eager"] };

const settingsProperties: Record<string, Schema> = {
  provider: { type: "string", minLength: 1, maxLength: 64 },
  model: { type: "string", maxLength: 256 },
  permissionMode,
  disclosure,
  scenario: { type: "string", maxLength: 4096 },
  refreshToolsEachIteration: { type: "boolean" },
  allowNetwork: { type: "boolean" },
};

const confirm: Schema = {
  type: "array",
  maxItems: 4,
  uniqueItems: true,
  items: { enum: ["broad_workdir", "bypass_permissions"] },
};

const createSettings: Schema = {
  type: "object",
  additionalProperties: false,
  properties: { ...settingsProperties, workdir: { type: "string", minLength: 1, maxLength: 4096 } },
};

const updateSettings: Schema = {
  type: "object",
  additionalProperties: false,
  properties: settingsProperties,
};

const approvalAnswer: Schema = {
  oneOf: [
    {
      type: "object",
      additionalProperties: false,
      required: ["kind"],
      properties: { kind: { const: "allow_once" } },
    },
    {
      type: "object",
      additionalProperties: false,
      required: ["kind"],
      properties: { kind: { const: "allow_session" } },
    },
    {
      type: "object",
      additionalProperties: false,
      required: ["kind"],
      properties: { kind: { const: "deny" }, reason: { type: "string", maxLength: 4096 } },
    },
  ],
};

function command(type: string, properties: Record<string, Schema> = {}, required: string[] = []): Schema {
  return {
    type: "object",
    additionalProperties: false,
    required: ["type", ...required],
    properties: { type: { const: type }, ...properties },
  };
}

/** One schema per command type, so an error names the command and the field instead of a oneOf soup. */
export const commandSchemas: Record<ClientCommand["type"], Schema> = {
  list_providers: command("list_providers"),
  list_sessions: command("list_sessions"),
  create_session: command("create_session", { settings: createSettings, confirm }),
  open_session: command("open_session", { sessionId, lastSeq: { type: "integer", minimum: 0 } }, [
    "sessionId",
  ]),
  delete_session: command("delete_session", { sessionId }, ["sessionId"]),
  export_session: command("export_session", { sessionId }, ["sessionId"]),
  update_session: command("update_session", { sessionId, settings: updateSettings, confirm }, [
    "sessionId",
    "settings",
  ]),
  send_message: command(
    "send_message",
    { sessionId, text: { type: "string", minLength: 1, maxLength: 200_000 } },
    ["sessionId", "text"],
  ),
  cancel: command("cancel", { sessionId }, ["sessionId"]),
  approval_answer: command(
    "approval_answer",
    { sessionId, callId: { type: "string", minLength: 1, maxLength: 256 }, answer: approvalAnswer },
    ["sessionId", "callId", "answer"],
  ),
  reload_catalog: command("reload_catalog", { sessionId }, ["sessionId"]),
  trust_folder: command("trust_folder", { sessionId, remember: { type: "boolean" } }, [
    "sessionId",
    "remember",
  ]),
  run_tool: command(
    "run_tool",
    {
      sessionId,
      requestId: { type: "string", minLength: 1, maxLength: 128 },
      tool: { type: "string", minLength: 1, maxLength: 128 },
      input: {},
    },
    ["sessionId", "requestId", "tool", "input"],
  ),
  manual_response: command(
    "manual_response",
    {
      sessionId,
      requestIndex: { type: "integer", minimum: 1 },
      text: { type: "string", maxLength: 200_000 },
      toolCalls: {
        type: "array",
        maxItems: 64,
        items: {
          type: "object",
          additionalProperties: false,
          required: ["name", "input"],
          properties: { name: { type: "string", minLength: 1, maxLength: 128 }, input: {} },
        },
      },
    },
    ["sessionId", "requestIndex", "text", "toolCalls"],
  ),
};

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
