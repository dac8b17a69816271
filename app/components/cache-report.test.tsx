// The session's cache figures at the top of the inspector, as the reader sees them (React's server
// renderer, no browser). They come after each run (cache_stats), so while a run is going the timeline
// shows newer requests than the figures count: the header says so instead of reading "misses 0/4" beside
// seven requests.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { CacheStats } from "../../server/protocol/index.ts";
import { CacheDiagnosticsRow, CacheStatsHeader } from "./cache-report.tsx";

const stats: CacheStats = {
  requests: 4,
  figures: { reported: 0, predicted: 4 },
  source: "prediction",
  hit_ratio: 0.7,
  cache_read_tokens: 7000,
  cache_write_tokens: 3000,
  uncached_tokens: 0,
  misses: 0,
  miss_causes: {},
  last_miss_at: null,
  last_miss_cause: null,
  expected_rebuilds: 0,
  miss_recache_tokens: 0,
  recache_tokens_if_cold: 2956,
  ttl: "5m",
  expires_at: null,
  warm: false,
  disagreements: 0,
  at: "2026-12-03T14:00:00.000Z",
};

const text = (html: string) => html.replace(/<[^>]+>/g, "").replace(/<!-- -->/g, "");

describe("session cache header", () => {
  it("says when the timeline shows requests its figures do not count yet", () => {
    const during = text(renderToStaticMarkup(<CacheStatsHeader stats={stats} shown={7} />));
    expect(during).toContain("misses 0/4");
    expect(during).toContain("3 newer requests count when the run ends");
    const after = text(renderToStaticMarkup(<CacheStatsHeader stats={stats} shown={4} />));
    expect(after).not.toContain("newer request");
  });
});

describe("the diagnostics row", () => {
  const predicted = {
    comparedWith: 7,
    type: null,
    missedInputTokens: 0,
    toolsAdded: [],
    toolsRemoved: [],
    systemCharDelta: 0,
  };
  it("does not read as a hit when a request with no divergence reads nothing", () => {
    const missed = text(renderToStaticMarkup(<CacheDiagnosticsRow predicted={predicted} nothingRead />));
    expect(missed).toContain("no divergence from #7, yet nothing is read from the cache");
    const read = text(renderToStaticMarkup(<CacheDiagnosticsRow predicted={predicted} />));
    expect(read).toContain("no divergence from #7");
    expect(read).not.toContain("nothing is read");
  });
});
