// One source per number: what the skill detail says listing and loading a skill cost (skill_figures) is
// the server's count of the very segments the inspector then shows for it — its index line in the stable
// system (indexLineTokens, the lane's L1) and its environment section once load_skill ran (the SOP with
// its base directory and file list). A real server on a copy of the demo workdir, its scenarios, the
// scripted model, over a WebSocket.
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, expect, it } from "vitest";
import type { SkillFigures } from "../protocol/catalog.ts";
import type { ServerMessage } from "../protocol/wire.ts";
import { TestClient, startTestServer, type TestServer } from "../transport/testing/harness.ts";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
let demo: string;
let server: TestServer;
let client: TestClient;

beforeEach(async () => {
  demo = await mkdtemp(path.join(tmpdir(), "skill-figures-demo-"));
  await cp(path.join(repoRoot, "examples", "demo-workdir"), demo, { recursive: true });
  server = await startTestServer(
    {},
    { defaultWorkdir: demo, scenariosDir: path.join(repoRoot, "scenarios") },
  );
  client = await TestClient.connect(server);
});

afterEach(async () => {
  await client.close();
  await server.dispose();
  await rm(demo, { recursive: true, force: true });
});

async function figuresOf(sessionId: string, name: string): Promise<SkillFigures> {
  const answer = client.next((message) => message.type === "skill_figures" && message.figures.name === name, {
    sessionId,
  });
  client.send({ type: "skill_figures", sessionId, name });
  return ((await answer) as Extract<ServerMessage, { type: "skill_figures" }>).figures;
}

it("the skill detail's listing and loading costs are the figures the inspector shows for those segments", async () => {
  const sessionId = await client.createSession();
  const figures = await figuresOf(sessionId, "csv-report");
  expect(figures.indexTokens).toBeGreaterThan(0);
  expect(figures.loadTokens).toBeGreaterThan(figures.indexTokens!);

  // csv-profile-next-run loads csv-report without arguments, as the figures assume.
  await client.sendMessage(sessionId, "load the csv skill to profile later");
  const requests = client.requests(sessionId);
  expect(requests.length).toBeGreaterThanOrEqual(2);
  // Asking loaded nothing: the first request has no active skill.
  expect(requests[0].activeSkills).toEqual([]);
  expect(requests[0].indexLineTokens?.["csv-report"]).toBe(figures.indexTokens);
  const loaded = requests[1].segments?.find(
    (segment) => segment.kind === "environment" && segment.name === "csv-report",
  );
  expect(loaded?.tokens).toBe(figures.loadTokens);
  const lane = client.events(sessionId).find((message) => message.event.type === "skill_activated")?.event;
  expect(lane?.type === "skill_activated" && lane.indexTokens).toBe(figures.indexTokens);

  const unknown = await figuresOf(sessionId, "no-such-skill");
  expect(unknown).toMatchObject({
    name: "no-such-skill",
    loadError: expect.stringContaining("unknown skill"),
  });
});
