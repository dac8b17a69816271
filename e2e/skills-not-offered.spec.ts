// Skills as they are published (issue 21): the catalog says in one place why a skill found on disk is
// not offered, lint notes name their profile, a Claude Code skill's allowed-tools are mapped onto this
// playground's tools in its detail, and they pre-approve its calls only when the session honours them.
import path from "node:path";
import { mkdir, writeFile } from "node:fs/promises";
import { writeGitDigestSkill } from "../server/skills/testing/claude-code-skill.ts";
import { expect, test } from "./fixtures.ts";

async function writeSkill(layer: string, folder: string, text: string) {
  await mkdir(path.join(layer, folder), { recursive: true });
  await writeFile(path.join(layer, folder, "SKILL.md"), text);
}

test("the catalog says why each skill on disk is not offered, and the skill detail maps allowed-tools", async ({
  page,
  playground,
  workspace,
}) => {
  const { catalog } = workspace;
  const user = path.join(playground.home, ".PseudoClaude", "skills");
  const project = path.join(playground.workdir, ".PseudoClaude", "skills");
  await writeGitDigestSkill(user);
  await writeSkill(
    project,
    "deploy",
    "---\nname: deploy\ndescription: Deploy the current branch to staging. Use when the user says ship it.\ndisable-model-invocation: true\n---\n\nRun the deploy script.\n",
  );
  await writeSkill(
    project,
    "needs-missing",
    "---\nname: needs-missing\ndescription: Publishes the package. Use when asked to publish.\ntools: [publish_to_registry]\n---\n\nPublish.\n",
  );
  await writeSkill(
    project,
    "claude-notes",
    "---\nname: claude-notes\ndescription: Keeps notes for <context> blocks. Use when asked to take notes.\n---\n\nTake notes.\n",
  );
  await writeSkill(project, "broken-yaml", "---\nname: broken-yaml\ndescription: [unclosed\n---\n\nBody\n");
  await catalog.reload();

  const section = page.getByTestId("catalog-not-offered");
  await expect(section).toContainText("Not offered to the model");
  await expect(page.getByTestId("not-offered-deploy")).toHaveAttribute("data-kind", "disabled");
  await expect(page.getByTestId("not-offered-deploy")).toContainText("the user can still run /deploy");
  await expect(page.getByTestId("not-offered-needs-missing")).toContainText("publish_to_registry");
  await expect(page.getByTestId("not-offered-broken-yaml")).toHaveAttribute("data-kind", "unreadable");
  await expect(page.getByTestId("not-offered-review")).toHaveAttribute("data-kind", "shadowed");
  // git-digest uses Claude Code's tool names in allowed-tools: listed, not removed.
  await expect(catalog.stage("git-digest")).toHaveText("listed");
  await expect(page.getByTestId("not-offered-git-digest")).toHaveCount(0);
  await expect(catalog.skill("deploy")).toContainText("/deploy only");

  // The Claude Code profile refuses claude-notes (reserved word, XML tag); lenient only warned.
  await expect(page.getByTestId("catalog-lint")).toContainText("profile lenient");
  await expect(page.getByTestId("not-offered-claude-notes")).toHaveCount(0);
  await (await workspace.setting("header-lint-profile")).selectOption("claude-code");
  await expect(page.getByTestId("not-offered-claude-notes")).toHaveAttribute("data-kind", "refused");
  await expect(page.getByTestId("not-offered-claude-notes")).toContainText(
    "refused by the claude-code lint profile",
  );
  await expect(page.getByTestId("catalog-lint")).toContainText("profile claude-code");

  for (const [width, height] of [
    [1440, 900],
    [1280, 720],
  ] as const) {
    await page.setViewportSize({ width, height });
    await section.scrollIntoViewIfNeeded();
    await workspace.screenshot(`catalog-not-offered-${width}x${height}`);
  }

  await catalog.openDetail("git-digest");
  const allowed = page.getByTestId("skill-allowed-tools");
  await expect(page.getByTestId("allowed-tool-Read")).toContainText("read_file");
  await expect(page.getByTestId("allowed-tool-Bash(git log:*)")).toContainText("run_command(git log:*)");
  await expect(page.getByTestId("allowed-tool-WebFetch")).toContainText("no equivalent here");
  await expect(page.getByTestId("skill-allowed-tools-state")).toContainText("off");
  await expect(page.getByTestId("skill-when-to-use")).toContainText("weekly summary of commits");
  await (await workspace.setting("header-honour-allowed-tools")).click();
  await expect(page.getByTestId("skill-allowed-tools-state")).toContainText(
    "this session honours allowed-tools",
  );
  for (const [width, height] of [
    [1440, 900],
    [1280, 720],
  ] as const) {
    await page.setViewportSize({ width, height });
    await allowed.scrollIntoViewIfNeeded();
    await workspace.screenshot(`skill-detail-allowed-tools-${width}x${height}`);
  }
});

test("a loaded skill's allowed-tools pre-approve its command only while the session honours them", async ({
  page,
  playground,
  workspace,
}) => {
  const { chat } = workspace;
  const user = path.join(playground.home, ".PseudoClaude", "skills");
  await writeGitDigestSkill(user);
  await workspace.catalog.reload();
  await expect(workspace.catalog.stage("git-digest")).toHaveText("listed");

  const honour = await workspace.setting("header-honour-allowed-tools");
  await honour.click();
  await expect(honour).toBeChecked();
  await chat.send("make a git digest of this week");
  await expect(chat.stopTurn()).toHaveAttribute("data-reason", "completed");
  // The reference file was read by the base directory of the skill's own section.
  await expect(chat.toolCall("read_file").first()).toContainText("One line per commit.");
  const command = chat.toolCall("run_command").first();
  await expect(command.getByTestId("tool-call-pre-approved")).toContainText(
    "pre-approved by skill git-digest",
  );
  await expect(chat.approvalCard()).toHaveCount(0);
});
