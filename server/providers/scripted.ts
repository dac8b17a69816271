// The offline stand-in model: it plays the turns of a YAML scenario, one turn per model request. It never
// looks at the prompt except to notice a new user message, which may start another scenario, to read
// a loaded skill's base directory for `{{skill_dir:NAME}}` in a tool call, and to see whether a tool is in
// the request's tool list for `{{tool_status:NAME}}` in a line (scenario-placeholders.ts), and to check
// a turn's `when` against the tool results of the run (a finding is played only where it was read).
import { randomBytes } from "node:crypto";
import type { ToolCall } from "../protocol/model.ts";
import type { Scenario, ScenarioTurn } from "./scenario.ts";
import { expandSkillDirs, expandToolStatus } from "./scenario-placeholders.ts";
import { requestDivergence } from "./scenario-divergence.ts";
import type { ModelRequest, Provider, ProviderEvent } from "./types.ts";

export const SCENARIO_EXHAUSTED_TEXT = "(scripted model: the scenario has no more turns)";

export interface ScriptedProviderOptions {
  /** Pause between streamed chunks, so a browser can show the text arriving. Default 0. */
  chunkDelayMs?: number;
  /** Model label; default `scripted-<scenario name>` (one scenario) or `scripted-scenarios` (a folder). */
  model?: string;
}

/** Splits text into word chunks that keep their trailing whitespace, so joining them gives the text back. */
export function splitIntoChunks(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? [text];
}

export function lastUserMessageKey(request: ModelRequest): string | undefined {
  for (let index = request.messages.length - 1; index >= 0; index -= 1) {
    const message = request.messages[index];
    if (message.role === "user") return `${index}\u0000${message.content}`;
  }
  return undefined;
}

export function lastUserText(request: ModelRequest): string {
  for (let index = request.messages.length - 1; index >= 0; index -= 1) {
    const message = request.messages[index];
    if (message.role === "user") return message.content;
  }
  return "";
}

export function waitUnlessAborted(milliseconds: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, milliseconds);
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** The texts of `wanted` that no tool result since the last user message holds. */
export function missingFromResults(wanted: readonly string[], request: ModelRequest): string[] {
  const results: string[] = [];
  for (let index = request.messages.length - 1; index >= 0; index -= 1) {
    const message = request.messages[index];
    if (message.role === "user") break;
    if (message.role === "tool") results.push(message.content);
  }
  return wanted.filter((text) => !results.some((result) => result.includes(text)));
}

/** The answer of a conditional turn without its own `otherwise`. */
function notShownText(missing: readonly string[]): string {
  const quoted = missing.map((text) => `\`${text.split("\n", 1)[0]}\``).join(", ");
  return `(scripted model: this scenario's next answer is about ${quoted}, which the tool results of this run do not show, so it is not played here.)`;
}

/**
 * Plays scenarios. With one scenario, its turns are played in order across every run of the conversation
 * (so a scenario can span several user messages). With several (a folder), each new user message picks a
 * scenario: the first whose `match` matches (unless it is the one already playing and its last run ended
 * with a final answer, with turns left: then it continues), else the current one on the same condition,
 * else the first scenario without `match`.
 */
export class ScriptedProvider implements Provider {
  readonly name = "scripted";
  readonly model: string;
  private readonly scenarios: readonly Scenario[];
  private readonly chunkDelayMs: number;
  private current: Scenario | undefined;
  private nextTurn = 0;
  private seenUserMessage: string | undefined;
  private callCounter = 0;
  /** Call ids must stay unique in a conversation even if the server creates a new provider per message. */
  private readonly callIdPrefix = `call_${randomBytes(3).toString("hex")}`;

  constructor(scenarios: Scenario | readonly Scenario[], options: ScriptedProviderOptions = {}) {
    this.scenarios = Array.isArray(scenarios) ? scenarios : [scenarios as Scenario];
    this.chunkDelayMs = options.chunkDelayMs ?? 0;
    const single = this.scenarios.length === 1 ? this.scenarios[0] : undefined;
    this.model = options.model ?? (single ? `scripted-${single.name}` : "scripted-scenarios");
    if (single) this.current = single;
  }

