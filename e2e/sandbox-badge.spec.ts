// The sandbox in the header and on the cards: "sandbox on · network off" under bubblewrap, red
// "sandbox off: <reason>" without it (every command then asks), and the per-session network switch,
// which takes effect from the next run.
import { expect, test } from "./fixtures.ts";

test.describe("bubblewrap missing", () => {
  test.use({ serverEnv: { PSEUDOCLAUDE_BWRAP: "/nonexistent/bwrap" } });

  test("the header says sandbox off with the reason, in red, and the approval card says so", async ({
    page,
    workspace,
  }) => {
    const badge = page.getByTestId("header-sandbox");
    await expect(badge).toContainText("sandbox off: /nonexistent/bwrap not found");
    await expect(badge).toHaveAttribute("data-tone", "red");
    await expect(badge).toHaveAttribute("title", /every command and skill tool asks/);
    // Without a sandbox there is no network to switch.
    await expect(await workspace.setting("header-allow-network")).toHaveCount(0);
    const { chat } = workspace;
    await chat.send("Please clean up the logs folder");
    await expect(chat.approvalCard().getByTestId("approval-sandbox")).toContainText(
      "runs without a sandbox: /nonexistent/bwrap not found",
    );
    await chat.deny("no sandbox");
    await expect(chat.toolCall("run_command")).toHaveAttribute("data-state", "denied");
  });
});

/** The card's sandbox line: whether this machine holds a command's writes until checked is said too. */
const callLine = (network: "on" | "off") =>
  new RegExp(
    `^runs in the sandbox: workdir writable \\(writes (held until checked|not held: checked after the call)\\), network ${network}$`,
  );

test("sandbox on: network off by default, allowed per session from the next run", async ({
  page,
  workspace,
}) => {
  const { chat } = workspace;
  const badge = page.getByTestId("header-sandbox");
  await expect(badge).toHaveText("sandbox on · network off");
  await expect(badge).toHaveAttribute("data-tone", "green");
  await expect(badge).toHaveAttribute("title", /writes are held until it has ended|Writes are not held \(/);
  await chat.send("Please clean up the logs folder");
  await expect(chat.approvalCard().getByTestId("approval-sandbox")).toHaveText(callLine("off"));
  await workspace.scratchScreenshot("header-sandbox-approval");
  await chat.deny("not now");
  await expect(chat.toolCall("run_command")).toHaveAttribute("data-state", "denied");
  await expect(chat.toolCall("run_command").getByTestId("tool-call-sandbox")).toHaveText(callLine("off"));
  await expect(chat.stopTurn().last()).toHaveAttribute("data-reason", "completed");

  const toggle = await workspace.setting("header-allow-network");
  await expect(toggle.locator("xpath=..")).toHaveAttribute("title", /from the next run/);
  // The switch shows the server's setting: it turns on once settings_changed comes back.
  await toggle.click();
  await expect(toggle).toBeChecked();
  await expect(badge).toContainText("network on");
  // The next run uses it: its approval card and the header say network on.
  await chat.send("Please clean up the logs folder");
  await expect(chat.approvalCard().getByTestId("approval-sandbox")).toHaveText(callLine("on"));
  await expect(badge).toHaveText("sandbox on · network on");
  await chat.deny("still not now");
  // The setting survives a reload.
  await page.reload();
  await workspace.expectConnected();
  await expect(await workspace.setting("header-allow-network")).toBeChecked();
});
