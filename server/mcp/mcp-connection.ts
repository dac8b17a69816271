// One configured MCP server: started (stdio in the sandbox, or Streamable HTTP), `initialize` within 10 s
// or it is failed, its tool list read, its stderr kept, a crash reported (and a reconnect possible), and
// ended on close. State changes are reported to `onChange`; nothing here throws at the caller.
// The SDK is loaded on the first connect: a CLI command or session without MCP servers never pays for it.
import type { ExitHooks } from "../tools/exit-hooks.ts";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { McpServerStatus, McpServerView, McpToolView } from "../protocol/mcp.ts";
import {
  sandboxPolicy,
  sandboxSummary,
  type SandboxSettings,
  type SandboxSummary,
} from "../tools/sandbox.ts";
import type { McpServerConfig } from "./config.ts";
import {
  explainStartFailure,
  isLoopbackUrl,
  launchEnvironment,
  networkNeed,
  networkRefusal,
  packageRunnerOf,
  PACKAGE_RUNNER_INITIALIZE_TIMEOUT_MS,
  startupTimeoutFromEnvironment,
  serverPaths,
} from "./server-launch.ts";
import { outputSchemaValidator, schemaProblem } from "./schema-checks.ts";
import { countTokensBounded } from "../protocol/token-count.ts";
import { boundedFetch } from "./bounded-fetch.ts";
import { CallCheck, SandboxViolation } from "./call-check.ts";
import { MAX_MESSAGE_BYTES } from "./line-reader.ts";
import type { SandboxedStdioTransport } from "./stdio-transport.ts";
import {
  declaresSkills,
  getServerSkill,
  listServerSkills,
  MAX_LIST_PAGES,
  readServerResource,
  SKILLS_CLIENT_CAPABILITIES,
  type EntryCheck,
  type McpSkillEntry,
  type SkillListing,
} from "./mcp-skills.ts";

interface SdkModules {
  Client: typeof Client;
  StreamableHTTPClientTransport: typeof StreamableHTTPClientTransport;
  SandboxedStdioTransport: typeof SandboxedStdioTransport;
}
let sdk: Promise<SdkModules> | undefined;
function loadSdk(): Promise<SdkModules> {
  sdk ??= Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
    import("./stdio-transport.ts"),
  ]).then(([client, http, stdio]) => ({
    Client: client.Client,
    StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
    SandboxedStdioTransport: stdio.SandboxedStdioTransport,
  }));
  return sdk;
}

export const INITIALIZE_TIMEOUT_MS = 10_000;
/** Tools read from one server at most (pages of tools/list); the rest are left out, with a warning. */
export const MAX_TOOLS = 500;
/**
 * Bytes of one tool's definition (name, description, input schema as JSON) at most: the model reads it in
 * every request, and a server is not trusted to keep it small. A larger one is left out, with a warning.
 */
export const MAX_TOOL_DEFINITION_BYTES = 64 * 1024;
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

export function mcpToolName(server: string, tool: string): string {
  return `mcp__${server}__${tool}`;
}

/** `mcp__srv__tool` → its parts; undefined for any other name. */
export function parseMcpToolName(name: string): { server: string; tool: string } | undefined {
  const match = /^mcp__(.+?)__(.+)$/.exec(name);
  return match ? { server: match[1]!, tool: match[2]! } : undefined;
}

/** A definition as the model reads it, tokenized as the request segments are (o200k_base). */
function definitionTokens(name: string, description: string, inputSchema: unknown): number {
  return countTokensBounded(JSON.stringify({ name, description, input_schema: inputSchema }));
}

/** Bytes of a definition as JSON, or why it cannot be written as JSON (nested too deeply to serialize). */
function definitionBytes(name: string, description: string, inputSchema: unknown): number | string {
  try {
    return Buffer.byteLength(JSON.stringify({ name, description, input_schema: inputSchema }));
  } catch (error) {
    return `its definition cannot be written as JSON (${message(error)})`;
  }
}

export interface McpConnectionOptions {
  config: McpServerConfig;
  /** Realpath of the workdir: a stdio server's cwd (unless configured) and its writable folder. */
  workdir: string;
  /** Homes whose secrets the sandbox hides, and bwrap's availability; the network is the server's own. */
  sandbox: Omit<SandboxSettings, "network">;
  /**
   * The session's network setting: with it off, an HTTP server on another machine is never contacted
   * (only loopback addresses are). Read at each connect and each request.
   */
  sessionNetwork?: () => boolean;
  initializeTimeoutMs?: number;
  clientVersion: string;
  onChange: () => void;
  /** Where a stdio server's last-resort kill on process exit is registered. */
  exitHooks: ExitHooks;
}

