// Share a session: export it from the session menu as one HTML file, open that file from file:// with
// every network request refused and recorded, and click through two requests' panes. Then save it as a
// scenario and import that back: the header says the session is a replay. And from the command line:
// run --save, export --format html, open from file://.
import { execFile } from "node:child_process";
import { cp, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, test } from "./fixtures.ts";

const scenarios = fileURLToPath(new URL("./fixtures/export-scenarios/", import.meta.url));
const repoRoot = fileURLToPath(new URL("..", import.meta.url));
const run = promisify(execFile);
test.use({ scenariosDir: scenarios });

test("an exported HTML file opens from file:// with no request and shows two requests' panes", async ({
  page,
  browser,
  workspace,
}, testInfo) => {
  const { chat } = workspace;
  await chat.send("review the README");
  await expect(chat.stopTurn()).toHaveAttribute("data-reason", "completed");

  await page.getByTestId("session-menu").click();
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByTestId("session-export-html").click(),
  ]);
  // Named after the session (its title and short id), not after a timestamp.
  expect(download.suggestedFilename()).toMatch(/^review-the-readme-[0-9a-f]{8}\.html$/);
  const file = testInfo.outputPath(download.suggestedFilename());
  await download.saveAs(file);

  const context = await browser.newContext();
  const requests: string[] = [];
  const problems: string[] = [];
  // Every request the page makes is recorded; anything but the file itself is refused.
  context.on("request", (request) => requests.push(request.url()));
  await context.route("**/*", (route) =>
    route.request().url().startsWith("file:") ? route.continue() : route.abort(),
  );
  const viewer = await context.newPage();
  viewer.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  viewer.on("pageerror", (error) => problems.push(error.message));
  const fileUrl = `file://${file}`;
  await viewer.goto(fileUrl);

  await expect(viewer.getByTestId("export-title")).toHaveText("review the README");
  // Model text is text: the markup it contains is shown, not run.
  await expect(viewer.getByTestId("export-chat")).toContainText("<img src=x onerror=alert(1)>");
  await expect(viewer.locator("img")).toHaveCount(0);
  // The answers' Markdown is formatting, not asterisks.
  await expect(viewer.getByTestId("export-chat").locator("strong")).toHaveText("Acme Orders");

  await viewer.getByTestId("export-request-1").click();
  await viewer.getByTestId("export-pane-tab-environment").click();
  await expect(viewer.getByTestId("export-pane-title")).toContainText("Request #1");
  await expect(viewer.getByTestId("export-pane-environment")).toContainText("(none yet");
  await viewer.getByTestId("export-pane-tab-stable").click();
  await expect(viewer.getByTestId("export-pane-stable")).toContainText("load_skill");

  await viewer.getByTestId("export-request-2").click();
  await expect(viewer.getByTestId("export-pane-title")).toContainText("Request #2");
  await expect(viewer.getByTestId("export-pane-stable")).toContainText("Available skills");
  await viewer.getByTestId("export-pane-tab-environment").click();
  // The loaded SOP is in the environment of the request after load_skill.
  await expect(viewer.getByTestId("export-pane-environment")).toContainText(`<skill name="review" source=`);
  await viewer.getByTestId("export-pane-tab-messages").click();
  await expect(viewer.getByTestId("export-pane-message")).toHaveCount(3);
  await viewer.getByTestId("export-pane-tab-tools").click();
  await expect(viewer.getByTestId("export-pane-tools")).toContainText("read_file");
  await viewer.getByTestId("export-pane-tab-raw").click();
  await expect(viewer.getByTestId("export-pane-raw")).toContainText('"provider": "scripted"');
  await viewer.getByTestId("export-pane-tab-diffs").click();
  await expect(viewer.getByTestId("export-pane-diffs")).toContainText(`+ <skill name="review" source=`);
  await expect(viewer.getByTestId("export-pane-diffs")).toContainText("unchanged (byte-identical)");
  await viewer.getByTestId("export-pane-tab-tokens").click();
  await expect(viewer.getByTestId("export-pane-tokens")).toContainText("o200k_base");
  await expect(viewer.getByTestId("export-lane-review")).toContainText("loaded at request #1");
  await expect(viewer.getByTestId("export-settings")).toContainText("scripted");

  expect(requests).toEqual([fileUrl]);
  expect(problems).toEqual([]);
  await context.close();
});

