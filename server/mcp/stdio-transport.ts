// The stdio transport of an MCP server that runs inside the sandbox (server/tools/sandbox.ts): the SDK's
// newline-delimited JSON-RPC framing over the child's stdin/stdout, but the child is bubblewrap around the
// server's command (its PID namespace dies with it, --die-with-parent), in its own process group. The
// server gets the minimal environment plus the config's `env`, set inside the sandbox; bwrap itself runs
// with the launcher's fixed environment (server/tools/child-environment.ts). The SDK's own
// StdioClientTransport cannot hand bwrap its seccomp program on descriptor 3, hence this class. stderr is
// kept (a bounded tail) and shown.
import { spawn, type ChildProcess } from "node:child_process";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { isGroupAlive, signalGroup, waitForGroupExit } from "../tools/process-group.ts";
import { childEnvironment, LAUNCHER_ENVIRONMENT } from "../tools/child-environment.ts";
import { findProgram } from "../tools/find-program.ts";
import { bwrapArguments, guardRepositories, type SandboxPolicy } from "../tools/sandbox.ts";

/** Bytes of stderr kept per server (the tail). */
export const STDERR_TAIL_BYTES = 16 * 1024;
const KILL_GRACE_MS = 1000;

export interface StdioLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /** Enabled: the command runs under bwrap with this policy; disabled: directly (sandbox off). */
  sandbox: SandboxPolicy;
  onStderr?: (text: string) => void;
}

/** Live server process groups of this process, killed by the exit hook if nobody closed them. */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

export class SandboxedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  private child: ChildProcess | undefined;
  private readonly buffer = new ReadBuffer();
  private stderrText = "";
  private exited: Promise<void> = Promise.resolve();
  private closing = false;

  constructor(private readonly launch: StdioLaunch) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get stderr(): string {
    return this.stderrText;
  }

  async start(): Promise<void> {
    if (this.child) throw new Error("SandboxedStdioTransport already started");
    const { launch } = this;
    const program = findProgram(launch.command, launch.env.PATH ?? process.env.PATH);
    if (!program) throw new Error(`command not found: ${launch.command}`);
    // The workdir's repositories stay as they are while the server runs (sandbox-git.ts).
    const sandbox = launch.sandbox.enabled ? await guardRepositories(launch.sandbox) : undefined;
    // Closed while the workdir was being scanned: nothing is started.
    if (this.closing) throw new Error("the MCP server was closed before it started");
    if (sandbox?.refusal) throw new Error(`sandbox: ${sandbox.refusal}`);
    if (sandbox && !sandbox.program) throw new Error("sandbox: no bubblewrap program");
    // A plain string map: next-env.d.ts makes ProcessEnv demand NODE_ENV, which a child need not get.
    const environment = childEnvironment(launch.env, sandbox !== undefined);
    const file = sandbox ? sandbox.program! : program;
    const args = sandbox
      ? bwrapArguments(sandbox, { cwd: launch.cwd, file: program, args: launch.args, env: environment })
      : launch.args;
    const stdio: ("pipe" | "ignore")[] = [
      "pipe",
      "pipe",
      "pipe",
      ...(sandbox?.seccomp ? (["pipe"] as const) : []),
    ];
    const child: ChildProcess = spawn(file, args, {
      cwd: launch.cwd,
      env: (sandbox ? { ...LAUNCHER_ENVIRONMENT } : environment) as NodeJS.ProcessEnv,
      // Its own process group: one signal to -pid ends it and whatever it started.
      detached: true,
      stdio,
    });
    this.child = child;
    this.exited = new Promise((resolve) => child.once("close", () => resolve()));
    return new Promise((resolve, reject) => {
      child.once("error", (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.once("spawn", () => {
        if (child.pid !== undefined) {
          liveGroups.add(child.pid);
          installExitHook();
        }
        if (sandbox?.seccomp) {
          // bwrap reads its seccomp program on descriptor 3, to its end.
          const seccomp = child.stdio[3] as NodeJS.WritableStream;
          seccomp.end(Buffer.from(sandbox.seccomp));
        }
        resolve();
      });
      child.stdout!.on("data", (chunk: Buffer) => {
        this.buffer.append(chunk);
        this.drain();
      });
      child.stderr!.on("data", (chunk: Buffer) => {
        const text = chunk.toString("utf8");
        this.stderrText = (this.stderrText + text).slice(-STDERR_TAIL_BYTES);
        launch.onStderr?.(text);
      });
      child.stdin!.on("error", (error) => this.onerror?.(error));
      child.once("close", () => {
        if (child.pid !== undefined) liveGroups.delete(child.pid);
        this.onclose?.();
      });
    });
  }

  private drain(): void {
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.buffer.readMessage();
      } catch (error) {
        // A line that is not JSON-RPC (a server printing to stdout): reported, the stream goes on.
        this.onerror?.(error as Error);
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed) return Promise.reject(new Error("the MCP server's stdin is closed"));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once("drain", resolve);
    });
  }

  /** Ends the server: stdin closed, SIGTERM to its group, SIGKILL after 1 s; resolves once it is gone. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child || this.closing) {
      this.closing = true;
      return this.exited;
    }
    this.closing = true;
    const pid = child.pid;
    child.stdin?.end();
    if (pid !== undefined && child.exitCode === null && child.signalCode === null) {
      signalGroup(pid, "SIGTERM");
      if (!(await waitForGroupExit(pid, KILL_GRACE_MS, 10))) signalGroup(pid, "SIGKILL");
    }
    await this.exited;
    // The leader is gone; anything left in its group (no sandbox: a child it started) goes too.
    if (pid !== undefined && isGroupAlive(pid)) {
      signalGroup(pid, "SIGKILL");
      await waitForGroupExit(pid, KILL_GRACE_MS, 10);
    }
    this.buffer.clear();
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const pid of liveGroups) signalGroup(pid, "SIGKILL");
  });
}
