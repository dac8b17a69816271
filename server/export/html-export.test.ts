// A saved run (the CLI's `run --save`, in-process) exported as HTML: one file, escaped, redacted, with a
// CSP that admits exactly its one inline script and style, and data for every request's panes.
import { createHash } from "node:crypto";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SecretRedactor } from "../providers/redact.ts";
import { sessionsDirectory } from "../session/session-hub.ts";
import { saveScriptedRun } from "./testing/saved-run.ts";
import { exportSession, readExportedSession } from "./index.ts";
import { buildHtmlModel, type HtmlModel } from "./html-model.ts";
import type { ExportedSession } from "./index.ts";

const KEY = "sk-ant-api03-" + "Q".repeat(40);
const TOKEN = "ab".repeat(32);
const HOSTILE = `<img src=x onerror=alert(1)></script><script>alert(2)</script><!-- ${KEY} #token=${TOKEN}`;

const scenario = `name: hostile
turns:
  - text: "Loading the review skill."
    tool_calls:
      - { name: load_skill, input: { name: review } }
  - text: ${JSON.stringify(HOSTILE)}
    tool_calls:
      - { name: read_file, input: { path: README.md } }
  - text: "Done. \\u2028 line separator"
`;

let root: string;
let html: string;
let sessionId: string;
let session: ExportedSession;
let saved: Awaited<ReturnType<typeof saveScriptedRun>>;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "html-export-"));
  saved = await saveScriptedRun(root, scenario, ["review the README"]);
  expect(saved.outcomes.map((outcome) => outcome.reason)).toEqual(["completed"]);
  sessionId = saved.sessionId;
  // Saved exactly where the server keeps its logs.
  expect(await readdir(sessionsDirectory(saved.home))).toEqual([`${sessionId}.jsonl`]);
  session = await readExportedSession(saved.home, sessionId, new SecretRedactor());
  html = exportSession(session, "html").text;
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

type PageData = Pick<HtmlModel, "id" | "title" | "blobs" | "conversation" | "requests">;

function pageData(page: string): PageData {
  const match = /<script type="application\/json" id="session-data">([^<]*)<\/script>/.exec(page);
  if (!match) throw new Error("no data block");
  return JSON.parse(match[1]) as PageData;
}

describe("HTML export", () => {
  it("never lets model text become markup, and admits only its own script and style", () => {
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<script>alert");
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    // Two script elements: the data block and the page script; nothing loads from anywhere.
    expect(html.match(/<script/g)).toHaveLength(2);
    expect(html).not.toMatch(/<[a-z][^>]*\s(src|href)\s*=/i);
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/
      .exec(html)![1]
      .replace(/&#39;/g, "'");
    expect(csp).toContain("default-src 'none'");
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1];
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1];
    const hash = (text: string) => createHash("sha256").update(text).digest("base64");
    expect(csp).toContain(`script-src 'sha256-${hash(script)}'`);
    expect(csp).toContain(`style-src 'sha256-${hash(style)}'`);
  });

  it("leaves no key and no server token in the file", () => {
    expect(html).not.toContain(KEY);
    expect(html).not.toContain(TOKEN);
    expect(html).toContain("[redacted]");
  });

  it("carries every request's panes: stable, environment with the loaded SOP, messages, tools, raw, diffs, tokens", () => {
    const data = pageData(html);
    expect(data.id).toBe(sessionId);
    expect(data.title).toBe("review the README");
    expect(data.requests.map((request) => request.index)).toEqual([1, 2, 3]);
    const [first, second, third] = data.requests;
    expect(data.blobs[first.stable]).toContain("load_skill");
    expect(second.environment.map((hash) => data.blobs[hash]).join("")).toContain("## Active Skills");
    // Stable unchanged across requests: one copy in the page, and no stable diff.
    expect(second.stable).toBe(first.stable);
    expect(second.diff?.stable).toBeUndefined();
    expect(
      second.diff?.environment?.some(([op, text]) => op === "+" && String(text).includes("review")),
    ).toBe(true);
    // Messages by reference to the one conversation (the last request's messages held a key, so the
    // redacted conversation no longer matches them and they are kept in full, redacted too).
    expect(second.historyLength).toBe(3);
    expect(third.historyLength ?? third.messages?.length).toBe(5);
    expect(data.conversation[3]).toMatchObject({ role: "assistant" });
    expect(first.tools.map((hash) => (data.blobs[hash] as { name: string }).name)).toContain("read_file");
    expect(data.blobs[first.payload!]).toMatchObject({ value: { provider: "scripted" } });
    expect(first.segments?.length).toBeGreaterThan(0);
    expect(first.tokenizer).toBeTruthy();
    // The rest is rendered into the page as HTML, from the same model.
    const model = buildHtmlModel(session);
    expect(model.requests[1].calls).toMatchObject([{ name: "read_file", result: { ok: true } }]);
    expect(model.lane.find((row) => row.skill === "review")).toMatchObject({ listed: true, loadedAt: 1 });
    expect(model.settings).toMatchObject({ provider: "scripted", permissionMode: "default" });
  });

  it("is named after the session, and shows the answers' Markdown as formatting", () => {
    for (const format of ["html", "jsonl", "scenario"] as const)
      expect(exportSession(session, format).fileName).toMatch(
        new RegExp(`^review-the-readme-${sessionId.split("-").pop()}\\.`),
      );
    const withMarkdown = {
      ...session,
      events: session.events.map((record) =>
        record.event.type === "history_appended" && record.event.message.role === "assistant"
          ? {
              ...record,
              event: {
                ...record.event,
                message: { ...record.event.message, content: "**Findings:** none\n\n- `a.js` is fine" },
              },
            }
          : record,
      ),
    };
    const page = exportSession(withMarkdown, "html").text;
    expect(page).toContain("<strong>Findings:</strong> none");
    expect(page).toContain("<li><code>a.js</code> is fine</li>");
  });

  it("renders the chat and the timeline in the page itself, escaped", () => {
    expect(html).toContain('data-testid="export-request-3"');
    expect(html).toContain("review the README");
    expect(html).toContain("skill review loaded");
    expect(html).toContain('data-testid="export-lane-review"');
  });

  it("reads a session by the short id the session picker shows", async () => {
    const short = sessionId.split("-").at(-1)!;
    expect(short).toMatch(/^[0-9a-f]{8}$/);
    expect((await readExportedSession(saved.home, short, new SecretRedactor())).header.id).toBe(sessionId);
    await expect(readExportedSession(saved.home, "0000beef", new SecretRedactor())).rejects.toThrow(
      /no session "0000beef"/,
    );
  });

  it("numbers each request's iteration as the inspector does, with nothing glued to it", () => {
    // Request #2 differs from #1 (the SOP loaded) but not in its prefix: no "prefix changed", and the
    // iteration stays 2 (a falsy count once leaked in as a digit: "it. 20").
    for (const index of [1, 2, 3]) expect(html).toContain(`>#${index} · it. ${index}<br>`);
  });
});
