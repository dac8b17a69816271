// The server's own schemas compile on first use (validator.ts mustCompile), so a start compiles none;
// this compiles every one the server holds — each client command, each log record and event, tools.json —
// so a schema that does not compile still fails here, not in front of a user.
import { describe, expect, it } from "vitest";
import "./schemas.ts";
import "../session/log-schema.ts";
import "../skills/tools-json.ts";
import { compileOwnSchemas } from "./validator.ts";

describe("the server's own schemas", () => {
  it("all compile", () => {
    // A command per client message type and an event per log event type: well over fifty.
    expect(compileOwnSchemas()).toBeGreaterThan(50);
  });
});
