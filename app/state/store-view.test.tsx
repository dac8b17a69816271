// The store from the outside: server events go in through the public reducer, the views come out through
// the selectors (app/state/selectors.ts), and the panels render what the selectors return — to static
// markup, with React's own server renderer, so no browser is needed. Nothing here reads the state's own
// fields: a new store that keeps the reducer's actions and the selectors' signatures passes unchanged.
import { renderToStaticMarkup } from "react-dom/server";
import { prerender } from "react-dom/static";
import type { ReactElement } from "react";
import { describe, expect, it } from "vitest";
import type { FolderTrust, ServerMessage, SessionEvent } from "../../server/protocol/index.ts";
import { CatalogPanel } from "../components/catalog-panel.tsx";
import { ChatPanel } from "../components/chat-panel.tsx";
import { ErrorList } from "../components/error-list.tsx";
import { InspectorPanel } from "../components/inspector-panel.tsx";
import { initialUiState, uiReducer } from "./reducer.ts";
import { VIRTUAL_AFTER } from "../components/chat-list.tsx";
import { VIRTUAL_AFTER as MESSAGES_VIRTUAL_AFTER } from "../components/message-list.tsx";
import { RequestPane, paneText } from "../components/request-panes.tsx";
import { at } from "./records.ts";
import {
  callRecords,
  catalogColumn,
  skillResourcesOf,
  callsOfTurn,
  turnRecords,
  catalogOf,
  chatTurns,
  isRunning,
  manualTurn,
  pendingApprovalIds,
  queuedMessages,
  requestsOf,
  stageOf,
  toolCallsById,
  trustToAsk,
  visibleErrors,
  waitingApprovals,
} from "./selectors.ts";
import { envelope, requestEvent, skill, snapshot, summary, tool } from "./test-builders.ts";
import type { UiAction, UiState } from "./types.ts";

/** Events of session s1, numbered from 1, after its session_opened. */
function session(...events: SessionEvent[]): ServerMessage[] {
  return [
    envelope(1, { type: "session_opened", session: summary(), history: [], activeSkills: [] }),
    ...events.map((event, index) => envelope(index + 2, event)),
  ];
}

function reduce(messages: ServerMessage[], ...actions: UiAction[]): UiState {
  const afterServer = uiReducer(initialUiState, { type: "server_batch", messages });
  return actions.reduce(uiReducer, afterServer);
}

const noop = () => {};

/** The chat as the page shows it once its lazily loaded parts (cards, the virtual list) are in. */
function chat(state: UiState): Promise<string> {
  return renderLoaded(
    <ChatPanel
      sessionId="s1"
      turns={turnRecords(state)}
      toolCalls={callRecords(state)}
      pendingApprovals={pendingApprovalIds(state)}
      manualTurn={manualTurn(state)}
      skills={catalogOf(state)?.skills ?? []}
      running={isRunning(state)}
      connected
      queued={queuedMessages(state)}
      onSend={() => true}
      onStop={noop}
      onAnswer={noop}
      onManualResponse={noop}
      onSelectRequest={noop}
    />,
  );
}

function render(element: ReactElement): string {
  return renderToStaticMarkup(element);
}

/** Like render, after every lazily loaded view in it has loaded (React's prerender waits for them). */
async function renderLoaded(element: ReactElement): Promise<string> {
  const { prelude } = await prerender(element);
  return await new Response(prelude).text();
}

/** The text a reader sees (tags dropped, entities of the renderer decoded). */
function text(html: string): string {
  return html
    .replace(/<[^>]+>/g, " ")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();
}

function count(html: string, attribute: string): number {
  return html.split(attribute).length - 1;
}

const review = skill("review", ["lint"]);
const catalog: SessionEvent = {
  type: "catalog_snapshot",
  catalog: { skills: [review, skill("commit")], warnings: [], removed: [], shadowed: [], lint: [] },
  visibleTools: ["load_skill"],
  registeredTools: ["load_skill"],
};

