// "Add skill" in a real Chromium: a .zip dropped on the dialog is checked by the server (the plan says
// where it goes), installed into the project layer, appears in the catalog, and a scripted run loads it
// and reads its reference.md. A hostile archive picked with the file input is refused with its entry and
// rule, and nothing appears.
import { existsSync } from "node:fs";
import path from "node:path";
import { zipSync } from "fflate";
import { expect, test } from "./fixtures.ts";
import { dropFile } from "./pages/drop-file.ts";

const encode = (text: string) => new TextEncoder().encode(text);

const glossarySkill = `---
name: glossary-terms
description: Check that every glossary term in a document is defined. Use when the user asks about the glossary.
---

# Glossary terms

1. Read the reference file in this skill's folder (see its file list) for the house definitions.
2. Compare each term the user names against it and report missing ones.
`;

function glossaryZip(): Buffer {
  return Buffer.from(
    zipSync({
      "glossary-terms/SKILL.md": encode(glossarySkill),
      "glossary-terms/reference.md": encode("# Reference\n\n- cents: integer money amounts\n"),
    }),
  );
}

test("drop a zip on Add skill, install it into the project layer, load it and read its file", async ({
  page,
  workspace,
  playground,
}) => {
  const { catalog, chat } = workspace;
  await expect(catalog.source("csv-report")).toHaveText("builtin");
  await expect(catalog.skill("glossary-terms")).toHaveCount(0);

  await page.getByTestId("catalog-add-skill").click();
  await page.getByTestId("add-skill-layer-project").check();
  await dropFile(page, "glossary-terms.zip", glossaryZip());
  await expect(page.getByTestId("add-skill-file")).toHaveText("glossary-terms.zip");
  await expect(page.getByTestId("add-skill-plan-name")).toHaveText("glossary-terms");
  await expect(page.getByTestId("add-skill-plan")).toContainText(
    "<workdir>/.PseudoClaude/skills/glossary-terms",
  );
  await expect(page.getByTestId("add-skill-replaces")).toHaveCount(0);
  // Only the plan so far: nothing is written before Install.
  const installed = path.join(playground.workdir, ".PseudoClaude", "skills", "glossary-terms");
  expect(existsSync(installed)).toBe(false);
  await workspace.screenshot("add-skill-plan");

  await page.getByTestId("add-skill-install").click();
  await expect(page.getByTestId("add-skill-installed")).toContainText("glossary-terms");
  await page.getByTestId("add-skill-close").click();
  await expect(page.getByTestId("add-skill-dialog")).toHaveCount(0);
  await expect(catalog.source("glossary-terms")).toHaveText("project");
  await expect(catalog.stage("glossary-terms")).toHaveText("listed");
  expect(existsSync(path.join(installed, "reference.md"))).toBe(true);

  // Level 3 in the lane: loading lists the skill's files; the next run reads reference.md.
  await chat.send("load the glossary skill");
  await expect(chat.stopTurn()).toHaveAttribute("data-reason", "completed");
  await expect(chat.toolCall("load_skill")).toHaveAttribute("data-state", "done");
  const referenceFile = page.getByTestId("skill-file-glossary-terms-reference.md");
  await expect(referenceFile).toHaveAttribute("data-state", "listed");

  await chat.send("check the glossary against its reference");
  await expect(chat.stopTurn().nth(1)).toHaveAttribute("data-reason", "completed");
  await expect(chat.toolCall("read_file")).toHaveAttribute("data-state", "done");
  await expect(chat.toolCall("read_file").getByTestId("tool-call-result")).toContainText(
    "integer money amounts",
  );
  await expect(referenceFile).toHaveAttribute("data-state", "read");
  await expect(catalog.stage("glossary-terms")).toHaveText("loaded (active)");

  // The same name again: the plan says it replaces, and Install stays off until the replace is ticked.
  await page.getByTestId("catalog-add-skill").click();
  await page.getByTestId("add-skill-layer-project").check();
  await dropFile(page, "glossary-terms.zip", glossaryZip());
  await expect(page.getByTestId("add-skill-replaces")).toContainText("Replaces the project skill");
  await expect(page.getByTestId("add-skill-install")).toBeDisabled();
  await page.getByTestId("add-skill-confirm-replace").check();
  await expect(page.getByTestId("add-skill-install")).toHaveText("Replace and install");
  await expect(page.getByTestId("add-skill-install")).toBeEnabled();
  await page.getByTestId("add-skill-close").click();
});

test("a zip-slip archive picked with the file input is refused with its entry and rule", async ({
  page,
  workspace,
  playground,
}) => {
  await page.getByTestId("catalog-add-skill").click();
  const evil = Buffer.from(
    zipSync({
      "evil/SKILL.md": encode("---\nname: evil\ndescription: d\n---\nbody\n"),
      "evil/../../escaped.txt": encode("x"),
    }),
  );
  await page.getByTestId("add-skill-zip-input").setInputFiles({
    name: "evil.zip",
    mimeType: "application/zip",
    buffer: evil,
  });
  await expect(page.getByTestId("add-skill-refusal-entry")).toHaveText("evil/../../escaped.txt");
  await expect(page.getByTestId("add-skill-refusal-rule")).toContainText("'..' in the path");
  await expect(page.getByTestId("add-skill-install")).toBeDisabled();
  await page.getByTestId("add-skill-close").click();
  await expect(workspace.catalog.skill("evil")).toHaveCount(0);
  expect(existsSync(path.join(playground.home, ".PseudoClaude", "skills"))).toBe(false);
});
