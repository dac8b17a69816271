// A refused token says which of two things went wrong — none given, or not this start's — so the page can
// tell a user to open the printed address or the new one after a restart. Both stay 401 (SECURITY N6/N7),
// and every wrong token gets the same answer, so the words are no oracle beyond "missing vs wrong".
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MISSING_TOKEN, WRONG_TOKEN } from "./handshake.ts";
import { rawRequest, startTestServer, tryUpgrade, type TestServer } from "./testing/harness.ts";

let server: TestServer;
let earlierToken: string;
beforeAll(async () => {
  const earlier = await startTestServer();
  earlierToken = earlier.token;
  await earlier.dispose();
  server = await startTestServer();
});
afterAll(async () => {
  await server.dispose();
});

const wrongTokens = () => [
  server.token.replace(/./, (character) => (character === "a" ? "b" : "a")),
  server.token.slice(0, 10),
  `${server.token}00`,
  earlierToken,
];

describe("token answers", () => {
  it("a WebSocket upgrade without a token and with a wrong one: both 401, in different words", async () => {
    for (const token of [undefined, ""]) {
      const result = await tryUpgrade(server.port, { token, origin: server.origin });
      expect(result.status).toBe(401);
      expect(result.body.trim()).toBe(MISSING_TOKEN);
    }
    for (const token of wrongTokens()) {
      const result = await tryUpgrade(server.port, { token, origin: server.origin });
      expect(result.status, token).toBe(401);
      // The same words for every wrong token: nothing about its length or how close it came.
      expect(result.body.trim(), token).toBe(WRONG_TOKEN);
    }
    expect((await tryUpgrade(server.port, { token: server.token, origin: server.origin })).status).toBe(101);
  });

  it("GET /ws answers the page's question the same way, and 426 only with this start's token", async () => {
    const host = { Host: `127.0.0.1:${server.port}` };
    const missing = await rawRequest(server.port, { path: "/ws", headers: host });
    expect(missing.status).toBe(401);
    expect(missing.body).toBe(MISSING_TOKEN);
    for (const token of wrongTokens()) {
      const wrong = await rawRequest(server.port, { path: `/ws?token=${token}`, headers: host });
      expect(wrong.status).toBe(401);
      expect(wrong.body).toBe(WRONG_TOKEN);
    }
    const right = await rawRequest(server.port, { path: `/ws?token=${server.token}`, headers: host });
    expect(right.status).toBe(426);
    // A foreign page is refused before the token is looked at, and gets no CORS header to read anything.
    const foreign = await rawRequest(server.port, {
      path: `/ws?token=${server.token}`,
      headers: { ...host, Origin: "https://evil.example" },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.headers["access-control-allow-origin"]).toBeUndefined();
  });
});
