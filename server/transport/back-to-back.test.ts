// A client that answers a `stop` at once (a script, a fast user) must not be told "a run is in progress"
// while the finished turn is still writing its last log records: the message waits for the turn to end.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ServerMessage } from "../protocol/index.ts";
import { TestClient, startTestServer, type TestServer } from "./testing/harness.ts";
import { TEST_SCENARIOS } from "./testing/scenarios.ts";

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer(TEST_SCENARIOS, { watch: false });
});
afterEach(async () => {
  await server.dispose();
});

describe("messages sent the moment a run stops", () => {
  it("are queued behind the finishing turn, never refused", async () => {
    const client = await TestClient.connect(server);
    const sessionId = await client.createSession();
    await client.waitForEvent("catalog_snapshot", { sessionId });
    const rounds = 5;
    let sent = 1;
    // Send the next message from inside the socket's message handler, the instant a stop arrives.
    client.socket.on("message", (data) => {
      const message = JSON.parse(data.toString()) as ServerMessage;
      if (message.type === "event" && message.event.type === "stop" && sent < rounds) {
        sent += 1;
        client.send({ type: "send_message", sessionId, text: `hello ${sent}` });
      }
    });
    client.send({ type: "send_message", sessionId, text: "hello 1" });
    await client.waitFor(
      () => client.events(sessionId).filter((message) => message.event.type === "stop").length === rounds,
      `${rounds} stops`,
    );
    const stops = client
      .events(sessionId)
      .flatMap((message) => (message.event.type === "stop" ? [message.event] : []));
    expect(stops.map((stop) => stop.reason)).toEqual(Array(rounds).fill("completed"));
    expect(client.messages.filter((message) => message.type === "error")).toEqual([]);
    client.close();
  });
});
