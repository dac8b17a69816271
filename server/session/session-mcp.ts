// A session's MCP servers: started in the background when the session starts (the workdir's own only in
// a trusted folder; trusting it later starts them), their state sent as `mcp_state` events (stderr-only
// changes at most every STDERR_EVENT_MS), the catalog snapshot sent again when tools come or go, a
// reconnect by name, and everything ended with the session.
import { errorMessage, PlaygroundError, type ErrorType } from "../errors/index.ts";
import type { FolderTrust } from "../protocol/sandbox.ts";
import type { SessionEvent } from "../protocol/wire.ts";
import type { SessionWorkspace } from "./session-types.ts";

export const STDERR_EVENT_MS = 500;

export interface SessionMcpOptions {
  workspace: SessionWorkspace;
  emit(event: SessionEvent): void;
  emitError(code: ErrorType, message: string): void;
  /** The Registry or the catalog changed: send the catalog snapshot again. */
  catalogChanged(): void;
}

export class SessionMcp {
  private stderrTimer: NodeJS.Timeout | undefined;
  private started: Promise<void> = Promise.resolve();
  private reported = new Set<string>();
  /** Each server's status in the last mcp_state sent, to report a crash once. */
  private statuses = new Map<string, string>();
  private closed = false;
  private readonly unsubscribe: () => void;

  constructor(private readonly options: SessionMcpOptions) {
    const mcp = options.workspace.mcp;
    this.unsubscribe = mcp
      ? mcp.onChange((change) => {
          if (this.closed) return;
          if (change === "state") {
            this.sendState();
            options.catalogChanged();
          } else this.stderrTimer ??= setTimeout(() => this.sendState(), STDERR_EVENT_MS);
        })
      : () => undefined;
  }

  /**
   * Starts the configured servers without waiting for them (each reports its own state): the workdir's
   * own only as `trust` covers them. `network`: the session's, when given (HTTP servers on other hosts).
   */
  start(trust: boolean | FolderTrust, network?: boolean): void {
    const { workspace } = this.options;
    if (!workspace.startMcp || this.closed) return;
    const startMcp = workspace.startMcp;
    this.started = this.started.then(async () => {
      try {
        if (network !== undefined) await workspace.mcp?.setSessionNetwork(network);
        await startMcp(trust);
      } catch (error) {
        this.options.emitError("mcp_error", `MCP servers could not be started: ${errorMessage(error)}`);
      }
      this.reportWarnings();
    });
  }

  /** Resolves once the last `start` has settled (every server connected or failed). */
  whenStarted(): Promise<void> {
    return this.started;
  }

  /** The session's network changed: HTTP servers on other hosts are closed, or started again. */
  setSessionNetwork(on: boolean): void {
    const mcp = this.options.workspace.mcp;
    if (!mcp || this.closed) return;
    this.started = this.started.then(async () => {
      try {
        await mcp.setSessionNetwork(on);
      } catch (error) {
        this.options.emitError(
          "mcp_error",
          `MCP servers could not follow the network setting: ${errorMessage(error)}`,
        );
      }
    });
  }

  async reconnect(name: string): Promise<void> {
    const mcp = this.options.workspace.mcp;
    if (!mcp) throw new PlaygroundError("not_found", "this session has no MCP servers");
    try {
      await mcp.reconnect(name);
    } catch (error) {
      throw new PlaygroundError("not_found", errorMessage(error));
    }
    this.reportWarnings();
  }

  private reportWarnings(): void {
    for (const warning of this.options.workspace.mcp?.warnings ?? []) {
      if (this.reported.has(warning)) continue;
      this.reported.add(warning);
      this.options.emitError("mcp_error", warning);
    }
  }

  private sendState(): void {
    clearTimeout(this.stderrTimer);
    this.stderrTimer = undefined;
    const mcp = this.options.workspace.mcp;
    if (!mcp || this.closed) return;
    const servers = mcp.views();
    if (servers.length === 0) return;
    this.options.emit({ type: "mcp_state", servers, warnings: mcp.warnings });
    for (const server of servers) {
      if (server.status === "crashed" && this.statuses.get(server.name) !== "crashed")
        this.options.emitError(
          "mcp_error",
          `MCP server ${server.name} crashed: ${server.error ?? "it ended"} (Reconnect in the MCP panel)`,
        );
      this.statuses.set(server.name, server.status);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.stderrTimer);
    this.unsubscribe();
    await this.started;
    await this.options.workspace.mcp?.close();
  }
}
