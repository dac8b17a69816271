// An exported HTML page or scenario (session_file) becomes a pending download with its own MIME type,
// like the JSONL log; the download clears it.
import { describe, expect, it } from "vitest";
import { initialUiState, uiReducer } from "./reducer.ts";

describe("session_file", () => {
  it("is downloaded like the log, with the file's name and type", () => {
    const state = uiReducer(initialUiState, {
      type: "server",
      message: {
        type: "session_file",
        sessionId: "s1",
        format: "html",
        fileName: "s1.html",
        mimeType: "text/html",
        text: "<!doctype html>",
      },
    });
    expect(state.pendingExport).toEqual({
      sessionId: "s1",
      fileName: "s1.html",
      jsonl: "<!doctype html>",
      mimeType: "text/html",
    });
    expect(uiReducer(state, { type: "export_done" }).pendingExport).toBeUndefined();
  });
});
