// Builders for realistic wire messages, shared by the reducer and derive tests.
import type {
  LOAD_SKILL_TOOL_NAME,
  RequestSnapshot,
  ServerMessage,
  SessionEvent,
  SessionSummary,
  SkillView,
  ToolDefinition,
} from "../../server/protocol/index.ts";
import type { ResolvedSnapshot } from "./snapshot-view.ts";

const LOAD_SKILL: typeof LOAD_SKILL_TOOL_NAME = "load_skill";

export function summary(id = "s1"): SessionSummary {
  return {
    id,
    title: "demo",
    createdAt: "2026-12-02T10:00:00.000Z",
    updatedAt: "2026-12-02T10:00:00.000Z",
    settings: {
      workdir: "/tmp/demo",
      provider: "scripted",
      model: "scripted-1",
      permissionMode: "default",
      disclosure: "progressive",
    },
    messageCount: 0,
    running: false,
  };
}

export function envelope(seq: number, event: SessionEvent, sessionId = "s1"): ServerMessage {
  return { type: "event", sessionId, seq, event };
}

export function tool(name: string, origin: ToolDefinition["origin"] = "system"): ToolDefinition {
  return {
    name,
    description: `${name} tool`,
    inputSchema: { type: "object" },
    safety: origin === "skill" ? "side_effect" : "read_only",
    category: origin === "skill" ? "exec" : "read",
    origin,
  };
}

/** A snapshot with its messages in full (as the Runner makes it, and as the reducer resolves it). */
export function snapshot(overrides: Partial<ResolvedSnapshot> = {}): ResolvedSnapshot {
  return {
    runId: "r1",
    requestIndex: 1,
    iteration: 1,
    provider: "scripted",
    model: "scripted-1",
    disclosure: "progressive",
    system: {
      stable: "You are PseudoClaude.\n## Skills\n- review: reviews code",
      environment: "## Environment\ncwd: /tmp/demo\n",
    },
    stableHash: "aaaa",
    messages: [{ role: "user", content: "review it" }],
    tools: [tool(LOAD_SKILL), tool("read_file")],
    registeredNotVisible: [],
    listedSkills: ["review"],
    activeSkills: [],
    at: "2026-12-02T10:00:01.000Z",
    ...overrides,
  };
}

export function skill(name: string, toolNames: string[] = []): SkillView {
  return {
    name,
    description: `${name} skill`,
    source: "builtin",
    entryPath: `/skills/${name}/SKILL.md`,
    rootDir: `/skills/${name}`,
    toolNames,
    toolSpecs: toolNames.map((toolName) => ({
      name: toolName,
      description: "",
      input_schema: { type: "object" },
      command: ["node", "run.js"],
    })),
    meta: { tools: toolNames, mode: "shared", history: "recent", extra: {} },
    body: `Body of ${name}`,
  };
}
