// SECURITY.md N1–N10 and N13 against the real server: raw HTTP requests and real WebSocket upgrades.
import { spawn } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "./start-server.ts";
import { rawRequest, startTestServer, tryUpgrade, type TestServer } from "./testing/harness.ts";
import { serverBundle } from "../testing/server-bundle.ts";

let server: TestServer;
let logLines: string[];
beforeAll(async () => {
  logLines = [];
  server = await startTestServer({}, { log: (line) => logLines.push(line) });
  await mkdir(path.join(server.root, "out"), { recursive: true });
  await writeFile(
    path.join(server.root, "out", "index.html"),
    "<!DOCTYPE html><p>playground</p><script>window.ok=1</script>",
  );
});
afterAll(async () => {
  await server.dispose();
});

async function sessionCount(): Promise<number> {
  return (await server.hub.list()).length;
}

describe("WebSocket handshake", () => {
  it("accepts the exact origin with the right token", async () => {
    for (const origin of [server.origin, `http://localhost:${server.port}`, `http://[::1]:${server.port}`]) {
      expect((await tryUpgrade(server.port, { token: server.token, origin })).status).toBe(101);
    }
  });

  it("N1: a foreign origin with a valid token gets 403 and creates no session", async () => {
    const before = await sessionCount();
    const result = await tryUpgrade(server.port, { token: server.token, origin: "https://evil.example" });
    expect(result.status).toBe(403);
    expect(await sessionCount()).toBe(before);
  });

  it("N2: look-alike origins are refused (exact scheme+host+port, never a prefix)", async () => {
    const port = server.port;
    for (const origin of [
      `http://localhost.evil.com:${port}`,
      `http://localhost:${port}.evil.com`,
      `http://127.0.0.1:${port + 1}`,
      `https://127.0.0.1:${port}`,
      `http://127.0.0.1:${port}/`,
      `http://127.0.0.1`,
    ]) {
      expect((await tryUpgrade(port, { token: server.token, origin })).status, origin).toBe(403);
    }
  });

  it("N3: Origin null is refused", async () => {
    expect((await tryUpgrade(server.port, { token: server.token, origin: "null" })).status).toBe(403);
  });

  it("N4/N5: a foreign Host is refused before routing, on upgrades and on every HTTP request", async () => {
    for (const host of [
      `rebind.evil:${server.port}`,
      `0.0.0.0:${server.port}`,
      `192.168.1.20:${server.port}`,
      "127.0.0.1",
      `127.0.0.1:${server.port + 1}`,
    ]) {
      const upgrade = await tryUpgrade(server.port, { token: server.token, origin: server.origin, host });
      expect(upgrade.status, host).toBe(403);
      for (const route of ["/", "/index.html", "/ws", "/nope"]) {
        const response = await rawRequest(server.port, { path: route, headers: { Host: host } });
        expect(response.status, `${host} ${route}`).toBe(403);
        expect(response.body).not.toContain("playground");
      }
    }
    // HTTP/1.1 without Host: Node's parser answers 400 itself, before any handler runs.
    const missing = await rawRequest(server.port, { path: "/", headers: {} });
    expect([400, 403]).toContain(missing.status);
    expect(missing.body).not.toContain("playground");
  });

  it("N6: no token, a wrong token, a wrong-length token and an earlier start's token get 401", async () => {
    const earlier = await startServer({
      port: 0,
      home: server.home,
      defaultWorkdir: server.workdir,
      scenariosDir: server.scenariosDir,
      staticDir: path.join(server.root, "out"),
      log: () => undefined,
      watch: false,
    });
    const earlierToken = earlier.token;
    await earlier.close();
    const wrongSameLength = server.token.replace(/./, (character) => (character === "a" ? "b" : "a"));
    for (const token of [
      undefined,
      "",
      wrongSameLength,
      server.token.slice(0, 10),
      `${server.token}00`,
      earlierToken,
    ]) {
      const result = await tryUpgrade(server.port, { token, origin: server.origin });
      expect(result.status, String(token)).toBe(401);
    }
    expect(earlierToken).not.toBe(server.token);
    expect(server.token).toMatch(/^[0-9a-f]{64}$/);
  });

  it("N7: no Origin and no token gets 401; no Origin with the token is still refused", async () => {
    expect((await tryUpgrade(server.port, {})).status).toBe(401);
    expect((await tryUpgrade(server.port, { token: server.token })).status).toBe(403);
  });

  it("upgrades only on /ws", async () => {
    expect(
      (await tryUpgrade(server.port, { token: server.token, origin: server.origin, path: "/other" })).status,
    ).toBe(404);
  });
});