describe("the store, events in and views out", () => {
  it("a streamed answer is one assistant turn in the conversation log, busy while the run goes", async () => {
    const streaming = reduce(
      session(
        { type: "run_started", runId: "r1", userMessage: "review it" },
        requestEvent(snapshot()),
        ...["Let ", "me ", "look."].map((piece): SessionEvent => ({
          type: "text_delta",
          runId: "r1",
          requestIndex: 1,
          text: piece,
        })),
      ),
    );
    expect(chatTurns(streaming).map((turn) => turn.kind)).toEqual(["user", "assistant"]);
    expect(isRunning(streaming)).toBe(true);
    const html = await chat(streaming);
    expect(html).toMatch(/role="log"[^>]*aria-busy="true"/);
    expect(text(html)).toContain("review it");
    expect(text(html)).toContain("Let me look.");
    expect(count(html, 'data-testid="assistant-text"')).toBe(1);

    const done = reduce(
      session(
        { type: "run_started", runId: "r1", userMessage: "review it" },
        requestEvent(snapshot()),
        { type: "text_delta", runId: "r1", requestIndex: 1, text: "Done." },
        { type: "stop", runId: "r1", reason: "completed", iterations: 1 },
      ),
    );
    expect(isRunning(done)).toBe(false);
    const finished = await chat(done);
    expect(finished).toMatch(/role="log"[^>]*aria-busy="false"/);
    expect(count(finished, 'data-testid="turn-stop"')).toBe(1);
  });

  it("a permission request is a waiting approval: a card and an announcement, gone once answered", async () => {
    const asking = reduce(
      session(
        { type: "run_started", runId: "r1", userMessage: "clean up" },
        {
          type: "tool_call",
          runId: "r1",
          requestIndex: 1,
          call: { id: "c1", name: "run_command", input: { command: "rm -rf logs" } },
          known: true,
          visible: true,
        },
        {
          type: "permission_request",
          runId: "r1",
          request: {
            callId: "c1",
            tool: "run_command",
            category: "exec",
            input: { command: "rm -rf logs" },
            command: "rm -rf logs",
            cwd: "/tmp/demo",
            trace: { decision: "ask", source: "mode", category: "exec" },
          },
        },
      ),
    );
    expect(waitingApprovals(asking).map((request) => request.command)).toEqual(["rm -rf logs"]);
    const html = await chat(asking);
    expect(count(html, 'data-testid="approval-card"')).toBe(1);
    expect(html).toMatch(/role="group" aria-label="Approve run_command\?"/);
    expect(html).toMatch(/aria-live="assertive"[^>]*>Approval needed: run_command\./);

    const answered = uiReducer(asking, {
      type: "server",
      message: envelope(5, {
        type: "permission_decision",
        runId: "r1",
        callId: "c1",
        trace: { decision: "deny", source: "user", category: "exec" },
        answer: { kind: "deny", reason: "not now" },
      }),
    });
    expect(waitingApprovals(answered)).toEqual([]);
    const after = await chat(answered);
    expect(count(after, 'data-testid="approval-card"')).toBe(0);
    expect(after).toMatch(/aria-live="assertive"[^>]*><\/p>/);
  });

  it("a message typed during a run is queued for that session and shown above the box", async () => {
    const state = reduce(
      session({ type: "run_started", runId: "r1", userMessage: "slow" }),
      { type: "queue_message", sessionId: "s1", text: "and then this" },
      { type: "queue_message", sessionId: "other", text: "not for this session" },
    );
    expect(queuedMessages(state).map((item) => item.text)).toEqual(["and then this"]);
    const html = await chat(state);
    expect(text(html)).toContain("Sent when the run ends: and then this");
    expect(text(html)).not.toContain("not for this session");
  });

  it("requests fill the inspector: the selected one's summary, and its panes as tabs of one panel", () => {
    const state = reduce(
      session(
        { type: "run_started", runId: "r1", userMessage: "review it" },
        requestEvent(snapshot()),
        requestEvent(snapshot({ requestIndex: 2, tools: [tool("load_skill"), tool("lint", "skill")] })),
      ),
    );
    expect(requestsOf(state).map((request) => request.requestIndex)).toEqual([1, 2]);
    const html = render(<InspectorPanel requests={requestsOf(state)} onSelect={noop} onShowTurn={noop} />);
    expect(text(html)).toContain("Request #2");
    expect(count(html, 'role="tab"')).toBe(5);
    expect(count(html, 'aria-selected="true"')).toBe(1);
    // Roving focus: only the selected tab is a Tab stop; the one panel is labelled by it.
    expect(count(html, 'role="tab" id=')).toBe(5);
    expect(count(html, 'tabindex="0" data-testid="pane-tab-')).toBe(1);
    const selected = /id="([^"]+)" aria-selected="true"/.exec(html)?.[1];
    expect(html).toContain(`role="tabpanel" id=`);
    expect(html).toContain(`aria-labelledby="${selected}"`);
    // The request's tools pane says a skill tool is now visible (the diff against #1).
    expect(text(html)).toContain("tools +lint");
  });

  it("a skill moves through its stages in the catalog as it is loaded and its tools arrive", () => {
    const listed = reduce(session(catalog));
    expect(catalogOf(listed)?.skills.map((item) => item.name)).toEqual(["review", "commit"]);
    expect(stageOf(listed, review)).toBe("listed");
    const loaded = reduce(
      session(
        catalog,
        { type: "skill_activated", runId: "r1", name: "review", source: "builtin", position: 1 },
        { type: "tools_registered", runId: "r1", skill: "review", tools: ["lint"] },
        requestEvent(snapshot({ requestIndex: 2, registeredNotVisible: ["lint"] })),
      ),
    );
    expect(stageOf(loaded, review)).toBe("tools_registered");
    const html = render(
      <CatalogPanel
        catalog={catalogOf(loaded)}
        stageOf={(item) => stageOf(loaded, item)}
        reloadFeed={[]}
        onSelectSkill={noop}
        onReload={noop}
      />,
    );
    expect(html).toMatch(/data-testid="skill-stage-review"[^>]*>[^<]*tools registered/);
    expect(html).toMatch(/data-testid="skill-stage-commit"[^>]*>[^<]*listed/);
  });

  it("errors show once each with a count, as alerts; a dismissed one goes", () => {
    const state = reduce([
      ...session(),
      { type: "error", code: "invalid_command", message: "unknown type", command: "nope" },
      { type: "error", code: "invalid_command", message: "unknown type", command: "nope" },
    ]);
    const errors = visibleErrors(state);
    expect(errors).toHaveLength(1);
    const html = render(<ErrorList errors={errors} onDismiss={noop} />);
    expect(html).toContain('role="alert"');
    expect(text(html)).toContain("Error: invalid_command (×2)");
    expect(visibleErrors(uiReducer(state, { type: "dismiss_error", id: errors[0].id }))).toEqual([]);
  });

  it("a folder that grants something asks for trust until Keep untrusted; trusting it ends the question", () => {
    const untrusted: FolderTrust = {
      folder: "/tmp/demo",
      trusted: false,
      grants: { allow: ["run_command(*)"], mcpServers: [] },
    };
    const asked = reduce(session({ type: "trust_state", trust: untrusted }));
    expect(trustToAsk(asked)?.folder).toBe("/tmp/demo");
    expect(trustToAsk(uiReducer(asked, { type: "trust_prompt", dismissed: true }))).toBeUndefined();
    const trusted = reduce(
      session(
        { type: "trust_state", trust: untrusted },
        { type: "trust_state", trust: { ...untrusted, trusted: true, via: "session" } },
      ),
    );
    expect(trustToAsk(trusted)).toBeUndefined();
  });

  it("views of a page with no session yet are empty, and the same empty value every time", () => {
    expect(chatTurns(initialUiState)).toEqual([]);
    expect(chatTurns(initialUiState)).toBe(chatTurns(initialUiState));
    expect(toolCallsById(initialUiState)).toBe(toolCallsById(initialUiState));
    expect(requestsOf(initialUiState)).toBe(requestsOf(initialUiState));
    expect(isRunning(initialUiState)).toBe(false);
    expect(stageOf(initialUiState, review)).toBe("listed");
  });

  it("a text delta changes only the turn it streams into: every other turn and every call keeps its identity", () => {
    const events: SessionEvent[] = [];
    for (let run = 1; run <= 100; run++)
      events.push(
        { type: "run_started", runId: `r${run}`, userMessage: `message ${run}` },
        requestEvent(snapshot({ runId: `r${run}`, requestIndex: run })),
        {
          type: "tool_call",
          runId: `r${run}`,
          requestIndex: run,
          call: { id: `c${run}`, name: "read_file", input: { path: "a" } },
          known: true,
          visible: true,
        },
        { type: "stop", runId: `r${run}`, reason: "completed", iterations: 1 },
      );
    events.push(
      { type: "run_started", runId: "live", userMessage: "stream" },
      requestEvent(snapshot({ runId: "live", requestIndex: 101 })),
      { type: "text_delta", runId: "live", requestIndex: 101, text: "one " },
    );
    const before = reduce(session(catalog, ...events));
    const after = uiReducer(before, {
      type: "server",
      message: envelope(events.length + 3, {
        type: "text_delta",
        runId: "live",
        requestIndex: 101,
        text: "two",
      }),
    });
    const oldTurns = turnRecords(before);
    const newTurns = turnRecords(after);
    expect(newTurns.size).toBe(oldTurns.size);
    expect(at(newTurns, newTurns.size - 1)).toMatchObject({ kind: "assistant", text: "one two" });
    // Every turn but the streaming one is the same object, and only the last chunk was copied.
    for (let index = 0; index < newTurns.size - 1; index++)
      expect(at(newTurns, index)).toBe(at(oldTurns, index));
    expect(newTurns.chunks.slice(0, -1).every((chunk, index) => chunk === oldTurns.chunks[index])).toBe(true);
    expect(callRecords(after)).toBe(callRecords(before));
    expect(requestsOf(after)).toBe(requestsOf(before));
    // The other columns' views are the objects they were: their memoised containers do not re-render.
    expect(catalogColumn(after)).toBe(catalogColumn(before));
    expect(skillResourcesOf(after)).toBe(skillResourcesOf(before));
  });

  it("a turn's calls are the same array while none of its calls changed, whatever happens to another turn's", () => {
    const call = (id: string, requestIndex: number): SessionEvent => ({
      type: "tool_call",
      runId: "r1",
      requestIndex,
      call: { id, name: "read_file", input: {} },
      known: true,
      visible: true,
    });
    const state = reduce(
      session(
        { type: "run_started", runId: "r1", userMessage: "go" },
        requestEvent(snapshot({ runId: "r1", requestIndex: 1 })),
        call("c1", 1),
        requestEvent(snapshot({ runId: "r1", requestIndex: 2 })),
        call("c2", 2),
      ),
    );
    const first = chatTurns(state)[1];
    const second = chatTurns(state)[2];
    const firstCalls = callsOfTurn(callRecords(state), first);
    const secondCalls = callsOfTurn(callRecords(state), second);
    expect(firstCalls.map((item) => item.id)).toEqual(["c1"]);
    const started = uiReducer(state, {
      type: "server",
      message: envelope(7, { type: "tool_started", runId: "r1", callId: "c2", tool: "read_file" }),
    });
    // The second turn's call changed: its array is new; the first turn's is the one it had.
    expect(callRecords(started)).not.toBe(callRecords(state));
    expect(callsOfTurn(callRecords(started), chatTurns(started)[1])).toBe(firstCalls);
    const secondNow = callsOfTurn(callRecords(started), chatTurns(started)[2]);
    expect(secondNow).not.toBe(secondCalls);
    expect(secondNow[0].state).toBe("running");
  });

  it("a long conversation is a virtual list: the log holds a window of rows, not every turn", async () => {
    const events: SessionEvent[] = [];
    const runs = VIRTUAL_AFTER;
    for (let run = 1; run <= runs; run++)
      events.push(
        { type: "run_started", runId: `r${run}`, userMessage: `message ${run}` },
        { type: "stop", runId: `r${run}`, reason: "completed", iterations: 0 },
      );
    const state = reduce(session(...events));
    expect(chatTurns(state)).toHaveLength(2 * runs);
    const html = await chat(state);
    expect(html).toContain(`data-virtual-rows="${2 * runs}"`);
    expect(count(html, 'data-testid="turn-user"')).toBeLessThan(runs / 2);
    // A short one is whole in the page (find-in-page sees every turn).
    const short = reduce(session(...events.slice(0, 20)));
    const whole = await chat(short);
    expect(whole).not.toContain("data-virtual-rows");
    expect(count(whole, 'data-testid="turn-user"')).toBe(10);
  });

  it("a request's Messages pane is a virtual list past its threshold, and its Copy still has every message", () => {
    const messages = Array.from({ length: MESSAGES_VIRTUAL_AFTER + 50 }, (_unused, index) => ({
      role: "user" as const,
      content: `message ${index}`,
    }));
    const long = render(
      <RequestPane pane="messages" snapshot={snapshot({ messages })} payload={undefined} />,
    );
    expect(long).toContain(`data-virtual-rows="${messages.length}"`);
    expect(count(long, 'data-testid="pane-message"')).toBeLessThan(messages.length);
    // Copy copies the pane's text, not the rows rendered.
    expect(paneText(snapshot({ messages }), "messages", undefined)).toContain(
      `message ${messages.length - 1}`,
    );
    const short = render(
      <RequestPane
        pane="messages"
        snapshot={snapshot({ messages: messages.slice(0, 10) })}
        payload={undefined}
      />,
    );
    expect(short).not.toContain("data-virtual-rows");
    expect(count(short, 'data-testid="pane-message"')).toBe(10);
  });
});
