// A session's runs as the compare view shows them (server/protocol/branch.ts RunDigest): per request the
// server's token counts by part (with its tokenizer), the provider's usage, the cost when the snapshot
// carries one, the prompt parts for line diffs; per run the skills loaded, the tools called, the stop
// reason and the final answer. A pure fold over logged events (text deltas are not logged: the final
// answer is the run's last assistant message).
import type { RequestDigest, RunDigest } from "../protocol/branch.ts";
import type { RequestSnapshot } from "../protocol/runner-events.ts";
import { RequestReader } from "../protocol/request-model.ts";
import type { SessionEvent } from "../protocol/wire.ts";

/** The cost a cache/cost model may attach to a snapshot (an optional field another part of the project adds). */
function snapshotCost(snapshot: RequestSnapshot): number | undefined {
  const cost = (snapshot as { cache?: { costUsd?: unknown } }).cache?.costUsd;
  return typeof cost === "number" && Number.isFinite(cost) ? cost : undefined;
}

function requestTokens(snapshot: RequestSnapshot): RequestDigest["tokens"] {
  if (!snapshot.segments) return undefined;
  const tokens = { tools: 0, stable: 0, environment: 0, messages: 0, total: 0 };
  for (const segment of snapshot.segments) {
    if (segment.kind === "message") tokens.messages += segment.tokens;
    else if (segment.kind === "tool") tokens.tools += segment.tokens;
    else if (segment.kind === "system") tokens.stable += segment.tokens;
    else tokens.environment += segment.tokens;
  }
  tokens.total = tokens.tools + tokens.stable + tokens.environment + tokens.messages;
  return tokens;
}

/** Every run of the logged events, in order (tool console calls are not runs and are left out). */
export function runDigests(sessionId: string, events: readonly { event: SessionEvent }[]): RunDigest[] {
  const runs = new Map<string, RunDigest>();
  const requests = new RequestReader();
  const byRequest = new Map<number, RequestDigest>();
  for (const { event } of events) {
    requests.observe(event);
    if ("console" in event && event.console) continue;
    switch (event.type) {
      case "run_started":
        runs.set(event.runId, {
          sessionId,
          runId: event.runId,
          userMessage: event.userMessage,
          requests: [],
          skillsLoaded: [],
          toolsCalled: [],
          finalAnswer: "",
        });
        break;
      case "history_appended": {
        const run = runs.get(event.runId);
        if (run && event.message.role === "assistant") run.finalAnswer = event.message.content;
        break;
      }
      case "request": {
        const run = runs.get(event.runId);
        if (!run) break;
        const snapshot = requests.resolve(event.snapshot);
        const cost = snapshotCost(snapshot);
        const digest: RequestDigest = {
          requestIndex: snapshot.requestIndex,
          iteration: snapshot.iteration,
          provider: snapshot.provider,
          model: snapshot.model,
          ...(snapshot.tokenizer ? { tokenizer: snapshot.tokenizer } : {}),
          ...(cost !== undefined ? { costUsd: cost } : {}),
          stableHash: snapshot.stableHash,
          system: snapshot.system,
          tools: snapshot.tools,
          messages: snapshot.messages,
          activeSkills: snapshot.activeSkills,
        };
        const tokens = requestTokens(snapshot);
        if (tokens) digest.tokens = tokens;
        run.requests.push(digest);
        byRequest.set(snapshot.requestIndex, digest);
        break;
      }
      case "usage": {
        const digest = byRequest.get(event.requestIndex);
        if (digest) digest.usage = event.usage;
        break;
      }
      case "tool_call":
        runs.get(event.runId)?.toolsCalled.push(event.call.name);
        break;
      case "skill_activated":
        runs.get(event.runId)?.skillsLoaded.push(event.name);
        break;
      case "stop": {
        const run = runs.get(event.runId);
        if (!run) break;
        run.stopReason = event.reason;
        if (event.message) run.stopMessage = event.message;
        break;
      }
      default:
        break;
    }
  }
  return [...runs.values()];
}
