// One probe of the trigger lab: a fresh conversation (the query as the only message) with the real
// stable system, environment and tool definitions, one model request through the real Provider, and the
// first load_skill it asks for. Only load_skill is ever executed, against a Registry of its own that holds
// nothing else, so no other tool can run whatever the model answers; every other call is only recorded.
import { performance } from "node:perf_hooks";
import { errorMessage } from "../errors/index.ts";
import { LOAD_SKILL_TOOL_NAME, type ToolCall, type ToolDefinition, type Usage } from "../protocol/model.ts";
import type { ProbeCheck, ProbeRecord } from "../protocol/trigger-lab.ts";
import { TOKENIZER_NAME } from "../prompt/segments.ts";
import type { QueryChecks } from "./triggers-file.ts";
import type { ModelRequest, Provider } from "../providers/types.ts";
import { ActiveSkills } from "../skills/active-skills.ts";
import type { Catalog } from "../skills/catalog.ts";
import { createLoadSkillTool, runLoadSkill } from "../skills/load-skill-tool.ts";
import { Registry } from "../tools/registry.ts";

/** What every probe of one side of a lab shares (built once: the stable system is the same bytes). */
export interface ProbeSetup {
  catalog: Catalog;
  stable: string;
  environment: string;
  /** The definitions the model sees: the workspace's, as a fresh run would snapshot them. */
  tools: readonly ToolDefinition[];
  workdir: string;
  home: string;
}

interface Response {
  calls: ToolCall[];
  usage?: Usage;
  error?: string;
}

async function oneResponse(
  provider: Provider,
  request: ModelRequest,
  signal: AbortSignal,
): Promise<Response> {
  const calls: ToolCall[] = [];
  let usage: Usage | undefined;
  try {
    for await (const event of provider.stream(request, signal)) {
      if (event.type === "tool_call") calls.push(event.call);
      else if (event.type === "usage") usage = event.usage;
      else if (event.type === "done") return { calls, usage };
      else if (event.type === "error") return { calls, usage, error: event.message };
    }
    return { calls, usage, error: "the provider stream ended without a done or error event" };
  } catch (error) {
    return { calls, error: `the provider failed: ${errorMessage(error)}` };
  }
}

function skillNameOf(call: ToolCall): string | null {
  const input = call.input as { name?: unknown } | null;
  return typeof input?.name === "string" ? input.name : null;
}

/** A Registry with only load_skill in it, over fresh ActiveSkills: the probe's only executable tool. */
function loadOnlyRegistry(catalog: Catalog): Registry {
  const registry = new Registry();
  registry.register(createLoadSkillTool({ catalog, activeSkills: new ActiveSkills(), registry }), {
    protected: true,
  });
  return registry;
}

/** The query's checks beyond triggering, against what the probe saw (one response). */
export function runChecks(checks: QueryChecks, calls: readonly string[], inputTokens: number): ProbeCheck[] {
  const results: ProbeCheck[] = [];
  if (checks.firstTool !== undefined) {
    const first = calls[0];
    results.push({
      name: "first_tool",
      ok: first === checks.firstTool,
      detail: `first tool ${checks.firstTool}, got ${first ?? "no tool call"}`,
    });
  }
  if (checks.neverTool !== undefined) {
    const called = checks.neverTool.filter((name) => calls.includes(name));
    results.push({
      name: "never_tool",
      ok: called.length === 0,
      detail:
        called.length === 0
          ? `never ${checks.neverTool.join(", ")}: not called`
          : `never ${checks.neverTool.join(", ")}, but called ${called.join(", ")}`,
    });
  }
  if (checks.maxInputTokens !== undefined) {
    results.push({
      name: "max_input_tokens",
      ok: inputTokens <= checks.maxInputTokens,
      detail: `at most ${checks.maxInputTokens} input tokens, the request had ${inputTokens}`,
    });
  }
  return results;
}

export interface ProbeOptions {
  checks?: QueryChecks;
  /** The request's input tokens counted here, used when the provider reports none. */
  countedInputTokens?: number;
}

/** A probe's record, with the usage the provider reported (the lab prices it, then drops it). */
export type ProbeOutcomeWithUsage = ProbeRecord & { usage?: Usage };

export async function runProbe(
  query: string,
  setup: ProbeSetup,
  provider: Provider,
  signal: AbortSignal,
  options: ProbeOptions = {},
): Promise<ProbeOutcomeWithUsage> {
  const request: ModelRequest = {
    system: { stable: setup.stable, environment: setup.environment },
    messages: [{ role: "user", content: query }],
    tools: structuredClone([...setup.tools]),
  };
  const started = performance.now();
  const response = await oneResponse(provider, request, signal);
  const durationMs = performance.now() - started;
  const calls = response.calls.map((call) => call.name);
  const reported = response.usage?.source !== "estimate" ? response.usage?.inputTokens : undefined;
  const tokens =
    reported !== undefined
      ? { inputTokens: reported, inputTokensSource: "provider" as const }
      : options.countedInputTokens !== undefined
        ? { inputTokens: options.countedInputTokens, inputTokensSource: TOKENIZER_NAME }
        : {};
  const usage = response.usage ? { usage: response.usage } : {};
  if (response.error !== undefined) {
    return {
      first: null,
      loaded: [],
      outcome: "provider_error",
      calls,
      error: response.error,
      durationMs,
      ...tokens,
      ...usage,
    };
  }
  const loadCalls = response.calls.filter((call) => call.name === LOAD_SKILL_TOOL_NAME);
  const loaded: string[] = [];
  if (loadCalls.length > 0) {
    const registry = loadOnlyRegistry(setup.catalog);
    for (const [index, call] of loadCalls.entries()) {
      const result = await runLoadSkill(
        registry,
        call.input as { name: string; arguments?: string },
        {
          workdir: setup.workdir,
          callId: call.id || `probe_load_${index + 1}`,
          signal,
          sandbox: { network: false, homes: [setup.home] },
        },
        "model",
      );
      const name = skillNameOf(call);
      if (result.ok && name !== null) loaded.push(name);
    }
  }
  const first = loadCalls.length > 0 ? skillNameOf(loadCalls[0]) : null;
  const outcome =
    response.calls.length === 0
      ? "no_tool"
      : response.calls[0].name === LOAD_SKILL_TOOL_NAME
        ? "load_skill"
        : "other_tool_first";
  const checks =
    options.checks === undefined
      ? {}
      : { checks: runChecks(options.checks, calls, tokens.inputTokens ?? options.countedInputTokens ?? 0) };
  return { first, loaded, outcome, calls, durationMs, ...tokens, ...checks, ...usage };
}
