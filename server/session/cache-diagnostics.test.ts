// Prompt-cache truth from the provider, through a whole session: the Anthropic provider (official SDK)
// talks to a local server speaking the Messages API's SSE, which answers with cache diagnostics and a
// hand-built usage sequence. The reported reasons arrive beside the predicted ones, a disagreement is
// flagged, cache_stats follows the definitions, a reopened session rebuilds all of it from its log (and
// names the last response in its next request), and a server that refuses the parameter turns the
// session's setting off with a visible notice. Real hub, workspace, skills and session log.
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SecretRedactor } from "../providers/redact.ts";
import type { CacheStats } from "../protocol/cache-report.ts";
import { anthropicError, anthropicStream, startFakeAnthropic } from "../providers/testing/fake-anthropic.ts";
import type { FakeServer } from "../providers/testing/fake-http.ts";
import { ProcessRunner } from "../tools/process-runner.ts";
import type { ProtocolClient } from "../transport/protocol-client.ts";
import { readExportedSession, sessionToHtml } from "../export/index.ts";
import { buildHtmlModel } from "../export/html-model.ts";
import { recordProblem } from "./log-schema.ts";
import type { SessionHub } from "./session-hub.ts";
import { connectClient, hubFolders, startHub, type HubFolders } from "./testing/hub-harness.ts";

let folders: HubFolders;
let root: string;
let home: string;
let workdir: string;
let fake: FakeServer;
let processes: ProcessRunner;
let hub: SessionHub;
let client: ProtocolClient;

/** A hub on the test's folders (again after a shutdown: the reopen), and its client. */
async function connect(): Promise<void> {
  hub = await startHub(folders, processes);
  client = await connectClient(hub);
}

beforeEach(async () => {
  folders = await hubFolders("cache-diagnostics-");
  ({ root, home, workdir } = folders);
  await mkdir(path.join(home, ".PseudoClaude"), { recursive: true });
  fake = await startFakeAnthropic();
  await writeFile(
    path.join(home, ".PseudoClaude", "providers.json"),
    JSON.stringify({
      anthropic: {
        apiKey: "sk-ant-diagnostics-test-0123456789",
        baseUrl: fake.url,
        model: "claude-sonnet-4-5",
      },
    }),
  );
  processes = new ProcessRunner();
  await connect();
});

afterEach(async () => {
  await client.close();
  await hub.shutdown();
  await processes.killAll();
  await fake.close();
  await rm(root, { recursive: true, force: true });
});

const usage = (uncached: number, write: number, read: number) => ({
  input_tokens: uncached,
  cache_creation_input_tokens: write,
  cache_read_input_tokens: read,
  output_tokens: 12,
});

function lastStats(sessionId: string): CacheStats {
  const stats = client
    .events(sessionId)
    .flatMap((message) => (message.event.type === "cache_stats" ? [message.event.stats] : []));
  return stats[stats.length - 1];
}

function usageEvents(sessionId: string) {
  return client
    .events(sessionId)
    .flatMap((message) => (message.event.type === "usage" ? [message.event] : []));
}

