// The ReAct loop of DESIGN.md §1: add the user message → build the stable system once → per iteration
// regather the environment, snapshot the request, stream the model, run its tool calls, repeat.
import { SecretRedactor, SecretScope } from "../providers/redact.ts";
import { randomUUID } from "node:crypto";
import {
  LOAD_SKILL_TOOL_NAME,
  type ChatMessage,
  type DisclosureMode,
  type StopReason,
  type ToolCall,
  type ToolDefinition,
} from "../protocol/model.ts";
import type { RequestSnapshot, RunnerEvent, SkillPlacement } from "../protocol/runner-events.ts";
import { skillBlock } from "../prompt/skill-block.ts";
import { sha256Hex } from "../prompt/hash.ts";
import { buildStableSystem, type ListingBudget, type SkillBody } from "../prompt/stable-system.ts";
import type { PromptItem } from "../skills/types.ts";
import { compareNames } from "../protocol/names.ts";
import type { ModelRequest } from "../providers/types.ts";
import { failResult } from "../tools/types.ts";
import { streamModelResponse } from "./model-response.ts";
import { gatherEnvironment, type GatheredEnvironment } from "./environment-gather.ts";
import { overrideTools } from "./request-overrides.ts";
import { allowedTools, runToolCall } from "./tool-call.ts";
import { effectivePlacement, placementNote, toolChangePlan, withPlacedSops } from "./mid-conversation.ts";
import {
  DEFAULT_MAX_ITERATIONS,
  PERMISSION_EVALUATE_TIMEOUT_MS,
  RequestCounter,
  UNKNOWN_TOOL_LIMIT,
  type RunFacts,
  type RunnerDependencies,
  type RunOptions,
  type RunOutcome,
} from "./types.ts";

/** What an error result says to a call the output-token limit cut (its input is incomplete). */
export const CUT_OFF_CALL_MESSAGE =
  "not run: this tool call was cut off by the output token limit before its input was complete; retry with a smaller input (for example, split the content over several calls)";

/**
 * The stable systems built lately, by the index they were built from: the same catalog gives the same
 * index array (PromptSources.promptItems), so a run builds and hashes its stable system only when the
 * index or the settings changed. A pure memo — the text is a function of its keys — held weakly.
 */
const stableSystems = new WeakMap<readonly PromptItem[], Map<string, { text: string; hash: string }>>();

function stableSystemFor(
  items: readonly PromptItem[],
  disclosure: DisclosureMode,
  listingBudget: ListingBudget | undefined,
  eagerBodies: () => readonly SkillBody[],
): { text: string; hash: string } {
  const build = () => {
    const text = buildStableSystem({
      skills: [...items],
      disclosure,
      eagerBodies: disclosure === "eager" ? [...eagerBodies()] : [],
      ...(listingBudget ? { listingBudget } : {}),
    });
    return { text, hash: sha256Hex(text) };
  };
  // Eager mode's text also depends on every body: built each run (a teaching switch, not the default).
  if (disclosure === "eager") return build();
  const key = JSON.stringify(listingBudget ?? null);
  let byKey = stableSystems.get(items);
  if (!byKey) stableSystems.set(items, (byKey = new Map()));
  let known = byKey.get(key);
  if (!known) byKey.set(key, (known = build()));
  return known;
}

export class Runner {
  private readonly deps: RunnerDependencies;
  private readonly requestCounter: RequestCounter;

  constructor(deps: RunnerDependencies) {
    this.deps = deps;
    this.requestCounter = deps.requestCounter ?? new RequestCounter();
  }

  private emit(event: RunnerEvent): void {
    this.deps.onEvent(event);
  }

  /** Appends to the history; an assistant message names the request that produced it. */
  private append(runId: string, message: ChatMessage, requestIndex?: number): void {
    this.deps.history.push(message);
    const figures = this.deps.hooks?.messageAppended?.(message);
    this.emit({
      type: "history_appended",
      runId,
      message: structuredClone(message),
      ...(requestIndex !== undefined ? { requestIndex } : {}),
      ...(figures ? { figures } : {}),
    });
  }

