// The description router (issue 25): an offline stand-in model that, unlike the scripted one, reads the
// skill descriptions. It is not a language model and says so everywhere (ROUTER_LABEL). For each new user
// message it scores every index line of the stable system (router-score.ts) and calls load_skill for the
// best skill at or above the threshold, or loads none. It then plays that skill's scenario (a scenario of
// scenarios/ whose turns load the skill: the turns after that load), or answers in one short sentence.
// Its decision, with every skill's score, rides on the payload event as `routing` (the inspector's "why
// this skill"). Editing a description therefore changes what it loads, which the scripted model cannot show.
import { randomBytes } from "node:crypto";
import { LOAD_SKILL_TOOL_NAME, type ToolCall } from "../protocol/model.ts";
import { ROUTER_LABEL, type RoutingDecision } from "../protocol/routing.ts";
import { DEFAULT_THRESHOLD, parseIndex, route } from "./router-score.ts";
import type { Scenario, ScenarioToolCall } from "./scenario.ts";
import { expandSkillDirs } from "./scenario-placeholders.ts";
import { lastUserMessageKey, lastUserText, splitIntoChunks, waitUnlessAborted } from "./scripted.ts";
import type { ModelRequest, Provider, ProviderEvent } from "./types.ts";

export const ROUTER_MODEL = "description-router";

export interface RouterProviderOptions {
  /** Scenarios to continue with once a skill is loaded (recorded sessions are left out). Default none. */
  scenarios?: readonly Scenario[];
  threshold?: number;
  chunkDelayMs?: number;
}

interface Turn {
  text: string;
  toolCalls: ScenarioToolCall[];
}

interface Playing {
  scenario: Scenario;
  /** Index of the next scenario turn to play. */
  next: number;
}

/** Skills active in the request: its environment sections after the base block, by name. */
export function activeSkillsIn(request: ModelRequest): string[] {
  return (request.environmentSections ?? []).slice(1).map((section) => section.name);
}

function loadsSkill(call: ScenarioToolCall, skill: string): boolean {
  return call.name === LOAD_SKILL_TOOL_NAME && (call.input as { name?: unknown }).name === skill;
}

/** The turn of `scenario` that loads `skill`, or -1. */
function loadTurnOf(scenario: Scenario, skill: string): number {
  return scenario.turns.findIndex((turn) => turn.toolCalls.some((call) => loadsSkill(call, skill)));
}

export class RouterProvider implements Provider {
  readonly name = "router";
  readonly model = ROUTER_MODEL;
  private readonly scenarios: readonly Scenario[];
  private readonly threshold: number;
  private readonly chunkDelayMs: number;
  private playing: Playing | undefined;
  private seenUserMessage: string | undefined;
  private callCounter = 0;
  private readonly callIdPrefix = `call_${randomBytes(3).toString("hex")}`;

  constructor(options: RouterProviderOptions = {}) {
    this.scenarios = (options.scenarios ?? []).filter((scenario) => !scenario.recorded);
    this.threshold = options.threshold ?? DEFAULT_THRESHOLD;
    this.chunkDelayMs = options.chunkDelayMs ?? 0;
  }

  /** The scenario that plays `skill` for this message: one whose match fits, else one named after it, else the first. */
  private scenarioFor(skill: string, message: string): Scenario | undefined {
    const candidates = this.scenarios.filter((scenario) => loadTurnOf(scenario, skill) !== -1);
    const firstLine = message.split("\n", 1)[0];
    return (
      candidates.find((scenario) => scenario.matcher?.test(firstLine)) ??
      candidates.find((scenario) => scenario.name === skill) ??
      candidates[0]
    );
  }

  private startScenario(skill: string, message: string): Scenario | undefined {
    const scenario = this.scenarioFor(skill, message);
    this.playing = scenario ? { scenario, next: loadTurnOf(scenario, skill) + 1 } : undefined;
    return scenario;
  }

