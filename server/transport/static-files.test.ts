// The static export served by the real server: missing build page, routes, types, caching, HEAD, 404.
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRequest, startTestServer, type TestServer } from "./testing/harness.ts";
import { StaticFiles } from "./static-files.ts";

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

    // A content-addressed file, once read, is answered from memory (its name changes with its bytes).
    await rm(path.join(out, "_next", "static", "chunks", "app.js"));
    const kept = await get("/_next/static/chunks/app.js");
    expect(kept.status).toBe(200);
    expect(kept.body).toBe("console.log(1)");
    expect(kept.headers["content-length"]).toBe("14");
    expect(kept.headers["cache-control"]).toContain("immutable");
    expect((await get("/_next/static/chunks/app.js", "HEAD")).body).toBe("");
    // Pages are not: they name the current build's chunks.
    await rm(path.join(out, "about.html"));
    expect((await get("/about")).status).toBe(404);
  });
});

describe("the build's chunks read into memory at start (keepBuildFiles)", () => {
  let root: string;
  let http: Server;
  let port: number;
  const files = () => path.join(root, "out");
  const fetchPath = (route: string) =>
    rawRequest(port, { method: "GET", path: route, headers: { Host: `localhost:${port}` } });

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), "pc-static-keep-"));
    await mkdir(path.join(files(), "_next", "static", "chunks", "nested"), { recursive: true });
    await writeFile(path.join(files(), "index.html"), "<!DOCTYPE html><title>home</title>");
    await writeFile(path.join(files(), "_next", "static", "chunks", "a.js"), "a()");
    await writeFile(path.join(files(), "_next", "static", "chunks", "nested", "b.css"), "b{}");
    await writeFile(path.join(root, "secret.txt"), "outside the export");
    await symlink(path.join(root, "secret.txt"), path.join(files(), "_next", "static", "chunks", "link.js"));
  });
  afterAll(async () => {
    await new Promise((resolve) => http?.close(resolve));
    await rm(root, { recursive: true, force: true });
  });

  it("serves what it kept after the files are gone, and nothing from outside the export", async () => {
    const statics = new StaticFiles(files());
    await statics.keepBuildFiles();
    http = createServer((request, response) => void statics.serve(request, response, "localhost"));
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    port = (http.address() as AddressInfo).port;
    await rm(path.join(files(), "_next"), { recursive: true });
    const script = await fetchPath("/_next/static/chunks/a.js");
    expect(script.status).toBe(200);
    expect(script.body).toBe("a()");
    expect(script.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    const style = await fetchPath("/_next/static/chunks/nested/b.css");
    expect(style.body).toBe("b{}");
    expect(style.headers["content-type"]).toBe("text/css; charset=utf-8");
    // The symlink led outside the export: not kept (and never served, from disk or memory).
    const link = await fetchPath("/_next/static/chunks/link.js");
    expect(link.status).toBe(404);
    expect(link.body).not.toContain("outside the export");
  });

  it("reads nothing through a _next folder that leads outside the export", async () => {
    const elsewhere = path.join(root, "elsewhere");
    await mkdir(path.join(elsewhere, "static", "chunks"), { recursive: true });
    await writeFile(path.join(elsewhere, "static", "chunks", "c.js"), "outside()");
    await symlink(elsewhere, path.join(files(), "_next"));
    const statics = new StaticFiles(files());
    await statics.keepBuildFiles();
    const outside = createServer((request, response) => void statics.serve(request, response, "localhost"));
    await new Promise<void>((resolve) => outside.listen(0, "127.0.0.1", resolve));
    try {
      const address = (outside.address() as AddressInfo).port;
      const answer = await rawRequest(address, {
        method: "GET",
        path: "/_next/static/chunks/c.js",
        headers: { Host: `localhost:${address}` },
      });
      expect(answer.status).toBe(404);
      expect(answer.body).not.toContain("outside()");
    } finally {
      await new Promise((resolve) => outside.close(resolve));
    }
  });
});
