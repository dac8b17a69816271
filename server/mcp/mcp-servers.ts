// The MCP servers of one session (or one CLI run): started together, their tools kept in the main
// Registry while they are connected (registered when a server comes up, removed when it fails or crashes),
// reconnect by name, and all ended on close — no server process outlives its owner.
import { ExitHooks } from "../tools/exit-hooks.ts";
import type { McpServerView } from "../protocol/mcp.ts";
import type { Registry } from "../tools/registry.ts";
import type { SandboxSettings } from "../tools/sandbox.ts";
import type { LoadedMcpConfig, WithheldServer } from "./config.ts";
import { McpConnection, optionalNeed, parseMcpToolName } from "./mcp-connection.ts";
import { networkRefusal } from "./server-launch.ts";
import type { SkillListing } from "./mcp-skills.ts";
import { createMcpTool, DEFAULT_MCP_CALL_TIMEOUT_MS } from "./mcp-tool.ts";

export interface McpServersOptions {
  registry: Registry;
  workdir: string;
  sandbox: Omit<SandboxSettings, "network">;
  /** The session's network at start (default off); `setSessionNetwork` changes it. */
  sessionNetwork?: boolean;
  clientVersion: string;
  initializeTimeoutMs?: number;
  callTimeoutMs?: number;
  /** The composition root's exit hooks (stdio servers are killed on process exit); absent: these servers' own. */
  exitHooks?: ExitHooks;
}

/** What a change was: a status or tool list (`state`), or only more stderr. */
export type McpChange = "state" | "stderr";

/** Why a workdir's server is withheld when nothing more specific is known. */
export const UNTRUSTED_FOLDER =
  "this folder is not trusted: its own MCP servers do not start until you trust it";

export class McpServers {
  private readonly connections = new Map<string, McpConnection>();
  private withheld: WithheldServer[] = [];
  private configWarnings: string[] = [];
  /** Registry names each server has registered. */
  private readonly registered = new Map<string, string[]>();
  private readonly listeners = new Set<(change: McpChange) => void>();
  private lastStates = new Map<string, string>();
  private closed = false;
  private sessionNetwork: boolean;

  private readonly exitHooks: ExitHooks;

  constructor(private readonly options: McpServersOptions) {
    this.sessionNetwork = options.sessionNetwork === true;
    this.exitHooks = options.exitHooks ?? new ExitHooks();
  }

  /**
   * The session's network changed. Off: a connected HTTP server on another machine is closed (nothing
   * non-loopback is contacted from now on). On: servers refused for that reason are started again.
   */
  async setSessionNetwork(on: boolean): Promise<void> {
    if (this.sessionNetwork === on) return;
    this.sessionNetwork = on;
    if (this.closed) return;
    const affected = [...this.connections.values()].filter(
      (connection) => networkRefusal(connection.config, false) !== undefined,
    );
    await Promise.all(
      affected.map((connection) =>
        on ? (connection.status === "connected" ? undefined : connection.connect()) : connection.connect(),
      ),
    );
  }