  private routeTurn(request: ModelRequest, decision: RoutingDecision): Turn {
    const message = lastUserText(request);
    const active = activeSkillsIn(request);
    const best = decision.scores[0];
    if (decision.chosen) {
      const scenario = this.startScenario(decision.chosen, message);
      const loadCall = scenario?.turns[loadTurnOf(scenario, decision.chosen)].toolCalls.find((call) =>
        loadsSkill(call, decision.chosen!),
      );
      const args = (loadCall?.input as { arguments?: unknown } | undefined)?.arguments;
      return {
        text: `(${ROUTER_LABEL}) ${decision.reason}: loading it.`,
        toolCalls: [
          {
            name: LOAD_SKILL_TOOL_NAME,
            input: { name: decision.chosen, ...(typeof args === "string" ? { arguments: args } : {}) },
          },
        ],
      };
    }
    if (best && active.includes(best.skill) && best.score >= decision.threshold) {
      // A slash invocation (or a skill loaded earlier): play its scenario from after the load.
      const scenario = this.startScenario(best.skill, message);
      if (scenario) return this.nextScenarioTurn(request) ?? this.closingTurn(request);
    }
    this.playing = undefined;
    return {
      text: `(${ROUTER_LABEL}) ${decision.reason}, so I load no skill. I can only choose skills by their descriptions; pick a real model for an actual answer.`,
      toolCalls: [],
    };
  }

  private nextScenarioTurn(request: ModelRequest): Turn | undefined {
    const playing = this.playing;
    if (!playing || playing.next >= playing.scenario.turns.length) return undefined;
    const turn = playing.scenario.turns[playing.next];
    playing.next += 1;
    return {
      text: turn.text ?? "",
      toolCalls: turn.toolCalls.map((call) => ({
        name: call.name,
        input: expandSkillDirs(structuredClone(call.input), request),
      })),
    };
  }

  private closingTurn(request: ModelRequest): Turn {
    const active = activeSkillsIn(request);
    const scenario = this.playing?.scenario.name;
    this.playing = undefined;
    return {
      text: scenario
        ? `(${ROUTER_LABEL}) The scenario "${scenario}" has no more turns.`
        : `(${ROUTER_LABEL}) ${active.length > 0 ? `${active.join(", ")} is loaded, but` : "Nothing is loaded and"} no scenario plays it; a real model would now follow its SOP.`,
      toolCalls: [],
    };
  }

  async *stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ProviderEvent> {
    const key = lastUserMessageKey(request);
    let decision: RoutingDecision | undefined;
    let turn: Turn;
    if (key !== this.seenUserMessage) {
      this.seenUserMessage = key;
      decision = route(
        lastUserText(request),
        parseIndex(request.system.stable),
        activeSkillsIn(request),
        this.threshold,
      );
      turn = this.routeTurn(request, decision);
    } else {
      turn = this.nextScenarioTurn(request) ?? this.closingTurn(request);
    }
    const playing = this.playing;
    yield {
      type: "payload",
      payload: {
        provider: "router",
        label: ROUTER_LABEL,
        scenario: playing ? { name: playing.scenario.name, file: playing.scenario.file } : null,
        ...(decision ? { routing: decision } : {}),
      },
      ...(decision ? { routing: decision } : {}),
    };
    for (const chunk of turn.text ? splitIntoChunks(turn.text) : []) {
      if (signal.aborted) {
        yield { type: "error", message: "request canceled" };
        return;
      }
      if (this.chunkDelayMs > 0) await waitUnlessAborted(this.chunkDelayMs, signal);
      yield { type: "text_delta", text: chunk };
    }
    for (const scripted of turn.toolCalls) {
      this.callCounter += 1;
      const call: ToolCall = {
        id: `${this.callIdPrefix}_${this.callCounter}`,
        name: scripted.name,
        input: scripted.input,
      };
      yield { type: "tool_call", call };
    }
    if (signal.aborted) {
      yield { type: "error", message: "request canceled" };
      return;
    }
    yield {
      type: "usage",
      usage: {
        outputTokens: turn.text ? splitIntoChunks(turn.text).length : 0,
        source: "estimate",
        estimate: `${ROUTER_LABEL}: streamed chunks, not tokens`,
      },
    };
    yield { type: "done" };
  }
}