describe("HTTP", () => {
  const host = () => ({ Host: `127.0.0.1:${server.port}` });

  it("serves the pages with strict headers and no CORS", async () => {
    const response = await rawRequest(server.port, { path: "/", headers: host() });
    expect(response.status).toBe(200);
    expect(response.body).toContain("playground");
    expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(response.headers["cache-control"]).toBe("no-store");
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(response.headers["referrer-policy"]).toBe("no-referrer");
    expect(response.headers["content-security-policy"]).toContain(
      `connect-src 'self' ws://127.0.0.1:${server.port}`,
    );
    expect(response.headers["content-security-policy"]).toContain("script-src 'self' 'unsafe-inline'");
    expect(response.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("N8: a cross-origin fetch or a CORS preflight gets no Access-Control-Allow-Origin", async () => {
    const fetched = await rawRequest(server.port, {
      path: "/",
      headers: { ...host(), Origin: "https://evil.example" },
    });
    expect(fetched.headers["access-control-allow-origin"]).toBeUndefined();
    const preflight = await rawRequest(server.port, {
      method: "OPTIONS",
      path: "/ws",
      headers: { ...host(), Origin: "https://evil.example", "Access-Control-Request-Method": "POST" },
    });
    expect(preflight.status).toBeGreaterThanOrEqual(400);
    expect(Object.keys(preflight.headers).filter((name) => name.startsWith("access-control-"))).toEqual([]);
  });

  it("N9: a form POST from another origin is rejected, and no route accepts POST at all", async () => {
    const form = { "Content-Type": "application/x-www-form-urlencoded" };
    const foreign = await rawRequest(server.port, {
      method: "POST",
      path: "/ws",
      headers: { ...host(), ...form, Origin: "https://evil.example" },
      body: "type=approval_answer",
    });
    expect(foreign.status).toBe(403);
    const same = await rawRequest(server.port, {
      method: "POST",
      path: "/",
      headers: { ...host(), ...form, Origin: server.origin },
      body: "x=1",
    });
    expect(same.status).toBe(405);
    const put = await rawRequest(server.port, { method: "PUT", path: "/api/sessions", headers: host() });
    expect(put.status).toBe(405);
  });

  it("confines static paths to the export folder", async () => {
    for (const route of ["/../package.json", "/%2e%2e/package.json", "/..%2f..%2fetc/passwd", "/%00"]) {
      const response = await rawRequest(server.port, { path: route, headers: host() });
      expect(response.status, route).not.toBe(200);
      expect(response.body).not.toContain("pseudoclaude");
    }
  });

  it("N10: the token is never logged (handshake failures and all) and the page sends no Referer", async () => {
    await tryUpgrade(server.port, { token: server.token, origin: "https://evil.example" });
    await tryUpgrade(server.port, { token: "wrong", origin: server.origin });
    expect(logLines.join("\n")).not.toContain(server.token);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/#token=${server.token}`);
    const page = await rawRequest(server.port, { path: "/", headers: host() });
    expect(page.body).not.toContain(server.token);
    expect(page.headers["referrer-policy"]).toBe("no-referrer");
  });
});

describe("N13: listen address", () => {
  it("refuses 0.0.0.0 and LAN addresses without --unsafe-expose, saying why", async () => {
    for (const host of ["0.0.0.0", "192.168.1.20", "::"]) {
      await expect(
        startServer({
          host,
          port: 0,
          home: server.home,
          defaultWorkdir: server.workdir,
          log: () => undefined,
        }),
      ).rejects.toThrow(/refusing to listen on .*loopback.*--unsafe-expose/s);
    }
  });

  it("the CLI exits non-zero with the reason", async () => {
    const child = spawn(
      process.execPath,
      [
        // server/index.ts bundled (the bundle npm start runs, rebuilt when a source changes): no tsx compile.
        serverBundle(),
        "--host",
        "0.0.0.0",
        "--port",
        "0",
        "--workdir",
        server.workdir,
        "--home",
        server.home,
      ],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/refusing to listen on 0\.0\.0\.0/);
  }, 30_000);
});
