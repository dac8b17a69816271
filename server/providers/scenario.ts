// The YAML scenario format of the scripted provider (DESIGN.md §1 "Scenario format"). A scenario is checked
// completely at load time so a typo is reported once, with the file and the field, before any run starts.
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { parseDocument } from "yaml";
import { PlaygroundError, errorMessage } from "../errors/index.ts";
import { tryLinearRegExp, type LinearRegExp } from "../protocol/linear-regex.ts";

export interface ScenarioToolCall {
  name: string;
  input: Record<string, unknown>;
}

/**
 * What the recorded model was sent for this turn (optional, written by `export --format scenario`). A
 * replay compares the request it sees with it and reports where the two diverge (scenario-divergence.ts).
 */
export interface RecordedRequest {
  /** Names of the tool definitions sent, in order. */
  tools?: string[];
  /** sha256 hex of the stable system. */
  stableSha256?: string;
  /** The working directory the environment named. */
  workdir?: string;
  /** Messages in the conversation sent. */
  messages?: number;
  /** sha256 hex of the last message's content. */
  lastMessageSha256?: string;
}

/**
 * What a turn speaks of, to be found in the tool results of the run it is played in (each string in one
 * of the results sent since the last user message). A scripted line is fixed text: a finding about a
 * file must come from a run that read that file as the line says, or the line would be false on another
 * folder (scripted.ts plays `otherwise` then).
 */
export interface TurnCondition {
  resultsContain: string[];
}

export interface ScenarioTurn {
  text?: string;
  toolCalls: ScenarioToolCall[];
  /** Played only when this holds; else `otherwise` is, and the scenario ends there. */
  when?: TurnCondition;
  /** The final answer played in the turn's place when `when` does not hold (a default says why). */
  otherwise?: string;
  /** The request the recorded model answered with this turn (absent in hand-written scenarios). */
  request?: RecordedRequest;
}

/** Where a recorded scenario came from (optional; `export --format scenario` writes it). */
export interface ScenarioRecording {
  session?: string;
  provider?: string;
  model?: string;
  at?: string;
  /** The user messages of the recorded conversation, in order: replay them to reach the same calls. */
  messages?: string[];
}

export interface Scenario {
  name: string;
  /** Source of `match`, kept for display. */
  match?: string;
  /** `match` compiled for the linear-time engine: a scenario or eval file is not trusted (S18). */
  matcher?: LinearRegExp;
  turns: ScenarioTurn[];
  /** Set when the scenario is a recorded session (a replay). */
  recorded?: ScenarioRecording;
  /** File the scenario came from (as given to the loader), for error messages and labels. */
  file: string;
}

const SCENARIO_KEYS = new Set(["name", "match", "turns", "description", "recorded"]);
const TURN_KEYS = new Set(["text", "tool_calls", "request", "when", "otherwise"]);
const WHEN_KEYS = new Set(["results_contain"]);
const REQUEST_KEYS = new Set(["tools", "stable_sha256", "workdir", "messages", "last_message_sha256"]);
const RECORDED_KEYS = new Set(["session", "provider", "model", "at", "messages"]);
const CALL_KEYS = new Set(["name", "input"]);

