// The trigger lab and the catalog budget, offline: the demo workdir's eval file answered by its scripted
// trigger scenarios (a hit, a hijack, another tool first, a silent miss, negatives), the live table,
// the scores, the saved files; an ablation side by side; the catalog budget view, and the budget applied
// to the session's own index (the stable system says which skills were trimmed).
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { expect, test } from "./fixtures.ts";
import { expectAccessible } from "./axe.ts";

test("the trigger lab scores the demo eval offline, live, and saves the results", async ({
  page,
  workspace,
  playground,
}) => {
  await page.getByTestId("open-trigger-lab").click();
  const lab = page.getByTestId("trigger-lab");
  await expect(lab).toBeVisible();
  // The header keeps saying the model is scripted, and so does the lab.
  await expect(page.getByTestId("header-provider-scripted")).toHaveText("scripted model — offline demo");
  await expect(lab.getByTestId("lab-model")).toContainText("scripted model");

  await lab.getByTestId("lab-runs").fill("2");
  await lab.getByTestId("lab-concurrency").fill("4");
  await lab.getByTestId("lab-start").click();
  await expect(lab.getByTestId("lab-status")).toHaveText("done: 16 probes");

  // A clean hit, the hijack (csv-report instead of add-report), another tool first, a silent miss, a negative.
  await expect(lab.getByTestId("lab-cell-a-0-1")).toHaveAttribute("data-state", "pass");
  await expect(lab.getByTestId("lab-cell-a-2-1")).toHaveText("✗ csv-report");
  await expect(lab.getByTestId("lab-cell-a-3-2")).toHaveAttribute("data-outcome", "other_tool_first");
  await expect(lab.getByTestId("lab-cell-a-3-2")).toHaveText("✗ read_file first");
  await expect(lab.getByTestId("lab-cell-a-5-1")).toHaveText("✗ no tool");
  await expect(lab.getByTestId("lab-cell-a-6-1")).toHaveAttribute("data-state", "pass");
  await expect(lab.getByTestId("lab-pass-a-2")).toHaveText("0%");
  await expect(lab.getByTestId("lab-pass-a-0")).toHaveText("100%");
  // csv-report: 2 true positives, 2 false positives (the hijack) → precision 50%, recall 100%.
  await expect(lab.getByTestId("lab-precision-a-csv-report")).toHaveText("50%");
  await expect(lab.getByTestId("lab-recall-a-csv-report")).toHaveText("100%");
  await expect(lab.getByTestId("lab-recall-a-add-report")).toHaveText("0%");
  await expect(lab.getByTestId("lab-confounds-a")).toContainText("other_tool_first 2");
  await expect(lab.getByTestId("lab-files")).toContainText("triggers.results.jsonl");
  await workspace.scratchScreenshot("trigger-lab");
  await expectAccessible(page, "the trigger lab with results");

  const evals = path.join(playground.workdir, ".PseudoClaude", "evals");
  const lines = (await readFile(path.join(evals, "triggers.results.jsonl"), "utf8")).trim().split("\n");
  expect(lines).toHaveLength(16);
  expect(existsSync(path.join(evals, "triggers.summary.json"))).toBe(true);
  // Only load_skill ran: the probes added nothing to the conversation.
  await expect(page.getByTestId("timeline-request-1")).toHaveCount(0);

  // Ablation: the B side next to the A side.
  await lab.getByTestId("lab-ablate").check();
  await lab.getByTestId("lab-ablate-skill").selectOption("add-report");
  await lab
    .getByTestId("lab-ablate-description")
    .fill("Add a revenue-by-month (or by customer) report to Acme Orders.");
  await lab.getByTestId("lab-runs").fill("1");
  await lab.getByTestId("lab-start").click();
  await expect(lab.getByTestId("lab-status")).toHaveText("done: 16 probes");
  await expect(lab.getByTestId("lab-skills-b")).toBeVisible();
  await expect(lab.getByTestId("lab-cell-b-2-1")).toHaveText("✗ csv-report");
});

test("the catalog budget view predicts what a client would trim, and the session index can use it", async ({
  page,
  workspace,
}) => {
  await page.getByTestId("open-trigger-lab").click();
  const lab = page.getByTestId("trigger-lab");
  await lab.getByTestId("lab-tab-budget").click();
  await lab.getByTestId("budget-profile").selectOption("claude-code");
  await lab.getByTestId("budget-window").fill("20000");
  await lab.getByTestId("budget-check").click();
  const report = lab.getByTestId("budget-report");
  await expect(report).toHaveAttribute("data-profile", "claude-code");
  await expect(report.getByTestId("budget-limit")).toHaveText("800");
  // Over the 800-character budget, Claude Code keeps the names and drops descriptions from the end.
  await expect(report.getByTestId("budget-entry-add-report")).toHaveAttribute("data-status", "full");
  await expect(report.getByTestId("budget-entry-todo-triage")).toHaveAttribute("data-status", "dropped");
  await workspace.scratchScreenshot("catalog-budget");
  await expectAccessible(page, "the catalog budget");

  // Codex with a large window: everything fits.
  await lab.getByTestId("budget-profile").selectOption("codex");
  await lab.getByTestId("budget-window").fill("400000");
  await lab.getByTestId("budget-check").click();
  await expect(report).toHaveAttribute("data-profile", "codex");
  await expect(report.getByTestId("budget-entry-todo-triage")).toHaveAttribute("data-status", "full");

  // Apply the Claude Code budget to this session's own index: the stable system says what was trimmed.
  await lab.getByTestId("budget-profile").selectOption("claude-code");
  await lab.getByTestId("budget-window").fill("20000");
  await lab.getByTestId("budget-apply").click(); // controlled: checked once the server confirms the setting
  await expect(lab.getByTestId("budget-apply")).toBeChecked();
  await lab.getByTestId("lab-close").click();
  await workspace.chat.send("hello");
  await expect(workspace.chat.stopTurn().last()).toHaveAttribute("data-reason", "completed");
  await workspace.inspector.selectRequest(1);
  const stable = await workspace.inspector.pane("stable");
  await expect(stable).toContainText(
    "Listing budget (claude-code rules, 1% of 20,000 tokens × 4 chars/token)",
  );
  await expect(stable).toContainText("descriptions dropped:");
  await expect(stable).toContainText("todo-triage");
});
