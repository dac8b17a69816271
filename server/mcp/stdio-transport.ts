// The stdio transport of an MCP server that runs inside the sandbox (server/tools/sandbox.ts): the SDK's
// newline-delimited JSON-RPC framing over the child's stdin/stdout, but the child is bubblewrap around the
// server's command (its PID namespace dies with it, --die-with-parent), in its own process group. The
// server gets the minimal environment plus the config's `env`, set inside the sandbox; bwrap itself runs
// with the launcher's fixed environment (server/tools/child-environment.ts). The SDK's own
// StdioClientTransport cannot hand bwrap its seccomp program on descriptor 3, hence this class. stderr is
// kept (a bounded tail) and shown.
//
// Nothing a server writes can throw out of this class (S19): every stream and the child have an error
// handler, a line that is not JSON-RPC is reported to `onerror` and skipped, and a message over
// MAX_MESSAGE_BYTES (the SDK's own limit) or nested deeper than MAX_MESSAGE_NESTING stops this server with
// `failure` saying so — the handlers run on stream events, where a throw would be uncaught and end the
// whole playground, and a message nested a million deep parses but overflows the stack of whatever
// walks it later (JSON.stringify, structuredClone, schema compilers).
import type { ExitHooks } from "../tools/exit-hooks.ts";
import { statSync } from "node:fs";
import path from "node:path";
import { spawn, type ChildProcess } from "node:child_process";
import { deserializeMessage, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { isGroupAlive, signalGroup, waitForGroupExit } from "../tools/process-group.ts";
import { childEnvironment, LAUNCHER_ENVIRONMENT } from "../tools/child-environment.ts";
import { findProgram } from "../tools/find-program.ts";
import { jsonNestingDepth } from "../protocol/json-depth.ts";
import { bwrapArguments, type SandboxPolicy } from "../tools/sandbox.ts";
import { guardRepositories } from "../tools/sandbox-call.ts";
import { LineReader, MAX_MESSAGE_BYTES } from "./line-reader.ts";

/** Bytes of stderr kept per server (the tail). */
export const STDERR_TAIL_BYTES = 16 * 1024;
export { MAX_MESSAGE_BYTES };
const MAX_MESSAGE_TEXT = `${MAX_MESSAGE_BYTES / (1024 * 1024)} MiB`;
/** Levels of arrays and objects one message may nest (input schemas and results need far fewer). */
export const MAX_MESSAGE_NESTING = 256;
const KILL_GRACE_MS = 1000;

export interface StdioLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /** Enabled: the command runs under bwrap with this policy; disabled: directly (sandbox off). */
  sandbox: SandboxPolicy;
  onStderr?: (text: string) => void;
  /** Where the last-resort kill of this server's group is registered (the composition root's). */
  exitHooks: ExitHooks;
}

