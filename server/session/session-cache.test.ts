// A session's cache settings reach its requests: snapshot.cache follows "cache as" and the breakpoint
// placement, a change applies from the next run, and a broken prices override is reported, not fatal.
// Real hub, workspace and scripted model over the in-memory transport.
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEMO_CACHE_MODEL } from "../cache/cache-as.ts";
import { ProcessRunner } from "../tools/process-runner.ts";
import type { ProtocolClient } from "../transport/protocol-client.ts";
import type { SessionHub } from "./session-hub.ts";
import { connectClient, hubFolders, startHub } from "./testing/hub-harness.ts";

let root: string;
let home: string;
let hub: SessionHub;
let processes: ProcessRunner;
let client: ProtocolClient;

beforeEach(async () => {
  const folders = await hubFolders("session-cache-");
  root = folders.root;
  home = folders.home;
  await mkdir(path.join(home, ".PseudoClaude"), { recursive: true });
  processes = new ProcessRunner();
  hub = await startHub(folders, processes);
  client = await connectClient(hub);
});

afterEach(async () => {
  await client.close();
  await hub.shutdown();
  await processes.killAll();
  await rm(root, { recursive: true, force: true });
});

describe("session cache settings", () => {
  it("predicts under 'cache as' with the chosen breakpoints, and a change applies from the next run", async () => {
    const sessionId = await client.createSession({
      cacheAs: "claude-sonnet-4-5",
      cacheBreakpoints: "stable",
    });
    client.send({ type: "send_message", sessionId, text: "hello" });
    await client.waitForEvent("request", { sessionId });
    expect(client.requests(sessionId)[0].cache).toMatchObject({
      model: "claude-sonnet-4-5",
      rules: "anthropic",
      breakpoints: "stable",
    });
    await client.waitForEvent("stop", { sessionId });

    const from = client.messages.length;
    client.send({ type: "update_session", sessionId, settings: { cacheAs: "gpt-5.4-mini" } });
    await client.waitForEvent("settings_changed", { sessionId, from });
    client.send({ type: "send_message", sessionId, text: "hello" });
    await client.waitForEvent("request", { sessionId, from });
    expect(client.requests(sessionId).at(-1)?.cache).toMatchObject({
      model: "gpt-5.4-mini",
      rules: "openai",
    });
  });

  it("without 'cache as', a scripted session predicts as the demo's cache model: the next request reads", async () => {
    await writeFile(path.join(home, ".PseudoClaude", "prices.json"), "{ not json");
    const sessionId = await client.createSession();
    // The broken override is reported as a session error, so the runs are awaited by their stop events.
    for (let run = 0; run < 2; run++) {
      const from = client.messages.length;
      client.send({ type: "send_message", sessionId, text: "hello" });
      await client.waitForEvent("stop", { sessionId, from });
    }
    const requests = client.requests(sessionId);
    expect(requests.map((snapshot) => snapshot.cache?.model)).toEqual([DEMO_CACHE_MODEL, DEMO_CACHE_MODEL]);
    expect(requests[0].cache).toMatchObject({ breakpoints: "rolling" });
    expect(requests[0].cache!.segments[0].status).toBe("written");
    expect(requests[1].cache!.segments[0].status).toBe("read");
    const warning = await client.waitForEvent("session_error", {
      sessionId,
      where: (event) => /prices\.json: not valid JSON/.test(event.message),
    });
    expect(warning.event.message).toContain(path.join(home, ".PseudoClaude", "prices.json"));
  });

  it("a new 'cache as' predicts every request shown again, and the next requests go on from there", async () => {
    const sessionId = await client.createSession();
    await client.sendMessage(sessionId, "hello");
    await client.sendMessage(sessionId, "hello");

    let from = client.messages.length;
    client.send({ type: "update_session", sessionId, settings: { cacheAs: "claude-haiku-4-5" } });
    const haiku = await client.waitForEvent("cache_repredicted", { sessionId, from });
    expect(haiku.event.model).toBe("claude-haiku-4-5");
    expect(haiku.event.requests.map((entry) => entry.requestIndex)).toEqual([1, 2]);
    for (const { cache } of haiku.event.requests) {
      expect(cache.model).toBe("claude-haiku-4-5");
      expect(cache.predicted.cacheReadInputTokens + cache.predicted.cacheCreationInputTokens).toBe(0);
      expect(cache.segments[0].reason).toContain("4,096-token minimum of claude-haiku-4-5");
    }
    await client.sendMessage(sessionId, "hello");
    const third = client.requests(sessionId).at(-1)!;
    expect(third).toMatchObject({ requestIndex: 3, cache: { model: "claude-haiku-4-5" } });

    from = client.messages.length;
    client.send({ type: "update_session", sessionId, settings: { cacheAs: "claude-sonnet-4-5" } });
    const sonnet = await client.waitForEvent("cache_repredicted", { sessionId, from });
    expect(sonnet.event.requests.map(({ cache }) => cache.segments[0].status)).toEqual([
      "written",
      "read",
      "read",
    ]);
  });

  it("a reopened session's cache is rebuilt from its log before its first use: a 'cache as' sent with the open predicts every logged request as the live session did", async () => {
    const sessionId = await client.createSession();
    await client.sendMessage(sessionId, "hello");
    await client.sendMessage(sessionId, "hello");
    let from = client.messages.length;
    client.send({ type: "update_session", sessionId, settings: { cacheAs: "claude-sonnet-4-5" } });
    const live = await client.waitForEvent("cache_repredicted", { sessionId, from });
    from = client.messages.length;
    client.send({ type: "update_session", sessionId, settings: { cacheAs: "claude-haiku-4-5" } });
    await client.waitForEvent("cache_repredicted", { sessionId, from });

    // Closed, then reopened with the change in the frames right behind the open: it is handled before
    // the reopen's background work, so the cache must catch up on its first use.
    await hub.shutdown();
    from = client.messages.length;
    client.send({ type: "open_session", sessionId, batchReplay: true });
    client.send({ type: "update_session", sessionId, settings: { cacheAs: "claude-sonnet-4-5" } });
    const reopened = await client.waitForEvent("cache_repredicted", { sessionId, from });
    expect(reopened.event.requests.map((entry) => entry.requestIndex)).toEqual([1, 2]);
    expect(reopened.event).toEqual(live.event);

    // The next request goes on from the restored conversation and carries no blob the log holds already.
    const carried = new Set(
      client
        .events(sessionId)
        .flatMap(({ event }) =>
          "blobs" in event && event.blobs ? event.blobs.map((blob) => blob.hash) : [],
        ),
    );
    from = client.messages.length;
    client.send({ type: "send_message", sessionId, text: "hello" });
    const next = await client.waitForEvent("request", { sessionId, from });
    await client.waitForEvent("stop", { sessionId, from });
    expect(next.event.snapshot).toMatchObject({ requestIndex: 3, historyLength: 5 });
    expect((next.event.blobs ?? []).filter((blob) => carried.has(blob.hash))).toEqual([]);
  });
});