function invalid(file: string, problem: string): PlaygroundError {
  return new PlaygroundError("invalid_scenario", `${file}: ${problem}`, { file });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function rejectUnknownKeys(file: string, where: string, value: Record<string, unknown>, known: Set<string>) {
  for (const key of Object.keys(value)) {
    if (!known.has(key)) {
      const expected = [...known].join(", ");
      throw invalid(
        file,
        `${where}${where ? "." : ""}${key} is not a known field (expected one of: ${expected})`,
      );
    }
  }
}

function parseToolCall(file: string, where: string, value: unknown): ScenarioToolCall {
  if (!isPlainObject(value)) throw invalid(file, `${where} must be an object with name and input`);
  rejectUnknownKeys(file, where, value, CALL_KEYS);
  if (typeof value.name !== "string" || value.name.trim() === "") {
    throw invalid(file, `${where}.name must be a non-empty string`);
  }
  if (value.input !== undefined && !isPlainObject(value.input)) {
    throw invalid(file, `${where}.input must be an object (a mapping of argument names to values)`);
  }
  return { name: value.name, input: (value.input as Record<string, unknown> | undefined) ?? {} };
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

function parseRecordedRequest(file: string, where: string, value: unknown): RecordedRequest {
  if (!isPlainObject(value))
    throw invalid(file, `${where} must be a mapping (what the recorded model was sent)`);
  rejectUnknownKeys(file, where, value, REQUEST_KEYS);
  const request: RecordedRequest = {};
  if (value.tools !== undefined) {
    if (!isStringList(value.tools)) throw invalid(file, `${where}.tools must be a list of tool names`);
    request.tools = value.tools;
  }
  for (const [key, field] of [
    ["stable_sha256", "stableSha256"],
    ["workdir", "workdir"],
    ["last_message_sha256", "lastMessageSha256"],
  ] as const) {
    if (value[key] === undefined) continue;
    if (typeof value[key] !== "string") throw invalid(file, `${where}.${key} must be a string`);
    request[field] = value[key];
  }
  if (value.messages !== undefined) {
    if (!Number.isInteger(value.messages)) throw invalid(file, `${where}.messages must be an integer`);
    request.messages = value.messages as number;
  }
  return request;
}

function parseRecording(file: string, value: unknown): ScenarioRecording {
  if (!isPlainObject(value))
    throw invalid(file, "recorded must be a mapping (where the recording came from)");
  rejectUnknownKeys(file, "recorded", value, RECORDED_KEYS);
  const recording: ScenarioRecording = {};
  for (const key of ["session", "provider", "model", "at"] as const) {
    if (value[key] === undefined) continue;
    if (typeof value[key] !== "string") throw invalid(file, `recorded.${key} must be a string`);
    recording[key] = value[key];
  }
  if (value.messages !== undefined) {
    if (!isStringList(value.messages)) throw invalid(file, "recorded.messages must be a list of strings");
    recording.messages = value.messages;
  }
  return recording;
}

function parseCondition(file: string, where: string, value: unknown): TurnCondition {
  if (!isPlainObject(value))
    throw invalid(file, `${where} must be a mapping (results_contain: the text the run's tool results hold)`);
  rejectUnknownKeys(file, where, value, WHEN_KEYS);
  const contain = value.results_contain;
  const list = typeof contain === "string" ? [contain] : contain;
  if (!isStringList(list) || list.length === 0 || list.some((text) => text === ""))
    throw invalid(file, `${where}.results_contain must be a non-empty string or a list of them`);
  return { resultsContain: list };
}

function parseTurn(file: string, index: number, value: unknown): ScenarioTurn {
  const where = `turns[${index}]`;
  if (!isPlainObject(value)) throw invalid(file, `${where} must be an object with text and/or tool_calls`);
  rejectUnknownKeys(file, where, value, TURN_KEYS);
  if (value.text !== undefined && typeof value.text !== "string") {
    throw invalid(file, `${where}.text must be a string`);
  }
  if (value.tool_calls !== undefined && !Array.isArray(value.tool_calls)) {
    throw invalid(file, `${where}.tool_calls must be a list`);
  }
  const toolCalls = ((value.tool_calls as unknown[] | undefined) ?? []).map((call, callIndex) =>
    parseToolCall(file, `${where}.tool_calls[${callIndex}]`, call),
  );
  const text = value.text as string | undefined;
  if ((text === undefined || text === "") && toolCalls.length === 0) {
    throw invalid(file, `${where} must have a non-empty text or at least one tool_calls entry`);
  }
  const request =
    value.request === undefined ? undefined : parseRecordedRequest(file, `${where}.request`, value.request);
  const when = value.when === undefined ? undefined : parseCondition(file, `${where}.when`, value.when);
  if (value.otherwise !== undefined) {
    if (typeof value.otherwise !== "string" || value.otherwise === "")
      throw invalid(
        file,
        `${where}.otherwise must be a non-empty string (the answer when \`when\` does not hold)`,
      );
    if (!when) throw invalid(file, `${where}.otherwise needs a when (it is played when that does not hold)`);
  }
  return {
    ...(text ? { text } : {}),
    toolCalls,
    ...(request ? { request } : {}),
    ...(when ? { when } : {}),
    ...(typeof value.otherwise === "string" ? { otherwise: value.otherwise } : {}),
  };
}

/** Parses and checks scenario YAML. `file` is only used to name the source in errors. */
export function parseScenario(source: string, file: string): Scenario {
  const document = parseDocument(source, { prettyErrors: true });
  if (document.errors.length > 0) {
    const first = document.errors[0];
    const position = first.linePos?.[0];
    const at = position ? ` at line ${position.line}, column ${position.col}` : "";
    throw invalid(
      file,
      `YAML error${at}: ${first.message.split("\n")[0].replace(/ at line \d+, column \d+:?$/, "")}`,
    );
  }
  const value: unknown = document.toJS();
  if (!isPlainObject(value)) throw invalid(file, "the file must be a YAML mapping with name and turns");
  rejectUnknownKeys(file, "", value, SCENARIO_KEYS);
  if (typeof value.name !== "string" || value.name.trim() === "") {
    throw invalid(file, "name must be a non-empty string");
  }
  let matcher: LinearRegExp | undefined;
  if (value.match !== undefined) {
    if (typeof value.match !== "string" || value.match === "") {
      throw invalid(file, "match must be a non-empty string (a regular expression)");
    }
    const compiled = tryLinearRegExp(value.match, "i");
    if (!compiled.ok) throw invalid(file, `match ${compiled.error.reason}`);
    matcher = compiled.regex;
  }
  if (!Array.isArray(value.turns) || value.turns.length === 0) {
    throw invalid(file, "turns must be a non-empty list");
  }
  const turns = value.turns.map((turn, index) => parseTurn(file, index, turn));
  return {
    name: value.name,
    ...(matcher ? { match: value.match as string, matcher } : {}),
    turns,
    ...(value.recorded !== undefined ? { recorded: parseRecording(file, value.recorded) } : {}),
    file,
  };
}

export async function loadScenario(file: string): Promise<Scenario> {
  let source: string;
  try {
    source = await readFile(file, "utf8");
  } catch (error) {
    throw new PlaygroundError(
      "invalid_scenario",
      `${file}: cannot read the scenario file: ${errorMessage(error)}`,
      {
        file,
      },
    );
  }
  return parseScenario(source, file);
}

/** Every `*.yaml` / `*.yml` of a folder, sorted by file name so the choice of scenario is deterministic. */
export async function loadScenarioDirectory(directory: string): Promise<Scenario[]> {
  let entries: string[];
  try {
    entries = await readdir(directory);
  } catch (error) {
    throw new PlaygroundError(
      "invalid_scenario",
      `${directory}: cannot read the scenario folder: ${errorMessage(error)}`,
      { file: directory },
    );
  }
  const files = entries.filter((entry) => /\.ya?ml$/i.test(entry)).sort();
  // Otherwise every message would get "the scenario has no more turns" with no hint why.
  if (files.length === 0) {
    throw new PlaygroundError(
      "invalid_scenario",
      `${directory}: the scenario folder has no *.yaml or *.yml file`,
      { file: directory },
    );
  }
  const scenarios: Scenario[] = [];
  for (const entry of files) scenarios.push(await loadScenario(path.join(directory, entry)));
  return scenarios;
}
