// S23: a crafted session log exported to HTML. The payload below is markup meant to navigate (a meta
// refresh, which the page's CSP does not stop) and to run script, written into fields of every kind —
// numbers included (a token count, a request index, a duration). Two defences, each tested on its own:
// the log reader checks every record against the log schema and skips (with a warning naming the line)
// one whose fields are not what they should be; and the page's renderer escapes every value it inserts,
// so even a session whose every value is the payload renders as text. Each page is opened in real
// Chromium: no injected element, no dialog, no navigation.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser } from "@playwright/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SecretRedactor } from "../providers/redact.ts";
import { sessionsDirectory } from "../session/session-hub.ts";
import { saveScriptedRun } from "./testing/saved-run.ts";
import { readExportedSession, sessionToHtml, type ExportedSession } from "./index.ts";

const PAYLOAD =
  '"><meta http-equiv="refresh" content="0;url=https://example.invalid/"><img src=x onerror=alert(1)><script>alert(2)</script>';

const scenario = `name: plain
turns:
  - text: "Loading the review skill."
    tool_calls:
      - { name: load_skill, input: { name: review } }
  - text: "Reading."
    tool_calls:
      - { name: read_file, input: { path: README.md } }
  - text: "Done."
`;

let root: string;
let home: string;
let logFile: string;
let browser: Browser;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "html-hostile-"));
  const saved = await saveScriptedRun(root, scenario, ["review the README"]);
  expect(saved.outcomes.map((outcome) => outcome.reason)).toEqual(["completed"]);
  home = saved.home;
  logFile = path.join(sessionsDirectory(home), `${saved.sessionId}.jsonl`);
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu"],
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await rm(root, { recursive: true, force: true });
});

/** Opens the page from file:// with the network refused; what it holds once loaded, and what it tried. */
async function openInChromium(page: string) {
  const file = path.join(root, `page-${Date.now()}-${Math.random().toString(16).slice(2)}.html`);
  await writeFile(file, page);
  const context = await browser.newContext();
  await context.route("**/*", (route) =>
    route.request().url().startsWith("file:") ? route.continue() : route.abort(),
  );
  const viewer = await context.newPage();
  const dialogs: string[] = [];
  const navigations: string[] = [];
  viewer.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  viewer.on("framenavigated", (frame) => navigations.push(frame.url()));
  await viewer.goto(`file://${file}`, { waitUntil: "load" });
  const found = await viewer.evaluate(() => ({
    refreshes: document.querySelectorAll('meta[http-equiv="refresh" i]').length,
    images: document.querySelectorAll("img").length,
    scripts: document.querySelectorAll("script").length,
    url: location.href,
  }));
  await context.close();
  return { ...found, dialogs, navigations, file };
}

function expectInert(page: string, opened: Awaited<ReturnType<typeof openInChromium>>): void {
  expect(page).not.toContain('<meta http-equiv="refresh"');
  expect(page).not.toContain("<img");
  expect(page).not.toContain("<script>alert");
  expect(opened).toMatchObject({ refreshes: 0, images: 0, scripts: 2, dialogs: [] });
  expect(opened.url).toBe(`file://${opened.file}`);
  expect(opened.navigations).toEqual([`file://${opened.file}`]);
}

/** Every string, number and boolean in `value` replaced by the payload (event types kept). */
function poisoned(value: unknown, key = ""): unknown {
  if (Array.isArray(value)) return value.map((item) => poisoned(item));
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, poisoned(item, name)]));
  if (key === "type") return value;
  return value === null ? null : PAYLOAD;
}

describe("S23: a crafted session log exported to HTML", () => {
  it("the reader skips records whose fields have the wrong type (numbers that are markup), naming each line; the rest is escaped", async () => {
    const lines = (await readFile(logFile, "utf8")).trimEnd().split("\n");
    const crafted = lines.map((line, index) => {
      const record = JSON.parse(line);
      if (index === 0) return JSON.stringify({ ...record, title: PAYLOAD });
      const event = record.event;
      if (event.type === "run_started") event.userMessage = PAYLOAD;
      if (event.type === "request" && event.snapshot.requestIndex === 2)
        event.snapshot.requestIndex = PAYLOAD;
      if (event.type === "request" && event.snapshot.requestIndex === 3) event.snapshot.iteration = PAYLOAD;
      if (event.type === "usage") event.usage.inputTokens = PAYLOAD;
      if (event.type === "tool_result") event.durationMs = PAYLOAD;
      if (event.type === "skill_activated") event.position = PAYLOAD;
      if (event.type === "stop") event.iterations = PAYLOAD;
      if (event.type === "tool_call") event.call.name = PAYLOAD;
      return JSON.stringify(record);
    });
    const id = "20261203-120000-crafted";
    // And a record nested 100,000 deep: it parses, but would overflow whatever walks it later.
    const deep = `{"kind":"event","seq":999,"at":"x","event":{"type":"session_error","code":"x","message":"x","deep":${"[".repeat(100_000)}${"]".repeat(100_000)}}}`;
    await writeFile(path.join(sessionsDirectory(home), `${id}.jsonl`), `${[...crafted, deep].join("\n")}\n`);

    const session = await readExportedSession(home, id, new SecretRedactor());
    const skipped = session.warnings.filter((warning) => warning.includes("does not match the log schema"));
    for (const field of ["requestIndex", "iteration", "inputTokens", "durationMs", "position", "iterations"])
      expect(
        skipped.some((warning) => warning.includes(`/${field}`)),
        field,
      ).toBe(true);
    expect(skipped.every((warning) => /crafted\.jsonl:\d+: /.test(warning))).toBe(true);
    expect(session.warnings).toContainEqual(
      expect.stringMatching(
        /crafted\.jsonl:\d+: skipped a record nested deeper than 512 levels; the limit is 512/,
      ),
    );
    // The strings the schema admits are kept, and shown as text.
    expect(session.header.title).toBe(PAYLOAD);
    const page = sessionToHtml(session, "2026-12-03T12:00:00.000Z");
    expect(page).toContain("&lt;meta http-equiv=&quot;refresh&quot;");
    expectInert(page, await openInChromium(page));
  }, 60_000);

  it("the renderer escapes every value it inserts, numbers included: a session whose every value is markup renders as text", async () => {
    const session = await readExportedSession(home, path.basename(logFile, ".jsonl"), new SecretRedactor());
    // A log this version wrote (format 3) passes the schema whole.
    expect(session.warnings).toEqual([]);
    const hostile: ExportedSession = {
      header: poisoned(session.header) as ExportedSession["header"],
      events: session.events.map((record) => poisoned(record) as ExportedSession["events"][number]),
      warnings: [PAYLOAD],
      skipped: [],
    };
    const page = sessionToHtml(hostile, PAYLOAD);
    expect(page.includes(`data-request="&quot;&gt;&lt;meta`), "the request index attribute is escaped").toBe(
      true,
    );
    expectInert(page, await openInChromium(page));
  }, 60_000);
});
