// What an approved command wrote, on its tool card: "Wrote N files: …" with package.json (changed) and the
// new file (added), and package.json opening to a line diff that shows the added script line.
import { expect, test } from "./fixtures.ts";

test("an approved command that edits package.json: its card lists the files it wrote and diffs them", async ({
  workspace,
}) => {
  const { chat } = workspace;
  await chat.send("Please add a pretest script");
  await chat.allowOnce();
  const card = chat.toolCall("run_command");
  await expect(card).toHaveAttribute("data-state", "done");
  // This machine holds writes (held-writes.test.ts requires it): the card lists them.
  await expect(card.getByTestId("tool-call-sandbox")).toContainText("writes held until checked");
  const writes = card.getByTestId("tool-call-writes");
  await expect(writes).toContainText("package.json (changed)");
  await writes.locator("summary").first().click();
  await expect(writes.getByTestId("tool-call-write").filter({ hasText: "gen/a.txt" })).toContainText(
    "(added)",
  );
  const manifest = writes.getByTestId("tool-call-write").filter({ hasText: "package.json" });
  await manifest.locator("summary").click();
  const diff = manifest.getByTestId("tool-call-write-diff");
  await expect(diff.getByTestId("tool-call-write-diff-added")).toContainText('"pretest": "node setup.js",');
  await expect(diff.getByTestId("tool-call-write-diff-summary")).toContainText("0 lines removed, 1 added");
  await workspace.scratchScreenshot("command-writes");
});
