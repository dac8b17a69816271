import type {
  ChatMessage,
  DisclosureMode,
  StopReason,
  ToolCall,
  ToolDefinition,
  ToolResult,
  Usage,
} from "./model.ts";
import type { ApprovalAnswer, ApprovalRequest, PermissionTrace } from "./permission.ts";
import type { SandboxState } from "./sandbox.ts";

/** Everything the model was given for one request, captured before the provider is called. */
export interface RequestSnapshot {
  runId: string;
  /** 1-based index of the request within the session (across runs). */
  requestIndex: number;
  /** 1-based iteration within the run. */
  iteration: number;
  provider: string;
  model: string;
  disclosure: DisclosureMode;
  system: { stable: string; environment: string };
  /** sha256 hex of system.stable. */
  stableHash: string;
  messages: ChatMessage[];
  /** The run-level tool definitions snapshot: what the model can see. */
  tools: ToolDefinition[];
  /** Names of tools registered in the Registry but not in `tools` (registered, not visible yet). */
  registeredNotVisible: string[];
  /** Skill names as listed in the stable system index. */
  listedSkills: string[];
  /** Active skill names in activation order (their bodies are in the environment). */
  activeSkills: string[];
  /** The system.stable that eager mode would have produced (for the eager-vs-progressive comparison). */
  eagerStableLength?: number;
  at: string;
}

/** The events of a run, each with the console marker (see ConsoleMarker). */
export type RunnerEvent = RunnerEventVariant & ConsoleMarker;

/**
 * Set on the events of a call made by hand from the tool console: no model request produced it and no
 * run owns it (their runId is only the call's id; their requestIndex, 0, means nothing).
 */
export interface ConsoleMarker {
  console?: true;
}

type RunnerEventVariant =
  | {
      type: "run_started";
      runId: string;
      userMessage: string;
      skill?: string;
      /** The sandbox this run's processes use (absent in logs written before the sandbox existed). */
      sandbox?: SandboxState;
    }
  | { type: "request"; runId: string; snapshot: RequestSnapshot }
  /** The provider's own payload (keys redacted) for the Raw pane. */
  | { type: "provider_payload"; runId: string; requestIndex: number; payload: unknown }
  | {
      type: "provider_retry";
      runId: string;
      requestIndex: number;
      attempt: number;
      delayMs: number;
      reason: string;
    }
  | { type: "text_delta"; runId: string; requestIndex: number; text: string }
  | { type: "usage"; runId: string; requestIndex: number; usage: Usage }
  | {
      type: "assistant_message";
      runId: string;
      requestIndex: number;
      message: ChatMessage & { role: "assistant" };
    }
  | {
      type: "tool_call";
      runId: string;
      requestIndex: number;
      call: ToolCall;
      known: boolean;
      visible: boolean;
    }
  | { type: "permission_request"; runId: string; request: ApprovalRequest }
  | {
      type: "permission_decision";
      runId: string;
      callId: string;
      trace: PermissionTrace;
      answer?: ApprovalAnswer;
    }
  | { type: "tool_started"; runId: string; callId: string; tool: string }
  | {
      type: "tool_result";
      runId: string;
      callId: string;
      result: ToolResult;
      durationMs: number;
      trace?: PermissionTrace;
      /** Full output for the UI (up to 1 MiB) when the model's copy was capped. */
      fullOutput?: string;
    }
  | {
      type: "skill_activated";
      runId: string;
      name: string;
      source: string;
      position: number;
      /** The arguments the skill was loaded with (absent in logs written before they were recorded). */
      arguments?: string;
    }
  | { type: "tools_registered"; runId: string; skill: string; tools: string[] }
  | { type: "history_appended"; runId: string; message: ChatMessage }
  | { type: "stop"; runId: string; reason: StopReason; message?: string; iterations: number };