describe("cache diagnostics through a session", () => {
  it("shows the provider's reasons beside the predicted ones, flags a disagreement, and counts it all in cache_stats", async () => {
    fake.enqueue(
      // #1: the first request compares nothing.
      anthropicStream({
        id: "msg_A",
        toolUses: [{ name: "load_skill", input: { name: "csv-report" } }],
        usage: usage(60, 5000, 0),
      }),
      // #2: the SOP entered the environment (system_changed, announced); the provider agrees.
      anthropicStream({
        id: "msg_B",
        text: "Loaded.",
        diagnostics: { cache_miss_reason: { type: "system_changed", cache_missed_input_tokens: 3300 } },
        usage: usage(40, 3500, 2000),
      }),
      // #3, the next run: csv-report's tool is now visible (tools_changed, announced), but the provider
      // says the messages changed: a disagreement, and the rebuild counts as a miss by the provider's cause.
      anthropicStream({
        id: "msg_C",
        text: "Again.",
        diagnostics: { cache_miss_reason: { type: "messages_changed", cache_missed_input_tokens: 5600 } },
        usage: usage(50, 5600, 0),
      }),
    );
    const sessionId = await client.createSession({ provider: "anthropic", model: "claude-sonnet-4-5" });
    expect((await client.sendMessage(sessionId, "profile the csv")).reason).toBe("completed");
    expect((await client.sendMessage(sessionId, "again")).reason).toBe("completed");

    expect(fake.requests.map((request) => (request.body as { diagnostics?: unknown }).diagnostics)).toEqual([
      { previous_message_id: null },
      { previous_message_id: "msg_A" },
      { previous_message_id: "msg_B" },
    ]);
    const requests = client.requests(sessionId);
    expect(requests.map((snapshot) => snapshot.cache?.diagnostics?.type)).toEqual([
      null,
      "system_changed",
      "tools_changed",
    ]);
    expect(requests[1].cache?.diagnostics?.announced).toBe("csv-report SOP loaded into the environment");
    expect(requests[2].cache?.diagnostics).toMatchObject({
      toolsAdded: ["profile_csv"],
      announced: "profile_csv registered by an earlier request and visible from this run",
    });

    const reports = usageEvents(sessionId);
    expect(reports.map((event) => event.usage.cacheDiagnostics?.type)).toEqual([
      undefined,
      "system_changed",
      "messages_changed",
    ]);
    expect(reports.map((event) => event.cacheCheck?.verdict)).toEqual(["no_verdict", "agree", "disagree"]);
    expect(reports[2].cacheCheck?.text).toMatch(
      /^provider: messages_changed \(5,600 tokens after it\); predicted tools_changed \([\d,]+ tokens after it\)$/,
    );

    // Each run ends with the session's figures: after run 1 …
    const stats = client
      .events(sessionId)
      .flatMap((message) => (message.event.type === "cache_stats" ? [message.event.stats] : []));
    expect(stats).toHaveLength(2);
    expect(stats[0]).toMatchObject({ requests: 2, misses: 0, expected_rebuilds: 1, disagreements: 0 });
    // … and after run 2, by the definitions (every figure a provider report).
    const read = 2000;
    const total = 60 + 5000 + 40 + 3500 + 2000 + 50 + 5600;
    expect(stats[1]).toMatchObject({
      requests: 3,
      figures: { reported: 3, predicted: 0 },
      source: "provider",
      hit_ratio: read / total,
      misses: 1,
      miss_causes: { messages_rewritten: 1 },
      last_miss_cause: {
        causes: ["messages_rewritten"],
        source: "provider",
        request: 3,
        tools_added: 1,
        tools_removed: 0,
      },
      expected_rebuilds: 1,
      miss_recache_tokens: 5600,
      recache_tokens_if_cold: 5600,
      ttl: "5m",
      warm: true,
      disagreements: 1,
    });
    expect(Date.parse(stats[1].expires_at!) - Date.parse(stats[1].at)).toBeGreaterThan(290_000);

    // Reopened on a new hub: the ledger is rebuilt from the log, and the next request names msg_C.
    await client.close();
    await hub.shutdown();
    // The log carries all of it into the HTML export: the reports, the check, the session's figures.
    const exported = await readExportedSession(home, sessionId, new SecretRedactor());
    const model = buildHtmlModel(exported);
    expect(model.requests[2].usage[0].cacheDiagnostics).toMatchObject({ type: "messages_changed" });
    expect(model.requests[2].cacheCheck?.verdict).toBe("disagree");
    expect(model.cacheStats).toMatchObject({ misses: 1, disagreements: 1 });
    const html = sessionToHtml(exported);
    expect(html).toContain('data-testid="export-cache-stats"');
    expect(html).toContain("messages_rewritten at request #3 (provider");
    expect(html).toContain("reason ≠ provider");
    await connect();
    client.send({ type: "open_session", sessionId });
    await client.waitForEvent("session_opened", { sessionId });
    fake.enqueue(
      anthropicStream({ id: "msg_D", text: "Still here.", diagnostics: null, usage: usage(30, 200, 5600) }),
    );
    expect((await client.sendMessage(sessionId, "one more")).reason).toBe("completed");
    expect((fake.requests[3].body as { diagnostics?: unknown }).diagnostics).toEqual({
      previous_message_id: "msg_C",
    });
    expect(lastStats(sessionId)).toMatchObject({
      requests: 4,
      misses: 1,
      disagreements: 1,
      expected_rebuilds: 1,
    });
    expect(usageEvents(sessionId).at(-1)?.cacheCheck?.verdict).toBe("agree");
  });

  it("a server that refuses the diagnostics parameter is asked again without it, and the session stops asking until told", async () => {
    fake.enqueue(
      anthropicError(400, "invalid_request_error", "diagnostics: Extra inputs are not permitted"),
      anthropicStream({ text: "answered", usage: usage(10, 0, 0) }),
      anthropicStream({ text: "answered again", usage: usage(10, 0, 0) }),
    );
    const sessionId = await client.createSession({ provider: "anthropic", model: "claude-sonnet-4-5" });
    expect((await client.sendMessage(sessionId, "hello")).reason).toBe("completed");
    const notice = await client.waitForEvent("provider_notice", { sessionId });
    expect(notice.event.code).toBe("cache_diagnostics_rejected");
    expect(notice.event.message).toContain("Extra inputs are not permitted");
    const changed = await client.waitForEvent("settings_changed", { sessionId });
    expect(changed.event.settings.cacheDiagnostics).toBe(false);
    expect((await client.sendMessage(sessionId, "hello again")).reason).toBe("completed");
    // Turned on again by the user, the session asks again.
    const from = client.messages.length;
    client.send({ type: "update_session", sessionId, settings: { cacheDiagnostics: true } });
    await client.waitForEvent("settings_changed", { sessionId, from });
    fake.enqueue(anthropicStream({ text: "asked again", usage: usage(10, 0, 0) }));
    expect((await client.sendMessage(sessionId, "and now")).reason).toBe("completed");
    const bodies = fake.requests.map((request) => request.body as { diagnostics?: unknown });
    expect(bodies.map((body) => "diagnostics" in body)).toEqual([true, false, false, true]);
  });
});

