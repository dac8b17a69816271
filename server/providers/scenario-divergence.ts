// A replay's check of the request it is answering against the one the recorded model answered (the
// turn's optional `request` field). Each difference is one sentence saying what differs and the likely
// cause, so a presenter sees where the replay left the recording (another catalog, another workdir).
import { createHash } from "node:crypto";
import type { RecordedRequest } from "./scenario.ts";
import type { ModelRequest } from "./types.ts";

function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** The working directory the environment names (`- Working directory: DIR`). */
export function environmentWorkdir(environment: string): string | undefined {
  return /^- Working directory: (.*)$/m.exec(environment)?.[1];
}

function list(names: string[]): string {
  return names.length > 5 ? `${names.slice(0, 5).join(", ")} and ${names.length - 5} more` : names.join(", ");
}

/** The differences between `request` and the recorded one; empty when nothing recorded differs. */
export function requestDivergence(recorded: RecordedRequest, request: ModelRequest): string[] {
  const differences: string[] = [];
  if (recorded.tools) {
    const now = request.tools.map((tool) => tool.name);
    const missing = recorded.tools.filter((name) => !now.includes(name));
    const extra = now.filter((name) => !recorded.tools!.includes(name));
    if (missing.length > 0 || extra.length > 0)
      differences.push(
        "tool definitions differ (another catalog or MCP servers?)" +
          (missing.length ? `: recorded but not sent now: ${list(missing)}` : "") +
          (extra.length ? `${missing.length ? ";" : ":"} sent now, not recorded: ${list(extra)}` : ""),
      );
  }
  if (recorded.stableSha256 && recorded.stableSha256 !== sha256(request.system.stable))
    differences.push(
      `stable system differs (recorded sha256 ${recorded.stableSha256.slice(0, 12)}…, now ` +
        `${sha256(request.system.stable).slice(0, 12)}…): another skill catalog or disclosure mode`,
    );
  const workdir = environmentWorkdir(request.system.environment);
  if (recorded.workdir && workdir !== undefined && recorded.workdir !== workdir)
    differences.push(`working directory differs: recorded ${recorded.workdir}, now ${workdir}`);
  if (recorded.messages !== undefined && recorded.messages !== request.messages.length)
    differences.push(
      `conversation length differs: recorded ${recorded.messages} message${recorded.messages === 1 ? "" : "s"}, now ${request.messages.length}`,
    );
  const last = request.messages[request.messages.length - 1];
  if (
    recorded.lastMessageSha256 &&
    last !== undefined &&
    recorded.messages === request.messages.length &&
    recorded.lastMessageSha256 !== sha256(last.content)
  ) {
    const what = last.role === "tool" ? `the result of ${last.toolName}` : `the ${last.role} message`;
    differences.push(`${what} differs from the recording (other files in the workdir?)`);
  }
  return differences;
}

/** sha256 hex of a message's content, as `lastMessageSha256` records it. */
export function contentSha256(content: string): string {
  return sha256(content);
}