export class SandboxedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  private child: ChildProcess | undefined;
  private readonly reader = new LineReader({ maxLineBytes: MAX_MESSAGE_BYTES });
  private stderrTail: Buffer = Buffer.alloc(0);
  private failureText: string | undefined;
  private exited: Promise<void> = Promise.resolve();
  private closing = false;
  private removeExitHook: (() => void) | undefined;
  private guarded: SandboxPolicy | undefined;

  constructor(private readonly launch: StdioLaunch) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** The last STDERR_TAIL_BYTES of stderr (a character cut at the start is dropped). */
  get stderr(): string {
    return this.stderrTail.toString("utf8").replace(/^\uFFFD/, "");
  }

  /**
   * The policy the server runs under, once start() has guarded it (its repositories scanned and bound):
   * each of its tool calls is checked against it (call-check.ts). Undefined with the sandbox off.
   */
  get policy(): SandboxPolicy | undefined {
    return this.guarded;
  }

  /** Why this transport stopped its server (a message over the limit), if it did. */
  get failure(): string | undefined {
    return this.failureText;
  }

  async start(): Promise<void> {
    if (this.child) throw new Error("SandboxedStdioTransport already started");
    const { launch } = this;
    const program = findProgram(launch.command, launch.env.PATH ?? process.env.PATH);
    if (!program) throw new Error(notFoundText(launch.command));
    // The workdir's repositories stay as they are while the server runs (sandbox-git.ts).
    const sandbox = launch.sandbox.enabled ? await guardRepositories(launch.sandbox) : undefined;
    // Closed while the workdir was being scanned: nothing is started.
    if (this.closing) throw new Error("the MCP server was closed before it started");
    if (sandbox?.refusal) throw new Error(`sandbox: ${sandbox.refusal}`);
    if (sandbox && !sandbox.program) throw new Error("sandbox: no bubblewrap program");
    this.guarded = sandbox;
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
      let spawned = false;
      child.on("error", (error) => {
        if (!spawned) reject(error);
        this.onerror?.(error);
      });
      child.once("spawn", () => {
        spawned = true;
        // Killed on process exit if nobody closed it (a crash, a plain exit).
        const pid = child.pid;
        if (pid !== undefined)
          this.removeExitHook = this.launch.exitHooks.add(() => signalGroup(pid, "SIGKILL"));
        if (sandbox?.seccomp) {
          // bwrap reads its seccomp program on descriptor 3, to its end. A bwrap that exits first makes
          // this write fail (EPIPE): reported, as the exit itself is.
          const seccomp = child.stdio[3] as NodeJS.WritableStream;
          seccomp.on("error", (error: Error) => this.onerror?.(error));
          seccomp.end(Buffer.from(sandbox.seccomp));
        }
        resolve();
      });
      child.stdout!.on("data", (chunk: Buffer) => this.receive(chunk));
      child.stderr!.on("data", (chunk: Buffer) => {
        this.stderrTail = keepTail(this.stderrTail, chunk, STDERR_TAIL_BYTES);
        launch.onStderr?.(chunk.subarray(-STDERR_TAIL_BYTES).toString("utf8"));
      });
      for (const stream of [child.stdin!, child.stdout!, child.stderr!])
        stream.on("error", (error: Error) => this.onerror?.(error));
      child.once("close", () => {
        this.removeExitHook?.();
        this.onclose?.();
      });
    });
  }

  /** Frames stdout into messages; a line that is not JSON-RPC is reported and skipped. */
  private receive(chunk: Buffer): void {
    const read = this.reader.push(chunk);
    for (const line of read.lines) {
      if (this.failureText !== undefined) return;
      const text = line.toString("utf8").replace(/\r$/, "");
      if (jsonNestingDepth(text, MAX_MESSAGE_NESTING) > MAX_MESSAGE_NESTING)
        return this.stop(
          `it sent a message nested deeper than ${MAX_MESSAGE_NESTING} levels of arrays and objects; the limit is ${MAX_MESSAGE_NESTING}, so the server was stopped`,
        );
      let message: JSONRPCMessage;
      try {
        message = deserializeMessage(text);
      } catch (error) {
        this.onerror?.(new NotJsonRpcLine(error, line.length));
        continue;
      }
      try {
        this.onmessage?.(message);
      } catch (error) {
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      }
    }
    if ("overLimit" in read)
      this.stop(
        `it sent a message over ${MAX_MESSAGE_TEXT} (more than ${MAX_MESSAGE_BYTES} bytes before a line break); the limit is ${MAX_MESSAGE_TEXT} per message, so the server was stopped`,
      );
  }

  /** Stops the server for breaking a limit: nothing more is read, and `failure` says why. */
  private stop(reason: string): void {
    if (this.failureText !== undefined) return;
    this.failureText = reason;
    this.child?.stdout?.removeAllListeners("data");
    this.onerror?.(new Error(reason));
    this.close().catch((error: unknown) => this.onerror?.(error as Error));
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed) return Promise.reject(new Error("the MCP server's stdin is closed"));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else {
        // Settled by the drain, or by the stream closing (the server is gone; its close reports that).
        stdin.once("drain", resolve);
        stdin.once("close", resolve);
      }
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
    this.reader.clear();
  }
}

/** A stdout line that is not a JSON-RPC message (a server printing logs to stdout, or garbage). */
export class NotJsonRpcLine extends Error {
  constructor(cause: unknown, bytes: number) {
    const reason =
      cause instanceof SyntaxError
        ? `not JSON: ${cause.message.slice(0, 120)}`
        : "JSON, but not JSON-RPC 2.0";
    super(`a line of ${bytes} bytes on its stdout was skipped (${reason}); only protocol messages go there`);
    this.name = "NotJsonRpcLine";
  }
}

/** The last `limit` bytes of `tail` followed by `chunk`. */
function keepTail(tail: Buffer, chunk: Buffer, limit: number): Buffer {
  if (chunk.length >= limit) return Buffer.from(chunk.subarray(chunk.length - limit));
  const keep = Math.min(tail.length, limit - chunk.length);
  return Buffer.concat([tail.subarray(tail.length - keep), chunk]);
}
/**
 * Why `command` cannot be started. A path to a file without the execute bit is not "not found": npm can
 * leave a package's bin script that way, and the fix is to run it with its interpreter.
 */
function notFoundText(command: string): string {
  if (command.includes("/")) {
    const file = path.resolve(command);
    if (statSync(file, { throwIfNoEntry: false })?.isFile()) {
      return (
        `not executable: ${file} exists but has no execute permission; run it with its interpreter ` +
        `("command": "node", "args": ["${file}", …] for a Node script) or chmod +x it`
      );
    }
  }
  return `command not found: ${command}`;
}
