// SecretRedactor.redact / redactJsonLines: what the second wall replaces, what it leaves alone, and that it
// copies nothing when there is nothing to replace (it runs for every session event). Each test is its own
// composition root: it makes its own redactor, so no key one test registers leaks into another.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listProviders, loadProvidersConfig, registerConfiguredSecrets, settingsFilePath } from "./config.ts";
import { REDACTED, SecretRedactor, SecretScope, looksLikeSecret } from "./redact.ts";

let home: string;
let redactor: SecretRedactor;
beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), "redact-test-"));
  redactor = new SecretRedactor();
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

async function writeSettings(settings: unknown): Promise<void> {
  await mkdir(path.dirname(settingsFilePath(home)), { recursive: true });
  await writeFile(settingsFilePath(home), JSON.stringify(settings));
}

describe("registering configured keys", () => {
  it("registers the file's key even when the environment's key wins", async () => {
    await writeSettings({ anthropic: { apiKey: "file-anthropic-key-0af3c9" } });
    const config = loadProvidersConfig({
      env: { ANTHROPIC_API_KEY: "env-anthropic-key-77b1d2" },
      home,
      secrets: redactor,
    });
    expect(config.anthropic.apiKey).toBe("env-anthropic-key-77b1d2");
    expect(redactor.redact("cat: file-anthropic-key-0af3c9")).toBe(`cat: ${REDACTED}`);
    // The environment given to the loader counts too (not only process.env).
    expect(redactor.redact("env: env-anthropic-key-77b1d2")).toBe(`env: ${REDACTED}`);
  });

  it("registers secret-named values of a file the loader rejects, in any section", async () => {
    await writeSettings({
      anthropic: { apiKey: "half-valid-key-5d2e8a" },
      openai: { apiKey: 42 },
      proxy: { authToken: "proxy-token-value-91c4" },
    });
    registerConfiguredSecrets({ env: {}, home, secrets: redactor });
    expect(redactor.redact("half-valid-key-5d2e8a proxy-token-value-91c4")).toBe(`${REDACTED} ${REDACTED}`);
  });

  it("a broken settings file's error names the file but quotes none of it (an unquoted key)", async () => {
    await mkdir(path.dirname(settingsFilePath(home)), { recursive: true });
    await writeFile(settingsFilePath(home), '{"openai": {"apiKey": unquoted-key-4c7a9e1b2d}}');
    const hints = JSON.stringify(listProviders(loadProvidersConfig({ env: {}, home })));
    expect(hints).toContain("not valid JSON");
    expect(hints).toContain(settingsFilePath(home));
    expect(hints).not.toMatch(/unquoted|key-4c7a/);
  });
});

describe("SecretRedactor.redact", () => {
  it("returns the very same object when nothing needs redacting", () => {
    const event = {
      type: "tool_result",
      result: { ok: true, content: "sk-learn and task-list; Bearer of bad news", metadata: { exitCode: 0 } },
      list: ["a", { b: "c" }],
    };
    expect(redactor.redact(event)).toBe(event);
    expect(redactor.mayContain(JSON.stringify({ text: "ordinary words" }))).toBe(false);
  });

  it("copies only the branches that change and keeps secret-named fields of ordinary data", () => {
    redactor.register("registered-key-value-4411");
    const untouched = { type: "object", properties: { password: { type: "string" } } };
    const event = {
      schema: untouched,
      result: {
        content: "x registered-key-value-4411 y",
        tail: ["Bearer abcdefgh.ijkl", "sk-ant-api03-0123456789abcdefghij"],
      },
    };
    const redacted = redactor.redact(event);
    expect(redacted).not.toBe(event);
    expect(redacted.schema).toBe(untouched); // a "password" property of a schema is not a secret
    expect(redacted.result).toEqual({
      content: `x ${REDACTED} y`,
      tail: [`Bearer ${REDACTED}`, `sk-${REDACTED}`],
    });
    expect(event.result.content).toBe("x registered-key-value-4411 y"); // the input is not modified
  });

  it("finds a key in JSON text after an escaped newline and in its JSON-escaped form", () => {
    expect(redactor.mayContain(JSON.stringify({ text: "line\nsk-ant-api03-0123456789abcdefghij" }))).toBe(
      true,
    );
    redactor.register('quote"and\\slash-key');
    const printed = JSON.stringify({ apiKey: 'quote"and\\slash-key' }); // what `cat providers.json` shows
    expect(redactor.redact(printed)).toBe(`{"apiKey":"${REDACTED}"}`);
  });
});

