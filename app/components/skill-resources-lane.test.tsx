// The level-3 lane shows the selected request: the skills active in it and the reads its conversation
// carries (a read after request #N is in the requests after #N), never a later read beside an earlier
// request's SOP. Events through the page's reducer, the lane through React's server renderer.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { WireRunnerEvent as RunnerEvent } from "../../server/protocol/index.ts";
import { requestsOf, skillResourcesOf } from "../state/selectors.ts";
import { requestSnapshot } from "../state/snapshot-view.ts";
import { playEvents, requestEvent, snapshot } from "../state/test-builders.ts";
import type { UiState } from "../state/types.ts";
import { SkillResourcesLane } from "./skill-resources-lane.tsx";

const text = (html: string) =>
  html
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ");

const play = playEvents;

const request = (requestIndex: number, activeSkills: string[], runId = "r1") =>
  requestEvent(
    snapshot({
      runId,
      requestIndex,
      activeSkills,
    }),
  );
const activated = (name: string, runId = "r1"): RunnerEvent => ({
  type: "skill_activated",
  runId,
  name,
  source: "builtin",
  position: 0,
  arguments: "",
  indexTokens: 46,
  resources: {
    baseDir: `/skills/${name}`,
    files: [
      { path: "reference/guide.md", bytes: 1200 },
      { path: "scripts/check.mjs", bytes: 900 },
    ],
    more: 0,
    referenced: ["reference/guide.md", "scripts/check.mjs"],
  },
});
const read = (skill: string, runId = "r1"): RunnerEvent => ({
  type: "skill_resource_read",
  runId,
  skill,
  path: "reference/guide.md",
  bytes: 1200,
  tokens: 300,
});
const stop = (runId: string): RunnerEvent => ({ type: "stop", runId, reason: "completed", iterations: 3 });

/** The lane as the inspector shows it with request #index selected (its markup). */
function laneHtml(state: UiState, index: number): string {
  const selected = requestsOf(state).find((candidate) => candidate.requestIndex === index)!;
  const shown = requestSnapshot(selected);
  return renderToStaticMarkup(
    <SkillResourcesLane
      skills={skillResourcesOf(state)}
      segments={shown.segments}
      requestIndex={index}
      activeSkills={shown.activeSkills}
    />,
  );
}

const laneAt = (state: UiState, index: number) => text(laneHtml(state, index));

/** The state of one of review's files in the lane of request #index. */
function reviewFileState(state: UiState, index: number, id: string): string | undefined {
  return new RegExp(`data-testid="skill-file-review-${id}" data-state="([a-z-]+)"`).exec(
    laneHtml(state, index),
  )?.[1];
}

describe("the level-3 lane of the selected request", () => {
  // Run 1: #1 loads review; #2 carries its SOP and reads its guide; #3 carries the read. Run 2: #4
  // loads csv-report after review's checks ran; #5 carries both SOPs.
  const state = play([
    request(1, []),
    activated("review"),
    request(2, ["review"]),
    read("review"),
    request(3, ["review"]),
    stop("r1"),
    request(4, ["review"], "r2"),
    activated("csv-report", "r2"),
    request(5, ["review", "csv-report"], "r2"),
  ]);

  it("shows only the reads the request carried, for its own SOP", () => {
    const second = laneAt(state, 2);
    expect(second).toContain("as request #2 carried them: reads before it");
    expect(second).toMatch(/L3 0 tokens/);
    expect(second).toContain("reference/guide.md (listed)");
    const third = laneAt(state, 3);
    expect(third).toMatch(/L3 300 tokens/);
    expect(third).toContain("reference/guide.md (read, 300 tokens)");
  });

  it("calls a file never read only once a run ended without it before the request", () => {
    expect(reviewFileState(state, 3, "scripts-check.mjs")).toBe("listed");
    expect(reviewFileState(state, 4, "scripts-check.mjs")).toBe("never-read");
    expect(reviewFileState(state, 2, "reference-guide.md")).toBe("listed");
    expect(reviewFileState(state, 4, "reference-guide.md")).toBe("read");
  });

  it("names the skills loaded after the request instead of showing their files", () => {
    const fourth = laneAt(state, 4);
    expect(fourth).not.toContain("/skills/csv-report");
    expect(fourth).toContain("Not in request #4: csv-report (loaded after it)");
    const fifth = laneAt(state, 5);
    expect(fifth).toContain("/skills/csv-report");
    expect(fifth).not.toContain("Not in request");
  });
});
