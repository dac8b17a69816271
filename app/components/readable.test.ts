// The words and orders a stakeholder reads: a stop said once, a slash command as typed, counts in the
// right number, a stable session list that tells sessions apart, confirmations in plain language, a
// scenario example that exists, and a replay's progress.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { plural } from "../../server/shared/figures.ts";
import { slashTurn } from "../lib/slash-turn.ts";
import { replayState } from "../state/replay.ts";
import { requestView, snapshot, summary } from "../state/test-builders.ts";
import type { ChatTurn, RequestView } from "../state/types.ts";
import { stopLine } from "./chat-turn.tsx";
import { errorHeadline } from "./tool-call-card.tsx";
import { confirmationText } from "./confirmation-dialog.tsx";
import { SCENARIO_EXAMPLE } from "./new-session-dialog.tsx";
import { madeAt, sessionOrder, shortSessionId } from "./session-picker.tsx";

describe("stop lines", () => {
  it("say a cancel once, not its reason twice", () => {
    expect(stopLine("canceled", 2, "stopped by the user")).toBe(
      "Stopped by the user; its tools were killed after 2 requests",
    );
    expect(stopLine("completed", 1)).toBe("Run completed after 1 request");
    expect(stopLine("max_iterations", 10, "the limit is 10")).toBe(
      "Stopped: reached the iteration limit after 10 requests: the limit is 10",
    );
  });
});

describe("a stopped tool's card", () => {
  it("says its error once: the headline leaves out a message the result already shows", () => {
    const killed = "[canceled; the process group was killed]";
    expect(errorHeadline("canceled", killed, killed)).toBe("canceled");
    expect(errorHeadline("timeout", "ran over 30 s", "partial output")).toBe("timeout: ran over 30 s");
    expect(errorHeadline("command_failed", undefined, "")).toBe("command_failed");
  });
});

describe("a slash invocation", () => {
  const message = "/csv-report data/sales.csv\n\n# CSV report\n\nTarget file: data/sales.csv\n\nSteps…";
  it("is the command as typed, with the SOP sent below it kept apart", () => {
    expect(slashTurn(message, "csv-report", [])).toEqual({
      skill: "csv-report",
      args: "data/sales.csv",
      sop: "# CSV report\n\nTarget file: data/sales.csv\n\nSteps…",
    });
    // From a saved history (no run to say so): only a known skill's name makes it one.
    expect(slashTurn(message, undefined, ["csv-report"])?.skill).toBe("csv-report");
    expect(slashTurn(message, undefined, ["review"])).toBeUndefined();
    expect(slashTurn("/csv-report", undefined, ["csv-report"])).toEqual({
      skill: "csv-report",
      args: "",
      sop: "",
    });
    expect(slashTurn("/usr/bin is a folder", undefined, ["csv-report"])).toBeUndefined();
  });
});

describe("counts", () => {
  it("put the noun in the right number", () => {
    expect(plural(1, "file")).toBe("1 file");
    expect(plural(0, "file")).toBe("0 files");
    expect(plural(1200, "query", "queries")).toBe("1,200 queries");
  });
});

describe("the session list", () => {
  const made = (id: string, createdAt: string, updatedAt: string) => ({
    ...summary(id),
    createdAt,
    updatedAt,
  });
  it("is newest-made first, in the same order whatever ran or was reopened since", () => {
    const sessions = [
      made("20261203-090000-aaaa1111", "2026-12-03T09:00:00.000Z", "2026-12-03T11:00:00.000Z"),
      made("20261203-100000-bbbb2222", "2026-12-03T10:00:00.000Z", "2026-12-03T10:01:00.000Z"),
      made("20261203-100000-cccc3333", "2026-12-03T10:00:00.000Z", "2026-12-03T10:00:00.000Z"),
    ];
    const order = sessionOrder(sessions).map((item) => item.id);
    expect(order).toEqual([
      "20261203-100000-cccc3333",
      "20261203-100000-bbbb2222",
      "20261203-090000-aaaa1111",
    ]);
    expect(sessionOrder([...sessions].reverse()).map((item) => item.id)).toEqual(order);
  });
  it("tells sessions apart by a short id and when they were made", () => {
    expect(shortSessionId("20261203-101522-2e8742d9")).toBe("2e8742d9");
    const now = new Date("2026-12-03T15:00:00");
    expect(madeAt(new Date("2026-12-03T10:15:00").toISOString(), now)).toBe("today 10:15");
    expect(madeAt(new Date("2026-12-01T08:05:00").toISOString(), now)).toBe("1 Dec 08:05");
  });
});

describe("confirmations", () => {
  it("speak plain language, not the protocol", () => {
    for (const item of ["bypass_permissions", "broad_workdir"] as const) {
      const text = confirmationText(item, "/home/ada");
      expect(text).not.toMatch(/confirm:|\[|bypassPermissions|update_session|create_session|Send it again/);
    }
    expect(confirmationText("broad_workdir", "/home/ada")).toContain("/home/ada");
    expect(confirmationText("bypass_permissions", undefined)).toContain("without asking you");
  });
});

describe("the new-session dialog", () => {
  it("names a scenario file the repo ships", () => {
    const scenarios = fileURLToPath(new URL("../../scenarios/", import.meta.url));
    expect(existsSync(`${scenarios}${SCENARIO_EXAMPLE}`)).toBe(true);
  });
});

describe("a replay", () => {
  const user = (id: string, text: string): ChatTurn => ({ kind: "user", id, text });
  const request = (requestIndex: number, payload: unknown): RequestView =>
    requestView(snapshot({ requestIndex }), { payload });
  it("counts the recorded messages sent in order and finds the first request that left the recording", () => {
    const settings = {
      ...summary().settings,
      replayOf: "20261203-101500-abcd",
      replayMessages: ["/csv-report data/sales.csv", "and the quantities?"],
    };
    const state = replayState({
      settings,
      turns: [user("u1", "/csv-report data/sales.csv\n\n# CSV report")],
      requests: [
        request(1, { provider: "scripted" }),
        request(2, {
          provider: "scripted",
          divergence: ["the result of read_file differs from the recording"],
        }),
      ],
    });
    expect(state).toEqual({
      of: "20261203-101500-abcd",
      recorded: settings.replayMessages,
      sent: 1,
      divergence: { requestIndex: 2, differences: ["the result of read_file differs from the recording"] },
    });
    expect(replayState({ settings: summary().settings, turns: [], requests: [] })).toBeUndefined();
  });
});
