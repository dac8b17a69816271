// "Cannot reach the server" is true only while the server does not answer. Once it answers — connected, or
// refusing this tab's token of an earlier start (whose own banner says what to do) — the card would
// contradict the page, so it is not shown.
import { describe, expect, it } from "vitest";
import { initialUiState, uiReducer } from "./reducer.ts";
import { visibleErrors } from "./selectors.ts";
import type { UiAction, UiState } from "./types.ts";

const apply = (state: UiState, ...actions: UiAction[]) => actions.reduce(uiReducer, state);
const unreachable: UiAction = {
  type: "local_error",
  code: "disconnected",
  message: "Cannot reach the playground server at 127.0.0.1:3000; still retrying.",
};

describe("the connection's own error", () => {
  it("shows while the server does not answer, and not once it answered", () => {
    const down = apply(initialUiState, { type: "connection", status: "closed" }, unreachable);
    expect(visibleErrors(down).map((error) => error.code)).toEqual(["disconnected"]);
    const refused = apply(down, { type: "connection", status: "wrong_token" });
    expect(visibleErrors(refused)).toEqual([]);
    const back = apply(down, { type: "connection", status: "open" });
    expect(visibleErrors(back)).toEqual([]);
  });
});
