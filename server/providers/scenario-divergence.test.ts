// A recorded turn's `request` against the request a replay sees: each difference is named, nothing is
// reported when they agree, and the optional fields are checked like the rest of the scenario format.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "../protocol/model.ts";
import { parseScenario } from "./scenario.ts";
import { requestDivergence } from "./scenario-divergence.ts";
import type { ModelRequest } from "./types.ts";

const sha = (text: string) => createHash("sha256").update(text).digest("hex");
const tool = (name: string): ToolDefinition => ({
  name,
  description: name,
  inputSchema: { type: "object" },
  safety: "read_only",
  category: "read",
  origin: "system",
});
const request: ModelRequest = {
  system: { stable: "STABLE", environment: "# Environment\n- Working directory: /work/a\n" },
  messages: [
    { role: "user", content: "review" },
    { role: "tool", toolCallId: "c1", toolName: "read_file", content: "file text", isError: false },
  ],
  tools: [tool("read_file"), tool("load_skill")],
};

describe("requestDivergence", () => {
  it("is empty when the request is the recorded one", () => {
    expect(
      requestDivergence(
        {
          tools: ["read_file", "load_skill"],
          stableSha256: sha("STABLE"),
          workdir: "/work/a",
          messages: 2,
          lastMessageSha256: sha("file text"),
        },
        request,
      ),
    ).toEqual([]);
  });

  it("names each difference: tools, stable system, workdir, conversation length, last result", () => {
    const differences = requestDivergence(
      {
        tools: ["read_file", "mcp__docs__search"],
        stableSha256: sha("OTHER"),
        workdir: "/work/b",
        messages: 2,
        lastMessageSha256: sha("other text"),
      },
      request,
    );
    expect(differences).toEqual([
      "tool definitions differ (another catalog or MCP servers?): recorded but not sent now: mcp__docs__search; sent now, not recorded: load_skill",
      expect.stringMatching(/^stable system differs \(recorded sha256 [0-9a-f]{12}…, now [0-9a-f]{12}…\)/),
      "working directory differs: recorded /work/b, now /work/a",
      "the result of read_file differs from the recording (other files in the workdir?)",
    ]);
    expect(requestDivergence({ messages: 4 }, request)).toEqual([
      "conversation length differs: recorded 4 messages, now 2",
    ]);
  });
});

describe("scenario format: recorded fields", () => {
  const recorded = `name: r
recorded: { session: s1, provider: anthropic, model: m, messages: [hi] }
turns:
  - text: hello
    request: { tools: [read_file], stable_sha256: abc, workdir: /w, messages: 1, last_message_sha256: def }
`;

  it("reads them, and a scenario without them is unchanged", () => {
    const scenario = parseScenario(recorded, "r.yaml");
    expect(scenario.recorded).toEqual({ session: "s1", provider: "anthropic", model: "m", messages: ["hi"] });
    expect(scenario.turns[0].request).toEqual({
      tools: ["read_file"],
      stableSha256: "abc",
      workdir: "/w",
      messages: 1,
      lastMessageSha256: "def",
    });
    expect(parseScenario("name: x\nturns:\n  - text: hi\n", "x.yaml")).toEqual({
      name: "x",
      turns: [{ text: "hi", toolCalls: [] }],
      file: "x.yaml",
    });
  });

  it("refuses a wrong field with the file and the field", () => {
    expect(() => parseScenario(recorded.replace("tools: [read_file]", "tools: read_file"), "r.yaml")).toThrow(
      "r.yaml: turns[0].request.tools must be a list of tool names",
    );
    expect(() => parseScenario(recorded.replace("workdir: /w", "cwd: /w"), "r.yaml")).toThrow(
      "r.yaml: turns[0].request.cwd is not a known field",
    );
    expect(() => parseScenario(recorded.replace("session: s1", "session: 3"), "r.yaml")).toThrow(
      "r.yaml: recorded.session must be a string",
    );
  });
});
