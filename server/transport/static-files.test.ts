// The static export served by the real server: missing build page, routes, types, caching, HEAD, 404.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRequest, startTestServer, type TestServer } from "./testing/harness.ts";

let server: TestServer;
const get = (route: string, method = "GET") =>
  rawRequest(server.port, { method, path: route, headers: { Host: `localhost:${server.port}` } });

beforeAll(async () => {
  server = await startTestServer({}, { watch: false });
});
afterAll(async () => {
  await server.dispose();
});

describe("static pages", () => {
  it("says to run npm run build while out/ is missing, then serves the export once it exists", async () => {
    const missing = await get("/");
    expect(missing.status).toBe(503);
    expect(missing.body).toContain("npm run build");

    const out = path.join(server.root, "out");
    await mkdir(path.join(out, "_next", "static", "chunks"), { recursive: true });
    await mkdir(path.join(out, "sessions"), { recursive: true });
    await writeFile(path.join(out, "index.html"), "<!DOCTYPE html><title>home</title>");
    await writeFile(path.join(out, "404.html"), "<!DOCTYPE html><title>missing</title>");
    await writeFile(path.join(out, "about.html"), "<!DOCTYPE html><title>about</title>");
    await writeFile(path.join(out, "sessions", "index.html"), "<!DOCTYPE html><title>sessions</title>");
    await writeFile(path.join(out, "_next", "static", "chunks", "app.js"), "console.log(1)");

    expect((await get("/")).body).toContain("home");
    expect((await get("/about")).body).toContain("about");
    expect((await get("/sessions/")).body).toContain("sessions");
    const script = await get("/_next/static/chunks/app.js");
    expect(script.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(script.headers["cache-control"]).toContain("immutable");
    const head = await get("/about", "HEAD");
    expect(head.status).toBe(200);
    expect(head.body).toBe("");
    const notFound = await get("/nope");
    expect(notFound.status).toBe(404);
    expect(notFound.body).toContain("missing");
    // GET /ws answers like an upgrade would: 401 without this start's token (token-answers.test.ts), else 426.
    expect((await get("/ws")).status).toBe(401);
    expect((await get(`/ws?token=${server.token}`)).status).toBe(426);
  });
});
