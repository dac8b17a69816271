// Issue 25 offline in Chromium: with the description router (not a language model) a description decides
// what loads. The inspector says why this skill; an Edit & resend branch with another description loads
// nothing; the lab's A/B table differs by side; the optimizer panel measures a description the person
// proposes, shows the word diff, and Apply writes it into the demo's SKILL.md — after which the router's
// choice for the same message changes.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { splitQueries } from "../server/eval/split.ts";
import { parseSkillCreatorEvals } from "../server/eval/triggers-file.ts";
import { demoScenarios, expect, test } from "./fixtures.ts";

test.use({ scenariosDir: demoScenarios });

const NEVER = "Never use this skill.";
const BETTER =
  "Add a new report dimension to Acme Orders: totals grouped by month, week, customer, product or region, following the project's layering with a test. Use when the user asks to group, split or show totals per something.";
const EVAL_FILE = path.join(".PseudoClaude", "evals", "add-report.json");

test("editing a description changes the router's choice, the lab's A/B table and a resent branch", async ({
  page,
  workspace,
  playground,
}) => {
  const { chat, inspector } = workspace;
  const dialog = await workspace.sessions.newSession({ provider: "router" });
  await dialog.getByTestId("new-session-create").click();
  await expect(page.getByTestId("router-badge")).toHaveText("description router — not a language model");

  // The router reads the index: add-report's description matches, so it loads it and plays its scenario.
  await chat.send("add revenue by month to the report");
  await expect(chat.stopTurn()).toHaveAttribute("data-reason", "completed");
  await inspector.selectRequest(1);
  const why = page.getByTestId("routing-view");
  await expect(why.getByTestId("routing-label")).toHaveText("description router — not a language model");
  await expect(why.getByTestId("routing-chosen")).toHaveAttribute("data-chosen", "add-report");
  await expect(why.getByTestId("routing-score-add-report")).toContainText("revenu");
  await workspace.scratchScreenshot("router-why-this-skill");

  // Edit & resend request #1 with another description, to the router: the branch loads nothing.
  await page.getByTestId("inspector-edit-resend").click();
  const edit = page.getByTestId("edit-request");
  await edit.getByTestId("edit-skill-select").selectOption("add-report");
  await edit.getByTestId("edit-skill-description").fill(NEVER);
  await edit.getByTestId("edit-provider").selectOption("router");
  await edit.getByTestId("edit-send").click();
  await expect(page.getByTestId("branch-label")).toHaveText("forked from #1: skill add-report description");
  await expect(chat.stopTurn()).toHaveAttribute("data-reason", "completed");
  await expect(chat.assistantTexts().last()).toContainText("so I load no skill");
  await expect(page.getByTestId("routing-chosen")).toHaveAttribute("data-chosen", "none");
  await page.getByTestId("branch-open-origin").click();
  await expect(page.getByTestId("branch-banner")).toHaveCount(0);

  // The lab's A/B: the same query passes with the description as it is and misses with it replaced.
  await page.getByTestId("open-trigger-lab").click();
  const lab = page.getByTestId("trigger-lab");
  await expect(lab.getByTestId("lab-model")).toContainText("description router");
  await lab.getByTestId("lab-runs").fill("1");
  await lab.getByTestId("lab-ablate").check();
  await lab.getByTestId("lab-ablate-skill").selectOption("add-report");
  await lab.getByTestId("lab-ablate-description").fill(NEVER);
  await lab.getByTestId("lab-start").click();
  await expect(lab.getByTestId("lab-status")).toHaveText("done: 16 probes");
  await expect(lab.getByTestId("lab-estimate")).toContainText("16 model call(s), $0 (offline)");
  await expect(lab.getByTestId("lab-cell-a-2-1")).toHaveText("✓ add-report");
  await expect(lab.getByTestId("lab-cell-b-2-1")).toHaveText("✗ no tool");
  await expect(lab.getByTestId("lab-note")).toContainText("no near-miss negatives");
  await workspace.scratchScreenshot("router-lab-ab");

  // The optimizer: the router scores, the person proposes; Apply writes the SKILL.md after the diff.
  // The demo ships skill-creator's JSON form for add-report: five positives, five negatives.
  const evalText = await readFile(path.join(playground.workdir, EVAL_FILE), "utf8");
  const evals = parseSkillCreatorEvals(evalText, EVAL_FILE, "add-report");
  await lab.getByTestId("lab-tab-optimizer").click();
  const optimizer = lab.getByTestId("optimizer-panel");
  await optimizer.getByTestId("opt-skill").selectOption("add-report");
  await optimizer.getByTestId("opt-eval-path").fill(EVAL_FILE);
  await optimizer.getByTestId("opt-runs").fill("1");
  await optimizer.getByTestId("opt-iterations").fill("2");
  await optimizer.getByTestId("opt-start").click();
  await expect(optimizer.getByTestId("opt-plan")).toContainText("21 model call(s), $0");
  await expect(optimizer.getByTestId("opt-plan")).toContainText("split 6 train / 4 test");
  await expect(optimizer.getByTestId("opt-train-1")).toHaveText("3/6");
  const proposal = optimizer.getByTestId("opt-proposal");
  await expect(proposal).toBeVisible();
  // What the improver is shown holds train failures, never a test query.
  const split = splitQueries(evals.queries, "add-report", 0.4, 42);
  const shown = await optimizer.getByTestId("opt-prompt").textContent();
  for (const index of split.test) expect(shown).not.toContain(evals.queries[index].query);
  expect(split.train.some((index) => shown?.includes(evals.queries[index].query))).toBe(true);
  await optimizer.getByTestId("opt-proposal-text").fill(BETTER);
  await optimizer.getByTestId("opt-propose").click();
  await expect(optimizer.getByTestId("opt-iteration-2")).toBeVisible();
  await expect(optimizer.getByTestId("opt-diff-2").locator('[data-diff="added"]').first()).toBeVisible();
  await expect(optimizer.getByTestId("opt-test-2")).not.toHaveText(
    await optimizer.getByTestId("opt-test-1").innerText(),
  );
  await expect(optimizer.getByTestId("opt-best")).toContainText(BETTER);
  await workspace.scratchScreenshot("router-optimizer");
  const skillFile = path.join(playground.workdir, ".PseudoClaude", "skills", "add-report", "SKILL.md");
  const before = await readFile(skillFile, "utf8");
  await optimizer.getByTestId("opt-apply").click();
  await expect(
    optimizer.getByTestId("opt-apply-diff").locator('[data-diff="removed"]').first(),
  ).toBeVisible();
  expect(await readFile(skillFile, "utf8")).toBe(before); // nothing written before the click
  await optimizer.getByTestId("opt-apply-confirm-button").click();
  await expect(optimizer.getByTestId("opt-applied")).toContainText("SKILL.md");
  expect(await readFile(skillFile, "utf8")).toContain(BETTER);
  await lab.getByTestId("lab-close").click();

  // The router's choice follows the description now on disk. In this session add-report is active
  // already (loaded by the first message), so it is not loaded twice; the decision says so.
  await expect(page.getByTestId("skill-add-report")).toContainText("totals grouped by month");
  await chat.send("group the totals by product");
  await expect(chat.stopTurn()).toHaveAttribute("data-reason", "completed");
  await inspector.selectRequest(4);
  await expect(page.getByTestId("routing-reason")).toContainText("add-report scores");
  await expect(page.getByTestId("routing-reason")).toContainText("already active");
  // A fresh session loads it for the message that loaded nothing before (the lab's and optimizer's A side).
  await (
    await workspace.sessions.newSession({ provider: "router" })
  )
    .getByTestId("new-session-create")
    .click();
  await expect(page.getByTestId("router-badge")).toBeVisible();
  await chat.send("group the totals by product");
  await expect(chat.stopTurn()).toHaveAttribute("data-reason", "completed");
  await inspector.selectRequest(1);
  await expect(page.getByTestId("routing-chosen")).toHaveAttribute("data-chosen", "add-report");
});