test("save as scenario, then import it: a new session offers the recorded message and shows where it diverges", async ({
  page,
  workspace,
  playground,
}, testInfo) => {
  const { chat } = workspace;
  await chat.send("review the README");
  await expect(chat.stopTurn()).toHaveAttribute("data-reason", "completed");
  await page.getByTestId("session-menu").click();
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByTestId("session-export-scenario").click(),
  ]);
  const file = testInfo.outputPath(download.suggestedFilename());
  await download.saveAs(file);
  const yaml = await readFile(file, "utf8");
  expect(yaml).toContain("recorded:");
  expect(yaml).toContain("name: read_file");

  const [original] = await workspace.sessions.ids();
  await page.keyboard.press("Escape");

  // The workdir changed since the recording: the replay will read another README.
  await writeFile(
    path.join(playground.workdir, "README.md"),
    "# Acme Orders\n\nRewritten since the recording.\n",
  );
  await page.getByTestId("session-menu").click();
  await page.getByTestId("session-import-scenario-file").setInputFiles(path.resolve(file));
  // A new session plays it; the recorded message is offered, not typed.
  await expect(page.getByTestId("replay-badge")).toHaveText("replay");
  await expect(chat.userTurns()).toHaveCount(0);
  const banner = page.getByTestId("replay-banner");
  await expect(banner.getByTestId("replay-progress")).toHaveText("0 of 1 recorded message sent · next:");
  await banner.getByTestId("replay-next-message").click();
  await expect(chat.stopTurn().last()).toHaveAttribute("data-reason", "completed");
  await expect(chat.userTurns()).toHaveText(["review the README"]);
  await expect(chat.toolCall("read_file")).toHaveCount(1);
  await expect(banner.getByTestId("replay-progress")).toHaveText("1 of 1 recorded message sent · all sent");
  // Where the replay left the recording is on screen, not only in the Raw pane.
  await expect(banner.getByTestId("replay-divergence")).toContainText("the result of read_file differs");
  await workspace.scratchScreenshot("replay-divergence");
  await banner.getByTestId("replay-divergence-request").click();
  await expect(page.getByTestId("inspector-selected")).toHaveText(/^Request #\d+$/);

  // The session the scenario was saved from is as it was.
  const ids = await workspace.sessions.ids();
  expect(ids).toHaveLength(2);
  await workspace.sessions.item(original).click();
  await expect(chat.userTurns()).toHaveText(["review the README"]);
  await expect(page.getByTestId("replay-banner")).toHaveCount(0);
});

test("run --save, then export --format html: the file shows the environment with the loaded SOP and holds no key", async ({
  browser,
}, testInfo) => {
  const root = testInfo.outputPath("cli");
  const home = path.join(root, "home");
  const workdir = path.join(root, "work");
  await mkdir(home, { recursive: true });
  await cp(path.join(repoRoot, "examples", "demo-workdir"), workdir, { recursive: true });
  const key = `sk-ant-api03-${"k".repeat(40)}`;
  // The key is configured for the CLI, and the tool output quotes it: neither may reach the file.
  await writeFile(path.join(workdir, "secret.txt"), `ANTHROPIC_API_KEY=${key}\n`);
  const scenario = path.join(root, "read-secret.yaml");
  await writeFile(
    scenario,
    "name: read-secret\nturns:\n  - tool_calls:\n      - { name: load_skill, input: { name: review } }\n" +
      "  - tool_calls:\n      - { name: read_file, input: { path: secret.txt } }\n  - text: Done.\n",
  );
  const env = { ...process.env, ANTHROPIC_API_KEY: key };
  const cli = (args: string[]) =>
    run(process.execPath, ["--import", "tsx", "server/cli.ts", ...args], { cwd: repoRoot, env });
  const saved = await cli([
    "run",
    "--workdir",
    workdir,
    "--home",
    home,
    "--scenario",
    scenario,
    "--message",
    "review",
    "--yes",
    "--save",
    "--json",
  ]);
  const { sessionId } = JSON.parse(saved.stdout.trim().split("\n").at(-1)!) as { sessionId: string };
  const file = path.join(root, "session.html");
  await cli(["export", sessionId, "--home", home, "--format", "html", "--out", file]);
  expect(await readFile(file, "utf8")).not.toContain(key);

  const context = await browser.newContext();
  const requests: string[] = [];
  context.on("request", (request) => requests.push(request.url()));
  await context.route("**/*", (route) =>
    route.request().url().startsWith("file:") ? route.continue() : route.abort(),
  );
  const viewer = await context.newPage();
  await viewer.goto(`file://${file}`);
  await viewer.getByTestId("export-request-2").click();
  await viewer.getByTestId("export-pane-tab-environment").click();
  await expect(viewer.getByTestId("export-pane-environment")).toContainText(`<skill name="review" source=`);
  await expect(viewer.getByTestId("export-pane-environment")).toContainText("Acme Orders review");
  await viewer.getByTestId("export-request-3").click();
  await viewer.getByTestId("export-pane-tab-messages").click();
  await expect(viewer.getByTestId("export-pane-messages")).toContainText("ANTHROPIC_API_KEY=[redacted]");
  expect(requests).toEqual([`file://${file}`]);
  await context.close();
});