export interface CallOptions {
  signal: AbortSignal;
  timeoutMs: number;
}

export class McpConnection {
  status: McpServerStatus = "configured";
  error: string | undefined;
  tools: McpToolView[] = [];
  /** Its skills (SEP-2640), when it declares the extension and is connected. */
  skills: SkillListing | undefined;
  warnings: string[] = [];
  private client: Client | undefined;
  private transport: Transport | undefined;
  private serverInfo: { name: string; version: string } | undefined;
  private stderrTail = "";
  private startMs: number | undefined;
  private sandboxView: McpServerView["sandbox"];
  /** The policy the stdio server was started under, for a failed start's message. */
  private policySummary: SandboxSummary | undefined;
  private closing = false;
  /** Why an HTTP server was stopped for a message over the limit (bounded-fetch.ts), if it was. */
  private limitFailure: string | undefined;
  /** The check of each tool call of a sandboxed stdio server (set once it is connected). */
  private callCheck: CallCheck | undefined;
  /** Bumped on every (re)connect, so a late callback of an old connection changes nothing. */
  private generation = 0;

  constructor(private readonly options: McpConnectionOptions) {}

  get name(): string {
    return this.options.config.name;
  }

  get config(): McpServerConfig {
    return this.options.config;
  }

  get pid(): number | undefined {
    return (this.transport as Partial<SandboxedStdioTransport> | undefined)?.pid;
  }