  /** The tool definitions the model sees: snapshotted once per run (DESIGN.md "Registered is not visible"). */
  private definitions(options: RunOptions, visible?: readonly string[]): ToolDefinition[] {
    let definitions = this.deps.registry.definitions({
      ...(options.planMode ? { safety: "read_only" as const } : {}),
      ...(options.toolNames ? { names: options.toolNames } : {}),
    });
    if (visible) {
      const byName = new Map(definitions.map((definition) => [definition.name, definition]));
      definitions = visible.flatMap((name) => byName.get(name) ?? []);
    }
    return overrideTools(definitions, this.deps.prompt.overrides?.());
  }

  async run(userText: string, options: RunOptions = {}): Promise<RunOutcome> {
    const { prompt, provider, registry } = this.deps;
    const hooks = this.deps.hooks ?? {};
    const runId = options.runId ?? `run_${randomUUID().slice(0, 8)}`;
    const signal = options.signal ?? new AbortController().signal;
    const disclosure = options.disclosure ?? this.deps.disclosure ?? "progressive";
    const maxIterations = options.maxIterations ?? this.deps.maxIterations ?? DEFAULT_MAX_ITERATIONS;
    const now = this.deps.now ?? (() => new Date());
    // Eager disclosure inlines every SOP in the stable system already: the placement experiment is moot.
    const placement = disclosure === "eager" ? "environment" : (this.deps.skillPlacement ?? "environment");
    const supportFor = (model: string) => hooks.midConversation?.(model);

    const continues = options.continueConversation === true;
    this.emit({
      type: "run_started",
      runId,
      userMessage: continues ? "" : userText,
      ...(options.skill ? { skill: options.skill } : {}),
      ...hooks.runStarted?.(runId),
      ...(continues ? { continues: true as const } : {}),
    });
    options.onStarted?.();
    // The tools the model sees, snapshotted once per run (and copied once: requests and snapshots share
    // the copy, which nobody changes). With SOPs in mid-conversation system messages on a model that takes
    // tool changes, tools new to the conversation are added after the user message instead of changing
    // `tools` (mid-conversation.ts). A branch's first run keeps the tools of the request it resends, in
    // their order (`visibleTools`).
    let tools = this.definitions(options, options.visibleTools);
    let sentTools = tools;
    let addedTools: ToolDefinition[] = [];
    if (
      placement === "system" &&
      supportFor(options.model ?? provider.model)?.toolChanges &&
      !continues &&
      !options.refreshToolsEachIteration
    ) {
      ({ sent: sentTools, added: addedTools } = toolChangePlan(
        tools,
        hooks.lastSentTools?.(),
        this.deps.history,
      ));
    }
    if (!continues)
      this.append(runId, {
        role: "user",
        content: userText,
        ...(addedTools.length > 0 ? { addedTools } : {}),
      });

    // Built once per run: the same bytes for every request of the run (and of later runs, same catalog).
    const items = prompt.promptItems();
    const listingBudget = this.deps.listingBudget;
    const overrides = prompt.overrides?.();
    const built =
      overrides?.stable === undefined
        ? stableSystemFor(items, disclosure, listingBudget, () => prompt.eagerBodies())
        : { text: overrides.stable, hash: sha256Hex(overrides.stable) };
    const stable = built.text;
    const run: RunFacts = {
      runId,
      disclosure,
      items,
      stable,
      stableHash: built.hash,
      stableOverridden: overrides?.stable !== undefined,
      ...(listingBudget ? { listingBudget } : {}),
    };
    const listedSkills = items.map((item) => item.name).sort(compareNames);

    let unknownInARow = 0;
    let iterations = 0;
    let finalText = "";
    const stop = (reason: StopReason, message?: string): RunOutcome => {
      // Whatever the session adds at the end of a run (its cache figures so far) goes out just before
      // `stop`, so `stop` stays the run's last event for everyone who reads up to it.
      for (const event of hooks.beforeStop?.(runId) ?? []) this.emit(event);
      this.emit({ type: "stop", runId, reason, ...(message ? { message } : {}), iterations });
      return { runId, reason, ...(message ? { message } : {}), iterations, finalText };
    };

    // What every tool call of the run shares (built once, not per call).
    const callContext = {
      runId,
      registry,
      permission: this.deps.permission,
      workdir: this.deps.workdir,
      signal,
      ...(this.deps.sandbox ? { sandbox: this.deps.sandbox } : {}),
      processes: this.deps.processes,
      tokens: this.deps.tokens,
      secrets: this.deps.secrets ?? new SecretScope(new SecretRedactor()),
      permissionTimeoutMs: this.deps.permissionTimeoutMs ?? PERMISSION_EVALUATE_TIMEOUT_MS,
      readOnly: options.planMode === true,
      ...(options.toolNames ? { allowed: allowedTools(options.toolNames, options.skill) } : {}),
      emit: (event: RunnerEvent) => this.emit(event),
      promptItems: () => prompt.promptItems(),
      ...(this.deps.skillRoots ? { skillRoots: this.deps.skillRoots } : {}),
    };
    let toolsCopy = structuredClone(tools);
    let sentCopy = sentTools === tools ? toolsCopy : structuredClone(sentTools);
    let visibleNames = new Set(tools.map((tool) => tool.name));
    let environment: GatheredEnvironment | undefined;
    for (let iteration = 1; ; iteration += 1) {
      if (signal.aborted) return stop("canceled", "stopped by the user");
      if (iteration > maxIterations) {
        return stop("max_iterations", `stopped after ${maxIterations} model requests without a final answer`);
      }
      iterations = iteration;
      if (options.refreshToolsEachIteration && iteration > 1) {
        tools = this.definitions(options);
        sentTools = tools;
        toolsCopy = structuredClone(tools);
        sentCopy = toolsCopy;
        visibleNames = new Set(tools.map((tool) => tool.name));
      }

      const requestIndex = this.requestCounter.next();
      const model = options.model ?? provider.model;
      const support = supportFor(model);
      const effective = effectivePlacement(placement, support);
      const activeSkills = prompt.activeSkills();
      const loadArguments = disclosure === "eager" ? (prompt.activeSkillArguments?.() ?? {}) : {};
      // The date as the environment renders it (YYYY-MM-DD), so an unchanged environment compares equal.
      environment = gatherEnvironment(
        {
          ...prompt.environmentFacts(),
          provider: provider.name,
          model,
          date: options.environmentDate ?? now().toISOString().slice(0, 10),
          activeSkills: activeSkills.map((skill) =>
            loadArguments[skill.name] ? { ...skill, arguments: loadArguments[skill.name] } : skill,
          ),
          disclosure,
          ...(effective !== "environment" ? { skillPlacement: effective } : {}),
        },
        overrides,
        environment,
      );
      const { input: environmentInput, sections } = environment;
      // Requests and snapshots share the history's message objects (never changed once appended).
      const messages = this.deps.history.slice();
      const at = now().toISOString();
      const added = hooks.beforeRequest?.({
        run,
        requestIndex,
        iteration,
        model,
        provider: provider.name,
        at,
        visibleTools: tools,
        sentTools,
        environmentInput,
        sections,
        messages,
        placement,
        support,
      });
      const request: ModelRequest = {
        system: { stable, environment: environment.text },
        environmentSections: environment.requestSections,
        messages,
        tools: sentCopy,
        ...(options.model ? { model: options.model } : {}),
        ...added?.request,
        ...(support
          ? {
              midConversation: {
                system: support.system,
                toolChanges: support.toolChanges,
                ...(support.toolChangesBeta ? { toolChangesBeta: support.toolChangesBeta } : {}),
              },
            }
          : {}),
      };
      const figures = added?.snapshot ?? {};
      const snapshot: RequestSnapshot = {
        runId,
        requestIndex,
        iteration,
        provider: provider.name,
        model,
        disclosure,
        system: { stable, environment: environment.text },
        stableHash: run.stableHash,
        messages,
        tools: toolsCopy,
        // Without a hook the loop does not know (DESIGN "Registered is not visible" is the session's view).
        registeredNotVisible: figures.registeredNotVisible ?? [],
        listedSkills,
        ...(figures.indexLineTokens ? { indexLineTokens: figures.indexLineTokens } : {}),
        activeSkills: activeSkills.map((skill) => skill.name),
        ...(figures.eagerStableLength !== undefined ? { eagerStableLength: figures.eagerStableLength } : {}),
        ...(figures.tokenizer ? { tokenizer: figures.tokenizer } : {}),
        ...(figures.segments ? { segments: figures.segments } : {}),
        ...(figures.eager ? { eager: figures.eager } : {}),
        ...(figures.cache ? { cache: figures.cache } : {}),
        at,
      };
      // Emitted before the provider is called, so the inspector shows the request even if the call hangs.
      this.emit({ type: "request", runId, snapshot });

      const response = await streamModelResponse(
        request,
        signal,
        { runId, requestIndex },
        this.deps,
        (event) => this.emit(event),
      );
      if (response.canceled || response.error !== undefined) {
        if (response.text)
          this.append(runId, { role: "assistant", content: response.text, toolCalls: [] }, requestIndex);
        if (response.canceled) return stop("canceled", "stopped by the user");
        return stop("provider_error", response.error);
      }

      const assistant = { role: "assistant" as const, content: response.text, toolCalls: response.calls };
      // One event: the assistant's message for the chat and for the history (DESIGN: no field twice).
      this.append(runId, assistant, requestIndex);
      finalText = response.text;
      if (response.calls.length === 0) return stop("completed");

      let stopping: { reason: StopReason; message: string } | undefined;
      for (const call of response.calls) {
        if (stopping) {
          // Every tool call keeps a result, so the history stays valid for the next run.
          this.skipCall(runId, requestIndex, call, visibleNames, {
            errorType: "canceled",
            reason: `not run: the run stopped (${stopping.reason})`,
          });
          continue;
        }
        if (response.cutOff.has(call.id)) {
          // Not a provider failure: the model said too much in one call and can say it in smaller ones.
          this.skipCall(runId, requestIndex, call, visibleNames, {
            errorType: "invalid_arguments",
            reason: CUT_OFF_CALL_MESSAGE,
          });
          continue;
        }
        // The placement experiment appends the SOPs a load_skill call activated: the names before it.
        const activeBefore =
          effective !== "environment"
            ? new Set(prompt.activeSkills().map((skill) => skill.name))
            : new Set<string>();
        const outcome = await runToolCall(call, { ...callContext, requestIndex, visibleNames });
        this.append(
          runId,
          effective !== "environment"
            ? this.withSops(call, outcome.message, activeBefore, effective)
            : outcome.message,
        );
        unknownInARow = outcome.known ? 0 : unknownInARow + 1;
        if (outcome.canceled || signal.aborted) {
          stopping = { reason: "canceled", message: "stopped by the user" };
        } else if (unknownInARow >= UNKNOWN_TOOL_LIMIT) {
          stopping = {
            reason: "unknown_tool_limit",
            message: `stopped after ${UNKNOWN_TOOL_LIMIT} calls in a row to tools that do not exist`,
          };
        }
      }
      if (stopping) return stop(stopping.reason, stopping.message);
    }
  }

