// One request, one explanation: the cache strip's cause (the first segment not read, and why) and the
// Diagnostics row (the predicted divergence) of the same request name the same change against the same
// request — before and after "cache as" changes midway, as the page shows them. Real hub and scripted
// model; the page's reducer takes the session's messages and the strip renders as the inspector does.
import { rm } from "node:fs/promises";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, it } from "vitest";
import { requestCost } from "../../app/lib/cache-cost.ts";
import { CacheStrip } from "../../app/components/cache-strip.tsx";
import { applyServerMessage, initialUiState } from "../../app/state/reducer.ts";
import { requestsOf } from "../../app/state/selectors.ts";
import { requestSnapshot } from "../../app/state/snapshot-view.ts";
import type { RequestView } from "../../app/state/types.ts";
import { ProcessRunner } from "../tools/process-runner.ts";
import type { ProtocolClient } from "../transport/protocol-client.ts";
import {
  connectClient,
  hubFolders,
  startHub,
  startHubHarness,
  type HubHarness,
} from "./testing/hub-harness.ts";

let harness: HubHarness | undefined;
let client: ProtocolClient;

afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** A piece of the rendered strip, as text (its tags and React's text separators taken out). */
function textOf(html: string, testId: string): string | undefined {
  const match = new RegExp(`data-testid="${testId}"[^>]*>(.*?)</div>`).exec(html);
  return match?.[1].replace(/<!-- -->/g, "").replace(/<[^>]+>/g, "");
}

/** The strip's cause line and the Diagnostics row of one request, as the inspector renders them. */
function surfaces(request: RequestView): { cause?: string; diagnostics?: string } {
  const snapshot = requestSnapshot(request);
  const total = { predictedUsd: 0, requests: 1, unpriced: 0 };
  const html = renderToStaticMarkup(
    createElement(CacheStrip, {
      cache: snapshot.cache,
      provider: snapshot.provider,
      cost: requestCost({ runId: request.runId, snapshot: { provider: snapshot.provider } }),
      run: total,
      session: total,
    }),
  );
  return {
    cause: textOf(html, "cache-reason"),
    diagnostics: /data-testid="cache-diagnostics-predicted"[^>]*>(.*?)<\/span>/
      .exec(html)?.[1]
      .replace(/<!-- -->/g, ""),
  };
}

/** How the strip's cause words each divergence type of the Diagnostics row. */
const causeWords: Record<string, RegExp> = {
  model_changed: /model changed from /,
  tools_changed: /tools changed: /,
  system_changed: /(stable system|environment) changed/,
  messages_changed: /conversation (differs from|shorter than) /,
};

describe("the cache strip and the Diagnostics row of one request", () => {
  it("give the same cause, before and after 'cache as' changes midway", async () => {
    harness = await startHubHarness("cache-cause-");
    client = harness.client;
    const sessionId = await client.createSession({ cacheAs: "claude-sonnet-4-5" });
    for (const text of ["hello", "review the code", "hello"])
      expect((await client.sendMessage(sessionId, text)).reason).toBe("completed");
    const from = client.messages.length;
    client.send({ type: "update_session", sessionId, settings: { cacheAs: "claude-sonnet-4" } });
    await client.waitForEvent("cache_repredicted", { sessionId, from });
    for (const text of ["hello", "hello"])
      expect((await client.sendMessage(sessionId, text)).reason).toBe("completed");

    const state = client.messages.reduce(applyServerMessage, initialUiState);
    const requests = requestsOf(state);
    expect(requests.length).toBeGreaterThanOrEqual(6);
    const checked: string[] = [];
    for (const request of requests) {
      const cache = requestSnapshot(request).cache;
      expect(cache?.model, `#${request.requestIndex}`).toBe("claude-sonnet-4");
      const { type, comparedWith } = cache!.diagnostics!;
      const { cause = "", diagnostics: row } = surfaces(request);
      const label = `#${request.requestIndex}: strip "${cause}" vs Diagnostics "${row}"`;
      checked.push(`#${request.requestIndex} ${type}`);
      if (comparedWith === null) {
        expect(row, label).toBe("predicted: first request: nothing to compare with");
        expect(cause, label).toContain("first request");
      } else if (type === null) {
        // Nothing diverged: the strip names no change, and what it re-sends is new since the same request.
        expect(row, label).toBe(`predicted: no divergence from #${comparedWith}`);
        expect(cause, label).not.toMatch(/changed|differs|shorter/);
        if (/ since request #/.test(cause))
          expect(cause, label).toContain(`new since request #${comparedWith}`);
      } else {
        expect(row, label).toContain(`predicted: ${type} since #${comparedWith}`);
        expect(cause, label).toMatch(causeWords[type]);
      }
    }
    // The SOP entering the environment diverged (the request after load_skill); the requests after the
    // change of "cache as" did not: every request was predicted again as the new model.
    expect(checked).toContain("#3 system_changed");
    expect(checked.slice(-2)).toEqual(["#6 null", "#7 null"]);
  });

  it("go on from the last request after the session is reopened on a new server, 'cache as' included", async () => {
    // The same session on a hub that starts again on the same folders: its cache model is rebuilt from
    // the log (as the requests were predicted: as the "cache as" model chosen midway), so the next
    // request is compared with the last one shown, not taken for the session's first.
    const folders = await hubFolders("cache-cause-reopen-");
    const processes = new ProcessRunner();
    let hub = await startHub(folders, processes);
    client = await connectClient(hub);
    const sessionId = await client.createSession({ cacheAs: "claude-sonnet-4-5" });
    for (const text of ["hello", "hello"])
      expect((await client.sendMessage(sessionId, text)).reason).toBe("completed");
    const from = client.messages.length;
    client.send({ type: "update_session", sessionId, settings: { cacheAs: "claude-sonnet-4" } });
    await client.waitForEvent("cache_repredicted", { sessionId, from });
    await client.close();
    await hub.shutdown();

    hub = await startHub(folders, processes);
    client = await connectClient(hub);
    try {
      client.send({ type: "open_session", sessionId });
      await client.waitForEvent("session_opened", { sessionId });
      expect((await client.sendMessage(sessionId, "hello")).reason).toBe("completed");
      const next = client.requests(sessionId).at(-1)!;
      expect(next.requestIndex).toBe(3);
      expect(next.cache).toMatchObject({
        model: "claude-sonnet-4",
        diagnostics: { comparedWith: 2, type: null },
      });
      const firstMiss = next.cache!.segments.find((segment) => segment.status !== "read");
      expect(firstMiss?.reason).not.toContain("first request");
      // Within the TTL, what request #2 cached is read again.
      expect(next.cache!.segments[0].status).toBe("read");
    } finally {
      await client.close();
      await hub.shutdown();
      await processes.killAll();
      await rm(folders.root, { recursive: true, force: true });
    }
  });
});
