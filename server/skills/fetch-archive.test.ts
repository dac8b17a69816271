// fetchArchive in the server's own process, against a real local HTTPS server whose self-signed
// certificate (made here with the openssl CLI) this process trusts for the test through the https
// global agent: the bytes of a 200, a redirect followed, a redirect to http:// refused, a status that is
// not 200 named, the size cap by Content-Length and while the bytes arrive, a connection closed early,
// and the overall timeout. (cli install's own test covers the same route from a CLI child.)
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, globalAgent, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { selfSignedCertificate } from "../testing/self-signed.ts";
import { fetchArchive } from "./fetch-archive.ts";

const BODY = Buffer.from("PK\u0003\u0004 not really a zip, but bytes all the same");
let root: string;
let server: Server;
let base: string;
const trusted = globalAgent.options.ca;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "fetch-archive-"));
  const { key, cert } = await selfSignedCertificate(root);
  server = createServer({ key, cert }, (request, response) => {
    switch (request.url) {
      case "/skill.zip":
        response.writeHead(200, { "Content-Length": BODY.length });
        response.end(BODY);
        return;
      case "/moved.zip":
        response.writeHead(302, { Location: "/skill.zip" });
        response.end();
        return;
      case "/to-http.zip":
        response.writeHead(301, { Location: "http://127.0.0.1/skill.zip" });
        response.end();
        return;
      case "/declared-huge.zip":
        response.writeHead(200, { "Content-Length": 64 * 1024 * 1024 });
        response.end();
        return;
      case "/streamed-huge.zip":
        // No Content-Length: the cap must hold while the bytes arrive.
        response.writeHead(200);
        response.write(Buffer.alloc(4096));
        response.end(Buffer.alloc(4096));
        return;
      case "/cut.zip":
        response.writeHead(200, { "Content-Length": 1000 });
        response.write(Buffer.alloc(10), () => response.socket?.destroy());
        return;
      case "/slow.zip":
        response.writeHead(200, { "Content-Length": 1000 });
        response.write(Buffer.alloc(10));
        return;
      default:
        response.writeHead(404, "Not Found");
        response.end("not here");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  globalAgent.options.ca = [cert];
});
afterAll(async () => {
  globalAgent.options.ca = trusted;
  globalAgent.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await rm(root, { recursive: true, force: true });
});

describe("fetchArchive", () => {
  it("gives the bytes of a 200, and follows a redirect to https", async () => {
    expect(await fetchArchive(`${base}/skill.zip`)).toEqual(BODY);
    expect(await fetchArchive(`${base}/moved.zip`)).toEqual(BODY);
  });

  it("refuses what is not https, before and after a redirect", async () => {
    await expect(fetchArchive("http://127.0.0.1/skill.zip")).rejects.toThrow(/only https URLs are fetched/);
    await expect(fetchArchive("not a url")).rejects.toThrow(/is not a URL/);
    await expect(fetchArchive(`${base}/to-http.zip`)).rejects.toThrow(/redirected to http:.*is not https/);
  });

  it("names what the server answered when it is not a 200", async () => {
    await expect(fetchArchive(`${base}/missing.zip`)).rejects.toThrow(
      /answered 404 Not Found \(expected 200 with the \.zip\)/,
    );
  });

  it("holds the size cap by Content-Length and while the bytes arrive", async () => {
    await expect(fetchArchive(`${base}/declared-huge.zip`, { maxBytes: 1024 })).rejects.toThrow(
      /larger than/,
    );
    await expect(fetchArchive(`${base}/streamed-huge.zip`, { maxBytes: 5000 })).rejects.toThrow(
      /larger than/,
    );
  });

  it("says when the connection closed early, and when the download timed out", async () => {
    await expect(fetchArchive(`${base}/cut.zip`)).rejects.toThrow(/closed early|aborted|socket hang up/);
    await expect(fetchArchive(`${base}/slow.zip`, { timeoutMs: 300 })).rejects.toThrow(
      /timed out after 0.3 s/,
    );
  });
});
