// Session → scenario: the model turns of a saved session (a real provider's, the manual provider's, a
// scripted replay's) as a scenario YAML the scripted model plays back offline. One scenario per
// conversation, `match` on its first message, the same texts and tool calls in request order, and with
// each turn the request its model answered (tool names, stable hash, workdir, conversation length, last
// message hash), so a replay can say where it diverges (providers/scenario-divergence.ts).
import { stringify } from "yaml";
import { PlaygroundError } from "../errors/index.ts";
import type { ChatMessage, ToolCall } from "../protocol/model.ts";
import type { RequestSnapshot } from "../protocol/runner-events.ts";
import { RequestReader } from "../protocol/request-model.ts";
import { contentSha256, environmentWorkdir } from "../providers/scenario-divergence.ts";
import type { ExportedSession } from "./exported-session.ts";

interface YamlTurn {
  text?: string;
  tool_calls?: { name: string; input: unknown }[];
  request: {
    tools: string[];
    stable_sha256: string;
    workdir?: string;
    messages: number;
    last_message_sha256?: string;
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A regex matching a message whose first line starts like `message`'s (at most 120 characters of it). */
export function firstMessageMatch(message: string): string {
  const firstLine = message.split("\n", 1)[0].trim();
  const head = firstLine.slice(0, 120);
  return `^\\s*${escapeRegExp(head)}${head.length === firstLine.length ? "\\s*$" : ""}`;
}

function recordedRequest(snapshot: RequestSnapshot): YamlTurn["request"] {
  const messages: ChatMessage[] = snapshot.messages;
  const last = messages[messages.length - 1];
  const workdir = environmentWorkdir(snapshot.system.environment);
  return {
    tools: snapshot.tools.map((tool) => tool.name),
    stable_sha256: snapshot.stableHash,
    ...(workdir !== undefined ? { workdir } : {}),
    messages: messages.length,
    ...(last ? { last_message_sha256: contentSha256(last.content) } : {}),
  };
}

function yamlCalls(calls: readonly ToolCall[]): { name: string; input: unknown }[] {
  return calls.map((call) => ({
    name: call.name,
    input: typeof call.input === "object" && call.input !== null ? call.input : {},
  }));
}

/** The scenario YAML of a saved session; refuses a session in which the model never answered. */
export function sessionToScenario(session: ExportedSession): string {
  const { header } = session;
  const requests = new RequestReader();
  const snapshots = new Map<number, RequestSnapshot>();
  const answers = new Map<number, { text: string; toolCalls: ToolCall[] }>();
  const userMessages: string[] = [];
  for (const { event } of session.events) {
    requests.observe(event);
    if ("console" in event && event.console) continue;
    if (event.type === "run_started") userMessages.push(event.userMessage);
    else if (event.type === "request")
      snapshots.set(event.snapshot.requestIndex, requests.resolve(event.snapshot));
    else if (event.type === "assistant_message")
      answers.set(event.requestIndex, { text: event.message.content, toolCalls: event.message.toolCalls });
    else if (
      event.type === "history_appended" &&
      event.message.role === "assistant" &&
      event.requestIndex !== undefined
    )
      answers.set(event.requestIndex, { text: event.message.content, toolCalls: event.message.toolCalls });
  }
  const turns: YamlTurn[] = [];
  for (const [index, snapshot] of [...snapshots].sort(([left], [right]) => left - right)) {
    const answer = answers.get(index);
    // A request that failed or was stopped before the model answered has no turn to replay.
    if (!answer || (answer.text === "" && answer.toolCalls.length === 0)) continue;
    turns.push({
      ...(answer.text ? { text: answer.text } : {}),
      ...(answer.toolCalls.length > 0 ? { tool_calls: yamlCalls(answer.toolCalls) } : {}),
      request: recordedRequest(snapshot),
    });
  }
  if (turns.length === 0)
    throw new PlaygroundError(
      "invalid_arguments",
      `session ${header.id} has no model turn to replay (no request was answered)`,
    );
  const slug = header.title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 40);
  const document = {
    name: `replay-${slug || header.id}`,
    description:
      `Replay of session ${header.id} (${header.settings.provider}/${header.settings.model}), ` +
      `recorded in ${header.settings.workdir}. Send the recorded messages to reach the same tool calls.`,
    ...(userMessages[0] !== undefined ? { match: firstMessageMatch(userMessages[0]) } : {}),
    recorded: {
      session: header.id,
      provider: header.settings.provider,
      model: header.settings.model,
      at: header.createdAt,
      // A slash invocation's message is the command plus its SOP: the typed command is its first line.
      messages: userMessages.map((message) => message.split("\n", 1)[0]),
    },
    turns,
  };
  return `# Recorded from a PseudoClaude Playground session; replay with the scripted provider.\n${stringify(
    document,
    { lineWidth: 0 },
  )}`;
}