  /** Starts the server and reads its tools. Resolves when it is connected or failed. */
  async connect(): Promise<void> {
    await this.shutdown();
    this.closing = false;
    const generation = ++this.generation;
    this.status = "starting";
    this.error = undefined;
    this.tools = [];
    this.skills = undefined;
    this.warnings = [];
    this.stderrTail = "";
    this.limitFailure = undefined;
    this.changed();
    const started = performance.now();
    const refusal = networkRefusal(this.options.config, this.sessionNetwork());
    if (refusal) return this.fail(generation, refusal, started);
    let client: Client;
    let transport: Transport;
    try {
      const modules = await loadSdk();
      if (generation !== this.generation) return;
      client = new modules.Client(
        { name: "pseudoclaude-playground", version: this.options.clientVersion },
        // Structured content is checked against output schemas through the one validator seam (S18); the
        // client side of the skills extension is declared (mcp-skills.ts).
        { jsonSchemaValidator: outputSchemaValidator, capabilities: SKILLS_CLIENT_CAPABILITIES },
      );
      client.onerror = (error) => this.onTransportError(generation, error);
      transport = this.createTransport(modules, generation);
    } catch (error) {
      return this.fail(generation, message(error), started);
    }
    this.client = client;
    this.transport = transport;
    const timeoutMs = this.initializeTimeout();
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        client.connect(transport, { timeout: timeoutMs }),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`no answer to initialize within ${timeoutMs / 1000} s`)),
            timeoutMs,
          );
        }),
      ]);
      // A server that does not declare tools (one that only serves skills) is not asked for them.
      const capabilities = client.getServerCapabilities();
      const tools = capabilities?.tools === undefined ? [] : await this.readTools(client, timeoutMs);
      const skills = declaresSkills(capabilities) ? await this.readSkills(client, timeoutMs) : undefined;
      if (generation !== this.generation) return;
      this.tools = tools;
      this.skills = skills;
      this.serverInfo = client.getServerVersion();
      const policy = (transport as Partial<SandboxedStdioTransport>).policy;
      // Where the server's sandbox lets it write the workdir, each of its tool calls is checked.
      this.callCheck = policy?.enabled && policy.writable.length > 0 ? new CallCheck(policy) : undefined;
      this.status = "connected";
      this.startMs = Math.round(performance.now() - started);
      client.onclose = () => this.onClosed(generation);
      this.changed();
    } catch (error) {
      await this.fail(generation, this.describeStartFailure(error, timeoutMs), started);
    } finally {
      clearTimeout(timer);
    }
  }

  private sessionNetwork(): boolean {
    return this.options.sessionNetwork?.() === true;
  }

  /** A package runner with the network may download first: it gets longer (server-launch.ts). */
  private initializeTimeout(): number {
    const base = this.options.initializeTimeoutMs ?? startupTimeoutFromEnvironment() ?? INITIALIZE_TIMEOUT_MS;
    const { config } = this.options;
    return config.transport === "stdio" && config.network && packageRunnerOf(config)
      ? Math.max(base, PACKAGE_RUNNER_INITIALIZE_TIMEOUT_MS)
      : base;
  }

  /** Why the transport stopped the server itself (a message over its limit), if it did. */
  private transportFailure(): string | undefined {
    return this.limitFailure ?? (this.transport as Partial<SandboxedStdioTransport> | undefined)?.failure;
  }

  /**
   * An HTTP server sent a message over the limit: the request that read it fails with the reason (a start
   * then fails with it too), and a connected server is stopped, as a stdio one is by its transport.
   */
  private stopForLimit(generation: number, reason: string): void {
    if (generation !== this.generation) return;
    this.limitFailure = reason;
    if (this.status !== "connected") return;
    this.status = "failed";
    this.error = `${reason}; reconnect to start it again`;
    this.tools = [];
    this.skills = undefined;
    this.shutdown().catch((error: unknown) => {
      this.error = `${this.error} (ending it failed: ${message(error)})`;
      this.changed();
    });
    this.changed();
  }

  private describeStartFailure(error: unknown, timeoutMs: number): string {
    // A message over the limit stopped it: that is the reason, whatever the SDK made of it.
    const stopped = this.transportFailure();
    if (stopped) return stopped;
    const failure = this.startFailure(message(error), timeoutMs);
    // The policy matters once the process ran under it (a program not found on the host never did).
    const ran = this.pid !== undefined;
    return explainStartFailure({
      failure,
      config: this.options.config,
      stderr: this.stderrTail,
      ...(this.policySummary && ran ? { sandbox: this.policySummary } : {}),
      sessionNetwork: this.sessionNetwork(),
    });
  }

  private startFailure(text: string, timeoutMs: number): string {
    if (/timed out/i.test(text)) return `no answer to initialize within ${timeoutMs / 1000} s`;
    const bwrap = /^bwrap: (.*)$/m.exec(this.stderrTail)?.[1];
    if (bwrap) {
      const missing = /^execvp (.+): No such file or directory$/.exec(bwrap);
      return missing
        ? `program not found inside the sandbox: ${missing[1]}`
        : `the sandbox could not start it: ${bwrap}`;
    }
    if (/connection closed/i.test(text)) return `the server exited before answering initialize (${text})`;
    return text;
  }

  private async fail(generation: number, reason: string, started: number): Promise<void> {
    if (generation !== this.generation) return;
    await this.shutdown();
    if (generation !== this.generation) return;
    this.status = "failed";
    this.error = reason;
    this.startMs = Math.round(performance.now() - started);
    this.changed();
  }

  /** A stdout line that is not a message was skipped: one warning per connection, not one per line. */
  private onTransportError(generation: number, error: Error): void {
    if (generation !== this.generation || error.name !== "NotJsonRpcLine") return;
    if (this.warnings.some((warning) => warning.startsWith(`${this.name}: a line of `))) return;
    this.warnings.push(`${this.name}: ${error.message} (said once; later such lines are skipped too)`);
    this.changed();
  }

  private onClosed(generation: number): void {
    if (generation !== this.generation || this.closing) return;
    // Stopped by its transport (a message over the limit): failed, with that reason; otherwise it crashed.
    const failure = this.transportFailure();
    this.status = failure ? "failed" : "crashed";
    const stderr = this.stderrTail.trim().split("\n").slice(-3).join(" | ");
    this.error = failure
      ? `${failure}; reconnect to start it again`
      : `the server ${this.config.transport === "stdio" ? "exited" : "connection closed"}${stderr ? ` (stderr: ${stderr})` : ""}; reconnect to use its tools again`;
    this.tools = [];
    this.skills = undefined;
    // Ending what is left of it runs on its own; a failure there is said, never thrown (nobody awaits it).
    this.shutdown().catch((error: unknown) => {
      this.error = `${this.error} (ending it failed: ${message(error)})`;
      this.changed();
    });
    this.changed();
  }

  private createTransport(modules: SdkModules, generation: number): Transport {
    const { config } = this.options;
    if (config.transport === "http") {
      return new modules.StreamableHTTPClientTransport(new URL(config.url), {
        requestInit: { headers: config.headers },
        fetch: boundedFetch({
          fetch: (url, init) => this.fetchUnderSessionNetwork(url, init),
          maxMessageBytes: MAX_MESSAGE_BYTES,
          onLimit: (reason) => this.stopForLimit(generation, reason),
        }),
      });
    }
    const cwd = config.cwd ?? this.options.workdir;
    const policy = sandboxPolicy({
      workdir: this.options.workdir,
      ...(config.cwd ? { readOnlyRoots: [config.cwd] } : {}),
      visiblePaths: serverPaths(config, cwd),
      settings: { ...this.options.sandbox, network: config.network },
    });
    this.policySummary = sandboxSummary(policy);
    this.sandboxView = {
      enabled: policy.enabled,
      network: policy.network,
      ...(policy.reason ? { reason: policy.reason } : {}),
    };
    return new modules.SandboxedStdioTransport({
      command: config.command,
      args: config.args,
      env: launchEnvironment(config, policy.network),
      cwd,
      sandbox: policy,
      exitHooks: this.options.exitHooks,
      onStderr: (text) => {
        this.stderrTail = (this.stderrTail + text).slice(-16 * 1024);
        this.changed();
      },
    });
  }

  /**
   * Every request of an HTTP server goes through here: with the session's network off, only a loopback
   * address is contacted (a redirect is never followed to another host by fetch itself).
   */
  private fetchUnderSessionNetwork(url: string | URL, init?: RequestInit): Promise<Response> {
    const target = String(url);
    if (!this.sessionNetwork() && !isLoopbackUrl(target))
      return Promise.reject(
        new Error(
          `refused ${new URL(target).host}: this session's network is off (only loopback is contacted)`,
        ),
      );
    return fetch(url, this.sessionNetwork() ? init : { ...init, redirect: "manual" });
  }

  /**
   * Every tool the server lists, as it publishes it. A name providers refuse is skipped with a warning; a
   * schema that cannot be compiled here keeps its tool, with that check off and a warning (never dropped
   * silently); past MAX_TOOLS the rest is left out with a warning.
   */
  private async readTools(client: Client, timeoutMs: number): Promise<McpToolView[]> {
    const out: McpToolView[] = [];
    let listed = 0;
    let pages = 0;
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {}, { timeout: timeoutMs });
      pages++;
      for (const tool of page.tools) {
        if (++listed > MAX_TOOLS) continue;
        const name = mcpToolName(this.name, tool.name);
        if (!TOOL_NAME.test(name)) {
          this.warnings.push(
            `${this.name}: tool "${tool.name.slice(0, 100)}" skipped: ${name.slice(0, 120)} is not a tool name providers accept (1–64 of A-Z a-z 0-9 _ -)`,
          );
          continue;
        }
        const description = tool.description ?? tool.title ?? "";
        const inputSchema = (tool.inputSchema ?? { type: "object" }) as Record<string, unknown>;
        const size = definitionBytes(name, description, inputSchema);
        if (typeof size === "string" || size > MAX_TOOL_DEFINITION_BYTES) {
          this.warnings.push(
            `${this.name}: tool "${tool.name}" skipped: ${typeof size === "string" ? size : `its definition is ${size} bytes; the limit is ${MAX_TOOL_DEFINITION_BYTES}`}`,
          );
          continue;
        }
        const inputProblem = schemaProblem(inputSchema);
        if (inputProblem)
          this.warnings.push(
            `${this.name}: tool "${tool.name}": its arguments are not checked: ${inputProblem}`,
          );
        const outputProblem = tool.outputSchema ? schemaProblem(tool.outputSchema) : undefined;
        if (outputProblem)
          this.warnings.push(
            `${this.name}: tool "${tool.name}": its structured content is not checked: ${outputProblem}`,
          );
        out.push({
          name,
          tool: tool.name,
          ...(tool.title ? { title: tool.title } : {}),
          description,
          inputSchema,
          ...(tool.annotations ? { annotations: { ...tool.annotations } } : {}),
          definitionTokens: definitionTokens(name, description, inputSchema),
          ...(inputProblem ? { inputValidationOff: inputProblem } : {}),
        });
      }
      cursor = page.nextCursor;
      // Bounded by pages too, as every listing of a server is: empty pages that each name a next one
      // would never raise the tool count, and the listing would never end.
    } while (cursor && listed <= MAX_TOOLS && pages < MAX_LIST_PAGES);
    if (listed > MAX_TOOLS)
      this.warnings.push(
        `${this.name}: the server lists ${cursor ? "more than " : ""}${listed} tools; the first ${MAX_TOOLS} were read (the limit is ${MAX_TOOLS})`,
      );
    else if (cursor)
      this.warnings.push(
        `${this.name}: its tool listing was cut after ${MAX_LIST_PAGES} pages (${listed} tools); at most ${MAX_LIST_PAGES} pages are read`,
      );
    return out;
  }

  /**
   * The server's skills listing. A listing that fails is a warning: the server's tools still register,
   * and the extension's skills are simply not offered.
   */
  private async readSkills(client: Client, timeoutMs: number): Promise<SkillListing | undefined> {
    try {
      return await listServerSkills(client, timeoutMs);
    } catch (error) {
      this.warnings.push(
        `${this.name}: skills/list failed, so none of its skills are offered: ${message(error)}`,
      );
      return undefined;
    }
  }

  private connectedClient(): Client {
    const client = this.client;
    if (!client || this.status !== "connected")
      throw new Error(
        `MCP server ${this.name} is not connected (${this.status}${this.error ? `: ${this.error}` : ""})`,
      );
    return client;
  }

  /** A fresher entry (from skills/get) replaces the listed one of the same URI. */
  replaceSkillEntry(entry: McpSkillEntry): void {
    if (!this.skills) return;
    const others = this.skills.entries.filter((existing) => existing.uri !== entry.uri);
    this.skills = { ...this.skills, entries: [...others, entry] };
  }

  /** `skills/get`: the server's current entry for one skill (the SKILL.md URI). */
  async getSkill(uri: string, timeoutMs: number): Promise<EntryCheck> {
    return getServerSkill(this.connectedClient(), uri, timeoutMs);
  }

  /** `resources/read` of one file, as raw bytes (or why there are none). */
  async readResource(uri: string, timeoutMs: number): Promise<Buffer | string> {
    return readServerResource(this.connectedClient(), uri, timeoutMs);
  }

  /** One `tools/call`. Stop (the signal) and the timeout both send `notifications/cancelled` (the SDK). */
  async callTool(tool: string, args: Record<string, unknown>, options: CallOptions) {
    const client = this.client;
    if (!client || this.status !== "connected")
      throw new Error(
        `MCP server ${this.name} is not connected (${this.status}${this.error ? `: ${this.error}` : ""})`,
      );
    const transport = this.transport as Partial<SandboxedStdioTransport> | undefined;
    const check = this.callCheck;
    const send = () =>
      client.callTool({ name: tool, arguments: args }, undefined, {
        signal: options.signal,
        timeout: options.timeoutMs,
      });
    try {
      // A sandboxed stdio server's call is checked like a command (call-check.ts).
      return await (check ? check.run(send) : send());
    } catch (error) {
      if (error instanceof SandboxViolation) throw error;
      // The SDK says only "Connection closed" when the transport stopped the server over its answer.
      // (The transport of the call, not this.transport: a stopped server is already cleared from there.)
      const failure = this.limitFailure ?? transport?.failure;
      if (failure) throw new Error(failure);
      throw error;
    }
  }

  /** Ends the server (its process group, or the HTTP session). */
  async close(): Promise<void> {
    this.generation++;
    this.closing = true;
    await this.shutdown();
    if (this.status !== "configured") this.status = "closed";
    this.tools = [];
    this.skills = undefined;
  }

  private async shutdown(): Promise<void> {
    const client = this.client;
    const transport = this.transport;
    this.client = undefined;
    this.transport = undefined;
    this.callCheck = undefined;
    if (!client && !transport) return;
    try {
      const http = transport as Partial<StreamableHTTPClientTransport> | undefined;
      if (this.config.transport === "http" && http?.sessionId) await http.terminateSession?.();
    } catch {
      // The session may already be gone on the server: closing goes on.
    }
    try {
      await client?.close();
    } finally {
      // client.close() closes the transport; a transport that never connected is closed here.
      await transport?.close();
    }
  }

  private changed(): void {
    this.options.onChange();
  }

  view(): McpServerView {
    const { config } = this;
    return {
      name: this.name,
      transport: config.transport,
      configFile: config.configFile,
      scope: config.scope,
      target: config.transport === "http" ? config.url : [config.command, ...config.args].join(" "),
      ...optionalNeed(config),
      status: this.status,
      ...(this.error ? { error: this.error } : {}),
      ...(this.serverInfo
        ? { serverInfo: { name: this.serverInfo.name, version: this.serverInfo.version } }
        : {}),
      ...(this.sandboxView ? { sandbox: { ...this.sandboxView } } : {}),
      tools: structuredClone(this.tools),
      ...(this.skills ? { skills: this.skills.entries.length } : {}),
      ...(this.warnings.length > 0 ? { warnings: [...this.warnings] } : {}),
      stderrTail: this.stderrTail.slice(-4096),
      definitionTokens: this.tools.reduce((sum, tool) => sum + tool.definitionTokens, 0),
      ...(this.startMs !== undefined ? { startMs: this.startMs } : {}),
    };
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** `needsNetwork`: why the server needs the network, when it does and does not have it. */
export function optionalNeed(config: McpServerConfig): { needsNetwork?: string } {
  if (config.transport === "stdio" && config.network) return {};
  const need = networkNeed(config);
  return need ? { needsNetwork: need } : {};
}