describe("a new 'cache as' model", () => {
  it("predicts every request again with its diagnostics kept, and the session's figures follow", async () => {
    const sessionId = await client.createSession({ cacheAs: "claude-sonnet-4-5" });
    expect((await client.sendMessage(sessionId, "hello")).reason).toBe("completed");
    expect((await client.sendMessage(sessionId, "hello")).reason).toBe("completed");
    // The second request reads what the first wrote (the demo-sized prefix passes sonnet's minimum).
    expect(lastStats(sessionId).hit_ratio).toBeGreaterThan(0);
    const from = client.messages.length;
    client.send({ type: "update_session", sessionId, settings: { cacheAs: "claude-haiku-4-5" } });
    const repredicted = await client.waitForEvent("cache_repredicted", { sessionId, from });
    for (const { cache } of repredicted.event.requests) {
      expect(cache.model).toBe("claude-haiku-4-5");
      expect(cache.diagnostics).toBeDefined();
      expect(cache.placementNote).toContain("SOPs in the environment");
    }
    const stats = await client.waitForEvent("cache_stats", { sessionId, from });
    expect(stats.event.stats).toMatchObject({ hit_ratio: 0, source: "prediction" });
  });
});

describe("cache records in the log schema (S23)", () => {
  const record = (event: Record<string, unknown>) => ({ kind: "event", seq: 1, at: "t", event });
  it("a crafted cache_stats or cache report is skipped, a real one is kept", () => {
    const stats = {
      requests: 1,
      figures: { reported: 1, predicted: 0 },
      source: "provider",
      hit_ratio: null,
      cache_read_tokens: 0,
      cache_write_tokens: 0,
      uncached_tokens: 0,
      misses: 0,
      miss_causes: {},
      last_miss_at: null,
      last_miss_cause: null,
      expected_rebuilds: 0,
      miss_recache_tokens: 0,
      recache_tokens_if_cold: null,
      ttl: "5m",
      expires_at: null,
      warm: false,
      disagreements: 0,
      at: "t",
    };
    expect(recordProblem(record({ type: "cache_stats", runId: "r", stats }))).toBeUndefined();
    expect(
      recordProblem(
        record({
          type: "cache_stats",
          runId: "r",
          stats: { ...stats, last_miss_cause: { causes: "<b>x</b>", tools_added: 0 } },
        }),
      ),
    ).toMatch(/^cache_stats: .*last_miss_cause/);
    const usageEvent = (cacheDiagnostics: unknown) =>
      record({ type: "usage", runId: "r", requestIndex: 1, usage: { inputTokens: 1, cacheDiagnostics } });
    expect(
      recordProblem(
        usageEvent({ provider: "anthropic", comparedWith: null, outcome: "inconclusive", source: "s" }),
      ),
    ).toBeUndefined();
    expect(recordProblem(usageEvent({ provider: "anthropic", outcome: 3, source: "s" }))).toMatch(/^usage: /);
  });
});