  /** Called on every change (after the Registry is updated). Returns the unsubscribe function. */
  onChange(listener: (change: McpChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts every configured server (in parallel); resolves when each is connected or failed. */
  async start(config: LoadedMcpConfig): Promise<void> {
    this.withheld = [...config.withheld];
    this.configWarnings = [...config.warnings];
    const fresh: McpConnection[] = [];
    for (const server of config.servers) {
      if (this.connections.has(server.name)) continue;
      const connection = new McpConnection({
        config: server,
        workdir: this.options.workdir,
        sandbox: this.options.sandbox,
        sessionNetwork: () => this.sessionNetwork,
        clientVersion: this.options.clientVersion,
        ...(this.options.initializeTimeoutMs
          ? { initializeTimeoutMs: this.options.initializeTimeoutMs }
          : {}),
        onChange: () => this.changed(server.name),
        exitHooks: this.exitHooks,
      });
      this.connections.set(server.name, connection);
      fresh.push(connection);
    }
    this.withheld = this.withheld.filter((server) => !this.connections.has(server.name));
    this.emit("state");
    await Promise.all(fresh.map((connection) => (this.closed ? undefined : connection.connect())));
  }

  /** Ends a server and starts it again (after a crash, or to pick up a changed tool list). */
  async reconnect(name: string): Promise<void> {
    const connection = this.connections.get(name);
    if (!connection)
      throw new Error(
        `no MCP server named ${name} is configured${this.withheld.some((server) => server.name === name) ? " (it is withheld until the folder is trusted)" : ""}`,
      );
    if (this.closed) throw new Error("the session is closed");
    await connection.connect();
  }

  get warnings(): string[] {
    return [
      ...this.configWarnings,
      ...[...this.connections.values()].flatMap((connection) => connection.warnings),
    ];
  }

  get size(): number {
    return this.connections.size;
  }

  connection(name: string): McpConnection | undefined {
    return this.connections.get(name);
  }

  /** The skills each connected server serves (SEP-2640), by the host's name for it. */
  skillListings(): { server: string; listing: SkillListing }[] {
    return [...this.connections.values()].flatMap((connection) =>
      connection.status === "connected" && connection.skills
        ? [{ server: connection.name, listing: connection.skills }]
        : [],
    );
  }

  /** Pids of running stdio servers (tests check that none is left). */
  pids(): number[] {
    return [...this.connections.values()]
      .map((connection) => connection.pid)
      .filter((pid): pid is number => pid !== undefined);
  }

  /** Each server as the panel shows it: its tools are the ones registered (what the model is offered). */
  views(): McpServerView[] {
    const views = [...this.connections.values()].map((connection) => {
      const view = connection.view();
      const registered = new Set(this.registered.get(connection.name) ?? []);
      const tools = view.tools.filter((tool) => registered.has(tool.name));
      const definitionTokens = tools.reduce((sum, tool) => sum + tool.definitionTokens, 0);
      return { ...view, tools, definitionTokens };
    });
    for (const server of this.withheld) {
      views.push({
        name: server.name,
        transport: server.transport,
        configFile: server.configFile,
        scope: server.scope,
        target: server.transport === "http" ? server.url : [server.command, ...server.args].join(" "),
        ...optionalNeed(server),
        status: "withheld",
        error: server.withheldBecause ?? UNTRUSTED_FOLDER,
        tools: [],
        stderrTail: "",
        definitionTokens: 0,
      });
    }
    return views;
  }

  /**
   * Why a skill dependency `name` is missing, when it is an MCP tool: "server srv not connected" or
   * "srv has no tool X". Undefined for other names.
   */
  explainMissing(name: string): string | undefined {
    const parts = parseMcpToolName(name);
    if (!parts) return undefined;
    const connection = this.connections.get(parts.server);
    if (connection?.status !== "connected") return `server ${parts.server} not connected`;
    return `${parts.server} has no tool ${parts.tool}`;
  }

  /** Ends every server and removes their tools. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.connections.values()].map((connection) => connection.close()));
    for (const name of this.connections.keys()) this.syncRegistry(name);
    this.emit("state");
  }

  private changed(name: string): void {
    const connection = this.connections.get(name);
    if (!connection) return;
    const state = JSON.stringify([
      connection.status,
      connection.error,
      connection.tools.map((tool) => tool.name),
      connection.skills,
    ]);
    const kind: McpChange = this.lastStates.get(name) === state ? "stderr" : "state";
    this.lastStates.set(name, state);
    if (kind === "state") this.syncRegistry(name);
    this.emit(kind);
  }

  /** A connected server's tools are in the Registry; any other server's are not. */
  private syncRegistry(name: string): void {
    const connection = this.connections.get(name);
    const { registry } = this.options;
    const previous = this.registered.get(name) ?? [];
    const wanted = connection?.status === "connected" && !this.closed ? connection.tools : [];
    const wantedNames = new Set(wanted.map((tool) => tool.name));
    for (const stale of previous) if (!wantedNames.has(stale)) registry.unregister(stale);
    const names: string[] = [];
    const warn = (warning: string) => {
      if (!connection!.warnings.includes(warning)) connection!.warnings.push(warning);
    };
    for (const tool of wanted) {
      // A name a system tool holds is never replaced (registerOrReplace refuses it).
      if (registry.isProtected(tool.name)) {
        warn(`${name}: tool "${tool.tool}" skipped: ${tool.name} is a built-in tool's name`);
        continue;
      }
      try {
        registry.registerOrReplace(
          createMcpTool(connection!, tool, this.options.callTimeoutMs ?? DEFAULT_MCP_CALL_TIMEOUT_MS),
        );
        names.push(tool.name);
      } catch (error) {
        // Not expected (a schema that cannot be compiled registers with its check off), but never silent.
        warn(
          `${name}: tool "${tool.tool}" skipped: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
    this.registered.set(name, names);
  }

  private emit(change: McpChange): void {
    for (const listener of this.listeners) listener(change);
  }
}
