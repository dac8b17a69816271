// The provider and the permission engine of one session, and the two ways a run waits for the person:
// an approval (the permission hook's `ask`) and a model turn the person writes (a provider's "awaiting
// input", providers/types.ts). Built when the session starts and rebuilt when its settings change; the
// session asks this object and never looks at which provider it has.
import { PlaygroundError } from "../errors/index.ts";
import type { StreamInput } from "./request-writer.ts";
import type { ApprovalAnswer } from "../protocol/permission.ts";
import type { RequestSnapshot } from "../protocol/runner-events.ts";
import type { FolderTrust, TrustAnswer } from "../protocol/sandbox.ts";
import type { SessionEvent, SessionSettings } from "../protocol/wire.ts";
import type { ScopedAllowRule } from "../permission/scoped-allows.ts";
import type { PermissionHook } from "../permission/types.ts";
import type { AwaitingInput, InputReply, Provider } from "../providers/types.ts";
import { sandboxState } from "../tools/sandbox.ts";
import { Approvals } from "./approvals.ts";
import type { PermissionEvaluator, SessionParts } from "./session-types.ts";
import { RUN_IN_PROGRESS } from "./turn-gate.ts";

export interface SessionEnginesOptions {
  parts: SessionParts;
  home: string;
  /** Realpath of the session's working directory. */
  workdir: string;
  emit(event: StreamInput): void;
  /** The request the current run sent last: what a person who is the model is shown. */
  currentRequest(): RequestSnapshot | undefined;
  /** Allow rules from the loaded skills' allowed-tools (empty unless the session honours them). */
  scopedAllows?: () => readonly ScopedAllowRule[];
}

interface WaitingTurn {
  requestIndex: number;
  reply: AwaitingInput["reply"];
}

export class SessionEngines {
  private provider: Provider | undefined;
  private readonly approvals = new Approvals();
  private waitingTurn: WaitingTurn | undefined;

  private constructor(
    private readonly options: SessionEnginesOptions,
    private permission: PermissionEvaluator,
  ) {}

  static async create(options: SessionEnginesOptions, settings: SessionSettings): Promise<SessionEngines> {
    const permission = await options.parts.createPermission({
      mode: settings.permissionMode,
      workdir: options.workdir,
      home: options.home,
      allowNetwork: settings.allowNetwork === true,
    });
    const engines = new SessionEngines(options, permission);
    engines.applySandbox(settings);
    engines.applyScopedAllows();
    return engines;
  }

  /** Problems loading permission settings files, for the user. */
  get loadProblems(): readonly string[] {
    return this.permission.loadProblems ?? [];
  }

  /** The workdir's trust (absent: this permission engine has no folder trust). */
  get trust(): FolderTrust | undefined {
    return this.permission.trust;
  }

  /** Approvals and model turns waiting for the person. */
  get waitingForPerson(): number {
    return this.approvals.size + (this.waitingTurn ? 1 : 0);
  }

  private applyScopedAllows(): void {
    if (this.options.scopedAllows) this.permission.setScopedAllows?.(this.options.scopedAllows);
  }

  /** Tells the permission engine the sandbox the session's processes run in (part of every exec trace). */
  applySandbox(settings: SessionSettings): void {
    this.permission.setSandbox?.(sandboxState(settings.allowNetwork === true));
  }

  permissionHook(): PermissionHook {
    return {
      evaluate: (check) => this.permission.evaluate(check),
      ask: (request, signal) => this.approvals.ask(request, signal),
      rememberSessionAllow: (check) => this.permission.rememberSessionAllow(check),
    };
  }

  answerApproval(callId: string, answer: ApprovalAnswer): void {
    this.approvals.answer(callId, answer);
  }

  /** The provider the settings name, built on first use and kept until the settings change it. */
  async providerFor(settings: SessionSettings): Promise<Provider> {
    this.provider ??= await this.options.parts.createProvider({
      settings,
      onAwaitingInput: (awaiting) => this.onAwaitingInput(awaiting),
    });
    return this.provider;
  }

  private onAwaitingInput(awaiting: AwaitingInput): void {
    const snapshot = this.options.currentRequest();
    if (!snapshot) return;
    this.waitingTurn = { requestIndex: snapshot.requestIndex, reply: awaiting.reply };
    this.options.emit({
      type: "manual_turn_requested",
      runId: snapshot.runId,
      requestIndex: snapshot.requestIndex,
      snapshot,
    });
  }

  /** The person's answer to the model turn waiting for request #requestIndex. */
  replyToTurn(requestIndex: number, answer: InputReply): void {
    const waiting = this.waitingTurn;
    if (waiting?.requestIndex !== requestIndex) {
      throw new PlaygroundError(
        "invalid_arguments",
        `no manual turn is waiting for request #${requestIndex}` +
          (waiting ? ` (request #${waiting.requestIndex} is waiting)` : ""),
      );
    }
    const outcome = waiting.reply(answer);
    if (!outcome.ok) throw new PlaygroundError("invalid_arguments", outcome.error);
    this.waitingTurn = undefined;
  }

  /** A run stopped: whatever turn it left waiting can no longer be answered. */
  runStopped(): void {
    this.waitingTurn = undefined;
  }

  /**
   * Carries a settings change to the engines: a new provider (refused while a run uses the old one) and
   * the permission mode (kept "allow for this session" rules where the engine can switch mode in place).
   */
  async applySettings(previous: SessionSettings, next: SessionSettings, running: boolean): Promise<void> {
    if (
      next.provider !== previous.provider ||
      next.model !== previous.model ||
      next.scenario !== previous.scenario
    ) {
      if (running)
        throw new PlaygroundError("run_in_progress", `${RUN_IN_PROGRESS} before changing the model`);
      this.provider = undefined;
    }
    if (next.permissionMode === previous.permissionMode) return;
    if (this.permission.setMode) {
      this.permission.setMode(next.permissionMode);
      return;
    }
    this.permission = await this.options.parts.createPermission({
      mode: next.permissionMode,
      workdir: this.options.workdir,
      home: this.options.home,
      allowNetwork: next.allowNetwork === true,
    });
    this.applySandbox(next);
    this.applyScopedAllows();
  }

  /** Trusts the workdir: its own allow rules apply from the next tool call (server/permission/trust.ts). */
  trustFolder(remember: boolean, answer?: TrustAnswer): Promise<{ trust: FolderTrust; problems: string[] }> {
    if (!this.permission.trustFolder)
      throw new PlaygroundError("invalid_arguments", "this session's permission engine has no folder trust");
    return this.permission.trustFolder(remember, answer);
  }
}
