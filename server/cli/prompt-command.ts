// `cli prompt`: the first model request exactly as the Runner builds it. It runs the real Runner against a
// provider that only records the request, after calling load_skill for each --load as the model would have.
import path from "node:path";
import { PlaygroundError } from "../errors/index.ts";
import type { ChatMessage, DisclosureMode, ToolDefinition } from "../protocol/model.ts";
import type {
  EagerFigures,
  PromptSegment,
  RequestSnapshot,
  SnapshotCache,
} from "../protocol/runner-events.ts";
import type { FolderTrust } from "../protocol/sandbox.ts";
import type { ListingBudget } from "../prompt/stable-system.ts";
import type { ModelRequest, Provider, ProviderEvent } from "../providers/types.ts";
import { Runner } from "../runner/runner.ts";
import type { Workspace } from "../session/workspace.ts";
import type { ProcessRunner } from "../tools/process-runner.ts";
import { SessionCache } from "../session/session-cache.ts";
import type { CliCacheSettings } from "./cache-options.ts";
import { cliPermission, cliSessionParts } from "./cli-parts.ts";
import { parseLoadFlag } from "./args.ts";
import { describeTrust } from "./trust-text.ts";

export const DEFAULT_PROMPT_MESSAGE = "(the user's first message)";

export interface PromptReport {
  system: { stable: string; environment: string };
  tools: ToolDefinition[];
  messages: ChatMessage[];
  /** Whether the workdir's own allow rules apply to this request's run. */
  trust: FolderTrust;
  /** The tokenizer of the figures below. */
  tokenizer?: string;
  /** The request in render order (tools, stable system, environment sections, messages), with tokens. */
  segments?: PromptSegment[];
  /** The same request under eager disclosure. */
  eager?: EagerFigures;
  /** The prompt-cache prediction of this (first) request: everything is written or uncached. */
  cache?: SnapshotCache;
  /** Tokens of each listed skill's index line (what the skill detail and the inspector show). */
  indexLineTokens?: Record<string, number>;
}

/** Records the request it is given and answers with an empty, final response. */
class RecordingProvider implements Provider {
  readonly name: string;
  readonly model: string;
  recorded: ModelRequest | undefined;
  constructor(name: string, model: string) {
    this.name = name;
    this.model = model;
  }
  async *stream(request: ModelRequest): AsyncIterable<ProviderEvent> {
    this.recorded ??= structuredClone(request);
    yield { type: "done" };
  }
}

export interface PromptOptions {
  /** The command's process runner (main's CliRoot). */
  processes: ProcessRunner;
  loads: string[];
  disclosure: DisclosureMode;
  message?: string;
  provider: string;
  model?: string;
  /** --trust: the workdir's own allow rules apply for this command. */
  trust?: boolean;
  /** --catalog-budget: trim the index as a client profile would (default off). */
  listingBudget?: ListingBudget;
  cache?: CliCacheSettings;
  /** A problem with the cache rules or prices files, as a line for stderr. */
  warn: (line: string) => void;
}

/** The folder (or loose file) name a warning's path stands for, since a bad file may have no parsed name. */
function warnedName(warningPath: string): string {
  const file = path.basename(warningPath);
  if (file === "SKILL.md" || file === "tools.json") return path.basename(path.dirname(warningPath));
  return file.replace(/\.md$/i, "");
}

/**
 * Why `--load NAME` failed, in terms the user can act on: the skill exists but was removed for missing
 * tools, or its files have a problem (file:line: reason) — else the plain unknown-skill message.
 */
function whyNotLoadable(workspace: Workspace, name: string, fallback: string): string {
  const removed = workspace.catalog.removed().find((entry) => entry.name === name);
  if (removed) {
    return `skill "${name}" was removed from the catalog: it needs tools that do not exist (${removed.missing.join(", ")}) — ${removed.path}`;
  }
  const refused = workspace.catalog
    .notOffered()
    .find((entry) => entry.name === name && entry.kind === "refused");
  if (refused) return `skill "${name}" is not in the catalog: ${refused.reason} — ${refused.path}`;
  const warning = workspace.catalog
    .warnings()
    .find((entry) => entry.skill === name || (entry.skill === undefined && warnedName(entry.path) === name));
  if (warning) {
    const where = warning.line ? `:${warning.line}${warning.column ? `:${warning.column}` : ""}` : "";
    return `${warning.path}${where}: ${warning.reason}`;
  }
  return `${fallback} (skills: ${workspace.catalog.names().join(", ")})`;
}

export async function buildFirstRequest(workspace: Workspace, options: PromptOptions): Promise<PromptReport> {
  for (const flag of options.loads) {
    const { name, args } = parseLoadFlag(flag);
    const result = await workspace.loadSkill(name, args);
    if (!result.ok) {
      throw new PlaygroundError(
        "unknown_skill",
        `--load ${flag}: ${whyNotLoadable(workspace, name, result.content)}`,
      );
    }
  }
  const provider = new RecordingProvider(options.provider, options.model ?? options.provider);
  const { home, workdir } = workspace;
  const parts = await cliSessionParts({
    home,
    workdir,
    trust: options.trust === true,
    secrets: workspace.secrets.redactor,
  });
  const permission = await cliPermission(parts, { workdir, home });
  // The prediction a session makes, under the same settings a `run` with these flags would have.
  const cache = new SessionCache("cli-prompt", home, (line) => options.warn(`warning: ${line}`), true);
  let snapshot: RequestSnapshot | undefined;
  const runner = new Runner(
    workspace.runnerDependencies({
      processes: options.processes,
      provider,
      permission: permission.hook,
      onEvent: (event) => {
        if (event.type === "request") snapshot ??= event.snapshot;
      },
      disclosure: options.disclosure,
      ...(options.listingBudget ? { listingBudget: options.listingBudget } : {}),
      ...cache.dependencies(
        {
          workdir,
          provider: options.provider,
          model: provider.model,
          permissionMode: "default",
          disclosure: options.disclosure,
          ...options.cache,
        },
        provider,
      ),
    }),
  );
  await runner.run(options.message ?? DEFAULT_PROMPT_MESSAGE);
  const request = provider.recorded!;
  return {
    system: request.system,
    tools: request.tools,
    messages: request.messages,
    trust: permission.trust,
    ...(snapshot?.segments
      ? { tokenizer: snapshot.tokenizer, segments: snapshot.segments, eager: snapshot.eager }
      : {}),
    ...(snapshot?.cache ? { cache: snapshot.cache } : {}),
    ...(snapshot?.indexLineTokens ? { indexLineTokens: snapshot.indexLineTokens } : {}),
  };
}

export function formatPrompt(report: PromptReport, stableHash: string, home: string): string {
  const rule = (title: string) => `\n===== ${title} =====\n`;
  const tools = report.tools.map(
    (tool) => `- ${tool.name} [${tool.safety}, ${tool.origin}]: ${tool.description}`,
  );
  const messages = report.messages.map((message) => `[${message.role}] ${message.content}`);
  return [
    `Trust: ${describeTrust(report.trust, home)}`,
    rule(`system.stable (${report.system.stable.length} chars, sha256 ${stableHash.slice(0, 12)}…)`),
    report.system.stable,
    rule(`system.environment (${report.system.environment.length} chars)`),
    report.system.environment,
    rule(`tools (${report.tools.length})`),
    tools.join("\n"),
    rule(`messages (${report.messages.length})`),
    messages.join("\n"),
  ].join("\n");
}
