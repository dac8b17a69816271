// The empty chat's demo tasks are offered only where they apply: the session_opened summary names the
// tasks whose files exist in the session's workdir (server/shared/demo-tasks.ts), through a real hub.
import { cp, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEMO_TASKS } from "../shared/demo-tasks.ts";
import { startHubHarness, type HubHarness } from "./testing/hub-harness.ts";

const DEMO_WORKDIR = path.resolve(import.meta.dirname, "../../examples/demo-workdir");

let harness: HubHarness;
beforeEach(async () => {
  harness = await startHubHarness("demo-tasks-");
});
afterEach(async () => {
  await harness.close();
});

async function openedTasks(workdir: string): Promise<string[] | undefined> {
  const sessionId = await harness.client.createSession({ workdir });
  const opened = await harness.client.waitForEvent("session_opened", { sessionId });
  return opened.event.session.demoTasks;
}

describe("the demo's tasks", () => {
  it("are not offered in a folder of the user's own", async () => {
    await writeFile(path.join(harness.workdir, "notes.md"), "# my project\n");
    expect(await openedTasks(harness.workdir)).toEqual([]);
  });

  it("are all offered on a copy of the demo project", async () => {
    const copy = path.join(harness.root, "demo-copy");
    await cp(DEMO_WORKDIR, copy, { recursive: true });
    expect(await openedTasks(copy)).toEqual(DEMO_TASKS.map((task) => task.prompt));
  });

  it("each needs its files as files: a folder of that name does not count", async () => {
    await mkdir(path.join(harness.workdir, "src/orders.js"), { recursive: true });
    await mkdir(path.join(harness.workdir, "data"), { recursive: true });
    await writeFile(path.join(harness.workdir, "data/sales.csv"), "a,b\n1,2\n");
    expect(await openedTasks(harness.workdir)).toEqual(["profile data/sales.csv"]);
  });
});
