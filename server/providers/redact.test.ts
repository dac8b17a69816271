// redactKnownSecrets / redactJsonLines: what the second wall replaces, what it leaves alone, and that it
// copies nothing when there is nothing to replace (it runs for every session event).
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listProviders, loadProvidersConfig, registerConfiguredSecrets, settingsFilePath } from "./config.ts";
import { REDACTED, mayContainSecret, redactJsonLines, redactKnownSecrets, registerSecret } from "./redact.ts";

let home: string;
beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), "redact-test-"));
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
    const config = loadProvidersConfig({ env: { ANTHROPIC_API_KEY: "env-anthropic-key-77b1d2" }, home });
    expect(config.anthropic.apiKey).toBe("env-anthropic-key-77b1d2");
    expect(redactKnownSecrets("cat: file-anthropic-key-0af3c9")).toBe(`cat: ${REDACTED}`);
    // The environment given to the loader counts too (not only process.env).
    expect(redactKnownSecrets("env: env-anthropic-key-77b1d2")).toBe(`env: ${REDACTED}`);
  });

  it("registers secret-named values of a file the loader rejects, in any section", async () => {
    await writeSettings({
      anthropic: { apiKey: "half-valid-key-5d2e8a" },
      openai: { apiKey: 42 },
      proxy: { authToken: "proxy-token-value-91c4" },
    });
    registerConfiguredSecrets({ env: {}, home });
    expect(redactKnownSecrets("half-valid-key-5d2e8a proxy-token-value-91c4")).toBe(
      `${REDACTED} ${REDACTED}`,
    );
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

describe("redactKnownSecrets", () => {
  it("returns the very same object when nothing needs redacting", () => {
    const event = {
      type: "tool_result",
      result: { ok: true, content: "sk-learn and task-list; Bearer of bad news", metadata: { exitCode: 0 } },
      list: ["a", { b: "c" }],
    };
    expect(redactKnownSecrets(event)).toBe(event);
    expect(mayContainSecret(JSON.stringify({ text: "ordinary words" }))).toBe(false);
  });

  it("copies only the branches that change and keeps secret-named fields of ordinary data", () => {
    registerSecret("registered-key-value-4411");
    const untouched = { type: "object", properties: { password: { type: "string" } } };
    const event = {
      schema: untouched,
      result: {
        content: "x registered-key-value-4411 y",
        tail: ["Bearer abcdefgh.ijkl", "sk-ant-api03-0123456789abcdefghij"],
      },
    };
    const redacted = redactKnownSecrets(event);
    expect(redacted).not.toBe(event);
    expect(redacted.schema).toBe(untouched); // a "password" property of a schema is not a secret
    expect(redacted.result).toEqual({
      content: `x ${REDACTED} y`,
      tail: [`Bearer ${REDACTED}`, `sk-${REDACTED}`],
    });
    expect(event.result.content).toBe("x registered-key-value-4411 y"); // the input is not modified
  });

  it("finds a key in JSON text after an escaped newline and in its JSON-escaped form", () => {
    expect(mayContainSecret(JSON.stringify({ text: "line\nsk-ant-api03-0123456789abcdefghij" }))).toBe(true);
    registerSecret('quote"and\\slash-key');
    const printed = JSON.stringify({ apiKey: 'quote"and\\slash-key' }); // what `cat providers.json` shows
    expect(redactKnownSecrets(printed)).toBe(`{"apiKey":"${REDACTED}"}`);
  });
});

describe("redactJsonLines", () => {
  it("redacts records and damaged lines, and leaves clean lines byte for byte", () => {
    registerSecret("export-key-value-8c1f");
    const clean = '{"kind":"event","seq":1,"event":{"text":"fine\\u2028"}}';
    const leaking = JSON.stringify({ kind: "event", seq: 2, event: { text: "k=export-key-value-8c1f" } });
    const torn = '{"kind":"event","seq":3,"event":{"text":"export-key-value-8c1f';
    const text = [clean, leaking, torn].join("\n");
    const redacted = redactJsonLines(text).split("\n");
    expect(redacted[0]).toBe(clean);
    expect(JSON.parse(redacted[1])).toEqual({ kind: "event", seq: 2, event: { text: `k=${REDACTED}` } });
    expect(redacted[2]).toBe(`{"kind":"event","seq":3,"event":{"text":"${REDACTED}`);
  });
});