  /** Placement experiment: the SOPs a load_skill call activated, appended to its result. */
  private withSops(
    call: ToolCall,
    message: ChatMessage & { role: "tool" },
    activeBefore: ReadonlySet<string>,
    placement: SkillPlacement,
  ): ChatMessage {
    if (call.name !== LOAD_SKILL_TOOL_NAME || message.isError) return message;
    const added = this.deps.prompt.activeSkills().filter((skill) => !activeBefore.has(skill.name));
    if (added.length === 0) return message;
    // The same delimited block as in the environment (prompt/skill-block.ts): a body cannot end it.
    const sops = added.map((skill) => skillBlock(skill.name, skill.source, skill.body)).join("\n\n");
    return withPlacedSops(message, sops, placement);
  }

  /** A call answered without running it (the run stopped, or its input was cut off): an error result. */
  private skipCall(
    runId: string,
    requestIndex: number,
    call: ToolCall,
    visible: Set<string>,
    why: { errorType: "canceled" | "invalid_arguments"; reason: string },
  ) {
    const { reason } = why;
    const known = this.deps.registry.isKnown(call.name);
    this.emit({ type: "tool_call", runId, requestIndex, call, known, visible: visible.has(call.name) });
    const result = failResult(call.name, why.errorType, reason);
    this.emit({ type: "tool_result", runId, callId: call.id, result, durationMs: 0 });
    this.append(runId, {
      role: "tool",
      toolCallId: call.id,
      toolName: call.name,
      content: reason,
      isError: true,
    });
  }
}
