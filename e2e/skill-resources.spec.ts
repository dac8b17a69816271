import { demoScenarios, expect, test } from "./fixtures.ts";

test.use({ scenariosDir: demoScenarios });

// The three levels of disclosure with the demo skill (scenarios/csv-columns.yaml): request #1 lists
// csv-report by its index line (L1); load_skill puts its SOP with its base directory and file list into
// the environment (L2); the model reads reference/column-types.md and runs the skill's script (L3). The
// lane shows each file of the skill as the selected request carried it — listed, then read (or ran, for
// the script) in the requests after the read — and the token cost of each level.
test("a skill's own files go from listed to read, with the token cost of each level", async ({
  page,
  workspace,
}) => {
  const { chat, inspector } = workspace;
  const reference = page.getByTestId("skill-file-csv-report-reference-column-types.md");
  const script = page.getByTestId("skill-file-csv-report-scripts-column-types.mjs");

  await chat.send("Check the column types in data/customers.csv");
  // The script belongs to the skill: the approval card says so before it runs.
  await expect(chat.approvalCard()).toBeVisible();
  await expect(chat.approvalCard().getByTestId("approval-skill")).toContainText(
    "Runs a script of skill csv-report",
  );
  // By now the reference file was read, by request #3's calls: #3 does not carry it (its result goes
  // into #4), and the lane says so; the script is listed in the manifest but not read.
  await expect(page.getByTestId("inspector-selected")).toHaveText("Request #3");
  await expect(reference).toHaveAttribute("data-state", "listed");
  await expect(page.getByTestId("skill-after-request-csv-report")).toContainText(
    "After #3 (in the requests that follow): reference/column-types.md read",
  );
  await expect(script).toHaveAttribute("data-state", "listed");
  await expect(page.getByTestId("skill-file-csv-report-profile-csv.mjs")).toHaveAttribute(
    "data-state",
    "listed",
  );
  await chat.allowOnce();
  await expect(chat.stopTurn()).toHaveAttribute("data-reason", "completed");
  await expect(chat.toolCall("run_command").getByTestId("tool-call-result")).toContainText(
    "monthly_spend: 23 currency, 1 text",
  );

  // L2: the SOP in the environment carries the base directory and the file list.
  await inspector.selectRequest(2);
  const environment = await inspector.pane("environment");
  await expect(environment).toContainText("Skill base directory:");
  await expect(environment).toContainText("- reference/column-types.md (");
  await expect(page.getByTestId("skill-base-csv-report")).toContainText("skills/csv-report");
  // #2 carried the SOP, no file of the skill yet.
  await expect(page.getByTestId("skill-level-l3-csv-report")).toHaveText("0");
  await expect(reference).toHaveAttribute("data-state", "listed");
  // The last request carries the read and the script's output: every level has a figure from the
  // server's tokenizer; L3 is what the read cost.
  await inspector.selectRequest(4);
  for (const level of ["l1", "l2", "l3"]) {
    await expect(page.getByTestId(`skill-level-${level}-csv-report`)).toHaveText(/^[1-9]\d*$/);
  }
  await expect(reference).toContainText(/read, \d+ tokens/);
  // The run did not read the script, it ran it: the fourth state, and no "never read" hint names a file
  // the run used (issue 22 item 5).
  await expect(script).toHaveAttribute("data-state", "ran");
  await expect(script).toContainText("ran as a script");
  await expect(script).toHaveAttribute("title", /ran 1× as a script by run_command/);
  await expect(page.getByTestId("catalog-resource-hints")).toHaveCount(0);
  await workspace.screenshot("skill-resources");
  // The lane with its four states, at the two presenter sizes.
  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 1280, height: 720 },
  ]) {
    await page.setViewportSize(viewport);
    await script.scrollIntoViewIfNeeded();
    await expect(script).toBeInViewport();
    await workspace.scratchScreenshot(`skill-resources-lane-${viewport.width}x${viewport.height}`);
  }
});