describe("one redactor per composition root", () => {
  it("a key one redactor registers (one server, one CLI command, one test) is not another's", () => {
    const other = new SecretRedactor();
    redactor.register("first-root-key-value-5e3a", { name: "openai.apiKey", source: "providers.json" });
    expect(redactor.redact("k=first-root-key-value-5e3a")).toBe(`k=${REDACTED}`);
    expect(other.redact("k=first-root-key-value-5e3a")).toBe("k=first-root-key-value-5e3a");
    expect(new SecretScope(other).redact("k=first-root-key-value-5e3a")).toBe("k=first-root-key-value-5e3a");
  });

  it("the environment's key variables are read from the environment it was given", () => {
    const withKey = new SecretRedactor(() => ({ OPENAI_API_KEY: "given-env-key-value-2c7d" }));
    expect(withKey.redact("k=given-env-key-value-2c7d")).toBe(`k=${REDACTED}`);
    expect(redactor.redact("k=given-env-key-value-2c7d")).toBe("k=given-env-key-value-2c7d");
  });
});

describe("SecretRedactor.redactJsonLines", () => {
  it("redacts records and damaged lines, and leaves clean lines byte for byte", () => {
    redactor.register("export-key-value-8c1f");
    const clean = '{"kind":"event","seq":1,"event":{"text":"fine\\u2028"}}';
    const leaking = JSON.stringify({ kind: "event", seq: 2, event: { text: "k=export-key-value-8c1f" } });
    const torn = '{"kind":"event","seq":3,"event":{"text":"export-key-value-8c1f';
    const text = [clean, leaking, torn].join("\n");
    const redacted = redactor.redactJsonLines(text).split("\n");
    expect(redacted[0]).toBe(clean);
    expect(JSON.parse(redacted[1])).toEqual({ kind: "event", seq: 2, event: { text: `k=${REDACTED}` } });
    expect(redacted[2]).toBe(`{"kind":"event","seq":3,"event":{"text":"${REDACTED}`);
  });
});

// SECURITY S21: what a workdir's configuration may make a secret, and where.
describe("secrets from configuration", () => {
  it.each([
    ["svc-tok-4f1d2c9a7b3e5f60"],
    ["ghp_16C7e42F292c6912E7710c838347Ae178B4a"],
    ["5f4dcc3b5aa765d61d8327deb882cf99"],
    ["123e4567-e89b-12d3-a456-426614174000"],
    ["wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"],
  ])("`%s` looks like a secret", (value) => {
    expect(looksLikeSecret(value)).toBe(true);
  });

  it.each([
    ["node payload.js"],
    ["node_payload.js"],
    ["scripts/setup-2024.js"],
    ["https://api.example.com/v1"],
    ["correcthorsebatterystaple"],
    ["JavaScriptRuntimeEnvironment"],
    ["password1234567890"],
    ["aaaaaaaaaaaaaaaaaaaa1"],
    ["x7Gq2pL9"],
  ])("`%s` does not", (value) => {
    expect(looksLikeSecret(value)).toBe(false);
  });

  it("a scope's secret is redacted by that scope only, never process-wide", () => {
    const token = "tok-Q7m2Zx9Lr4Kp8Wv3Bn6H";
    const mine = new SecretScope(redactor);
    const other = new SecretScope(redactor);
    expect(mine.add(token, { name: "API_TOKEN", source: "env of MCP server x" })).toBe(true);
    expect(mine.redact(`used ${token}`)).toBe(`used ${REDACTED}`);
    expect(mine.mayContain(JSON.stringify({ text: token }))).toBe(true);
    expect(other.redact(`used ${token}`)).toBe(`used ${token}`);
    expect(redactor.redact(`used ${token}`)).toBe(`used ${token}`);
  });

  it("text that does not look like a secret is not added", () => {
    const scope = new SecretScope(redactor);
    expect(scope.add("node payload.js", { name: "API_TOKEN", source: "x" })).toBe(false);
    expect(scope.redact("ls && node payload.js")).toBe("ls && node payload.js");
  });

  it("a scope still redacts every provider key", () => {
    redactor.register("provider-key-for-scope-0b7e", { name: "anthropic.apiKey", source: "providers.json" });
    expect(new SecretScope(redactor).redact("k=provider-key-for-scope-0b7e")).toBe(`k=${REDACTED}`);
  });

  it("a scope's mark names each secret in place and lists it; the rest stays as written", () => {
    const token = "tok-Z3x8Kq1Wm6Rv9Lp2Hn5B";
    const scope = new SecretScope(redactor);
    scope.add(token, { name: "SERVICE_TOKEN", source: 'env of MCP server "x" in /w/.mcp.json' });
    const marked = scope.mark({
      command: `curl -H 'X: ${token}' -H 'Authorization: Bearer abcdefgh12345678' x && ls`,
      n: 1,
    });
    expect(marked.value).toEqual({
      command:
        "curl -H 'X: [secret: SERVICE_TOKEN]' -H 'Authorization: Bearer [secret: a bearer token]' x && ls",
      n: 1,
    });
    expect(marked.secrets.map((secret) => secret.name)).toEqual(["SERVICE_TOKEN", "a bearer token"]);
    expect(scope.mark({ command: "ls -la" })).toEqual({ value: { command: "ls -la" }, secrets: [] });
  });
});