  /** The scenario now playing (for labels); undefined before the first message in folder mode. */
  get currentScenario(): Scenario | undefined {
    return this.current;
  }

  private hasTurnsLeft(): boolean {
    return this.current !== undefined && this.nextTurn < this.current.turns.length;
  }

  /**
   * A scenario may span several user messages, but only from a run boundary: the last turn played was a
   * final answer (no tool calls). After a canceled or failed run the next message starts afresh instead of
   * resuming mid-run.
   */
  private canContinue(): boolean {
    if (!this.hasTurnsLeft()) return false;
    const previous = this.nextTurn === 0 ? undefined : this.current!.turns[this.nextTurn - 1];
    return previous === undefined || previous.toolCalls.length === 0;
  }

  private start(scenario: Scenario | undefined): void {
    this.current = scenario;
    this.nextTurn = 0;
  }

  private selectFor(userText: string): void {
    if (this.scenarios.length === 1) return;
    // The first line decides first: for a slash invocation it is the typed `/skill args`, and the SOP
    // below it mentions many words other scenarios match on.
    const firstLine = userText.split("\n", 1)[0];
    const matched =
      this.scenarios.find((scenario) => scenario.matcher?.test(firstLine)) ??
      this.scenarios.find((scenario) => scenario.matcher?.test(userText));
    if (matched) {
      if (matched !== this.current || !this.canContinue()) this.start(matched);
      return;
    }
    if (this.canContinue()) return;
    this.start(this.scenarios.find((scenario) => scenario.matcher === undefined));
  }

  private takeTurn(request: ModelRequest): ScenarioTurn | undefined {
    const key = lastUserMessageKey(request);
    if (key !== this.seenUserMessage) {
      this.seenUserMessage = key;
      this.selectFor(lastUserText(request));
    }
    if (!this.hasTurnsLeft()) return undefined;
    const turn = this.current!.turns[this.nextTurn];
    this.nextTurn += 1;
    const missing = turn.when ? missingFromResults(turn.when.resultsContain, request) : [];
    if (missing.length === 0) return turn;
    // The turn speaks of what this run's tools did not show: its line would be false here. The scenario
    // ends with the `otherwise` answer (the turns after it build on the one skipped).
    this.nextTurn = this.current!.turns.length;
    return { text: turn.otherwise ?? notShownText(missing), toolCalls: [] };
  }

  async *stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ProviderEvent> {
    const turn = this.takeTurn(request);
    // A recorded turn says what its model was sent; a replay that sees something else says where.
    const divergence = turn?.request ? requestDivergence(turn.request, request) : [];
    yield {
      type: "payload",
      payload: {
        provider: "scripted",
        scenario: this.current ? { name: this.current.name, file: this.current.file } : null,
        turn: turn ? this.nextTurn : null,
        ...(this.current?.recorded ? { replay: true } : {}),
        ...(divergence.length > 0 ? { divergence } : {}),
      },
    };
    const text = turn ? expandToolStatus(turn.text ?? "", request.tools) : SCENARIO_EXHAUSTED_TEXT;
    if (text) {
      for (const chunk of splitIntoChunks(text)) {
        if (signal.aborted) {
          yield { type: "error", message: "request canceled" };
          return;
        }
        if (this.chunkDelayMs > 0) await waitUnlessAborted(this.chunkDelayMs, signal);
        yield { type: "text_delta", text: chunk };
      }
    }
    for (const scripted of turn?.toolCalls ?? []) {
      this.callCounter += 1;
      const call: ToolCall = {
        id: `${this.callIdPrefix}_${this.callCounter}`,
        name: scripted.name,
        input: expandSkillDirs(structuredClone(scripted.input), request),
      };
      yield { type: "tool_call", call };
    }
    if (signal.aborted) {
      yield { type: "error", message: "request canceled" };
      return;
    }
    // Not a measurement: the scripted model has no tokenizer, it counts the chunks it streamed.
    const outputTokens = text ? splitIntoChunks(text).length : 0;
    yield {
      type: "usage",
      usage: { outputTokens, source: "estimate", estimate: "scripted model: streamed chunks, not tokens" },
    };
    yield { type: "done" };
  }
}
