// `run --json --cache-model M` on the next-run demo: every request event carries snapshot.cache, and the
// predictions tell the story of issue 13 (`cli run` in-process).
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunnerEvent, SnapshotCache } from "../protocol/runner-events.ts";
import { REPO_ROOT, jsonEvents, runCli, runFlags } from "./testing/run-cli.ts";

const demo = path.join(REPO_ROOT, "examples", "demo-workdir");
let home: string;
beforeAll(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), "cache-cli-home-"));
});
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

async function nextRunEvents(extra: string[]): Promise<RunnerEvent[]> {
  const result = await runCli([
    ...runFlags(demo, home, path.join(REPO_ROOT, "scenarios", "csv-profile-next-run.yaml")),
    "--message",
    "load the csv skill",
    "--message",
    "now profile data/sales.csv",
    "--yes",
    "--json",
    ...extra,
  ]);
  expect(result.code, result.stderr).toBe(0);
  return jsonEvents(result.stdout);
}

async function nextRunDemo(extra: string[]): Promise<SnapshotCache[]> {
  const events = await nextRunEvents(extra);
  return events.flatMap((event) => (event.type === "request" ? [event.snapshot.cache!] : []));
}

describe("run --cache-model on csv-profile-next-run", () => {
  it("claude-sonnet-4-5: request 1 writes, 2 reads tools + stable, 3 reads less and names profile_csv", async () => {
    const caches = await nextRunDemo(["--cache-model", "claude-sonnet-4-5", "--cache-breakpoints", "stable"]);
    expect(caches).toHaveLength(4);
    for (const cache of caches) {
      expect(cache.model).toBe("claude-sonnet-4-5");
      expect(typeof cache.costUsd).toBe("number");
      for (const segment of cache.segments)
        expect(Object.keys(segment)).toEqual(expect.arrayContaining(["part", "tokens", "status", "reason"]));
    }
    const [first, second, third] = caches;
    const toolsAndStable = (cache: SnapshotCache) =>
      cache.segments
        .filter((s) => s.part === "tools" || s.part === "stable")
        .reduce((sum, s) => sum + s.tokens, 0);
    expect(first.predicted.cacheCreationInputTokens).toBe(toolsAndStable(first));
    expect(first.predicted.cacheReadInputTokens).toBe(0);
    expect(second.predicted.cacheReadInputTokens).toBe(toolsAndStable(second));
    expect(third.predicted.cacheReadInputTokens).toBeLessThan(second.predicted.cacheReadInputTokens);
    const reasons = third.segments
      .filter((s) => s.status !== "read")
      .map((s) => s.reason)
      .join("\n");
    expect(reasons).toContain("tools changed: profile_csv became visible");
  });

  it("claude-haiku-4-5: nothing is cached, and the reason names the 4,096-token minimum", async () => {
    const caches = await nextRunDemo(["--cache-model", "claude-haiku-4-5"]);
    for (const cache of caches) {
      expect(cache.predicted.cacheReadInputTokens + cache.predicted.cacheCreationInputTokens).toBe(0);
      expect(cache.segments[0].reason).toContain("4,096-token minimum of claude-haiku-4-5");
    }
  });

  it("--skill-placement message keeps the environment unchanged when a skill loads", async () => {
    const caches = await nextRunDemo(["--cache-model", "claude-sonnet-4-5", "--skill-placement", "message"]);
    expect(caches[1].segments.some((s) => s.part === "environment" && s.status === "read")).toBe(true);
  });

  it("each run ends with a cache_stats line, just before its stop, from the prediction (no provider here)", async () => {
    const events = await nextRunEvents(["--cache-model", "claude-sonnet-4-5"]);
    const types = events.map((event) => event.type);
    const stops = types.flatMap((type, index) => (type === "stop" ? [index] : []));
    expect(stops).toHaveLength(2);
    for (const index of stops) expect(types[index - 1]).toBe("cache_stats");
    const stats = events.flatMap((event) => (event.type === "cache_stats" ? [event.stats] : []));
    expect(stats[1]).toMatchObject({ requests: 4, source: "prediction", misses: 0, expected_rebuilds: 1 });
    // The rebuild is the next run's: profile_csv, registered in run 1, became visible.
    const third = events.flatMap((event) => (event.type === "request" ? [event.snapshot] : []))[2];
    expect(third.cache?.diagnostics).toMatchObject({ type: "tools_changed", toolsAdded: ["profile_csv"] });
  });
});
