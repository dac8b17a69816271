import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PlaygroundError } from "../errors/index.ts";
import { isLoopbackUrl, listProviders, loadProvidersConfig, settingsFilePath } from "./config.ts";
import { AnthropicProvider } from "./anthropic.ts";
import { OpenAiProvider } from "./openai.ts";
import { ManualProvider } from "./manual.ts";
import { ScriptedProvider } from "./scripted.ts";
import { createProvider } from "./index.ts";
import { REDACTED, SecretRedactor } from "./redact.ts";

let home: string;
beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), "providers-config-"));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

async function writeSettings(content: string): Promise<void> {
  await mkdir(path.dirname(settingsFilePath(home)), { recursive: true });
  await writeFile(settingsFilePath(home), content);
}

function byName(providers: ReturnType<typeof listProviders>, name: string) {
  const info = providers.find((provider) => provider.name === name);
  if (!info) throw new Error(`no provider ${name}`);
  return info;
}

describe("provider configuration", () => {
  it("with nothing set: scripted, router and manual usable offline, anthropic and openai not, with hints", () => {
    const providers = listProviders(loadProvidersConfig({ env: {}, home }));
    expect(providers.map((provider) => provider.name)).toEqual([
      "scripted",
      "router",
      "manual",
      "anthropic",
      "openai",
    ]);
    expect(byName(providers, "scripted")).toMatchObject({ configured: true, offline: true });
    expect(byName(providers, "router")).toMatchObject({ configured: true, offline: true });
    expect(byName(providers, "router").hint).toContain("description router — not a language model");
    expect(byName(providers, "manual")).toMatchObject({ configured: true, offline: true });
    expect(byName(providers, "anthropic")).toMatchObject({ configured: false, offline: false });
    expect(byName(providers, "anthropic").hint).toContain("ANTHROPIC_API_KEY");
    expect(byName(providers, "openai").hint).toContain("OPENAI_API_KEY");
  });

  it("reads keys, base URLs and models from env vars, and never lists a key", () => {
    const env = {
      ANTHROPIC_API_KEY: "sk-ant-env-key-0123456789",
      OPENAI_API_KEY: "sk-openai-env-key-0123456789",
      PSEUDOCLAUDE_ANTHROPIC_MODEL: "claude-env",
      PSEUDOCLAUDE_OPENAI_MODEL: "gpt-env",
    };
    const config = loadProvidersConfig({ env, home });
    expect(config.anthropic).toMatchObject({
      apiKey: env.ANTHROPIC_API_KEY,
      model: "claude-env",
      customBaseUrl: false,
    });
    const providers = listProviders(config);
    expect(byName(providers, "anthropic")).toMatchObject({ configured: true, defaultModel: "claude-env" });
    expect(byName(providers, "openai")).toMatchObject({
      configured: true,
      defaultModel: "gpt-env",
      offline: false,
    });
    expect(JSON.stringify(providers)).not.toContain("env-key");
  });

  it("an OpenAI-compatible base URL without a key counts as configured and offline (Ollama)", () => {
    const config = loadProvidersConfig({
      env: { OPENAI_BASE_URL: "http://127.0.0.1:11434/v1", PSEUDOCLAUDE_OPENAI_MODEL: "qwen3:4b" },
      home,
    });
    const openai = byName(listProviders(config), "openai");
    expect(openai).toMatchObject({ configured: true, offline: true, defaultModel: "qwen3:4b" });
    expect(openai.hint).toContain("http://127.0.0.1:11434/v1");
  });

  it("falls back to the settings file; env vars win over it", async () => {
    await writeSettings(
      JSON.stringify({
        anthropic: {
          apiKey: "sk-ant-file-key-0123456789",
          model: "claude-file",
          baseUrl: "http://127.0.0.1:9/",
        },
        openai: { baseUrl: "http://localhost:8080/v1", model: "llama-file" },
      }),
    );
    const secrets = new SecretRedactor();
    const fromFile = loadProvidersConfig({ env: {}, home, secrets });
    expect(fromFile.anthropic).toMatchObject({
      apiKey: "sk-ant-file-key-0123456789",
      model: "claude-file",
      customBaseUrl: true,
    });
    expect(fromFile.openai).toMatchObject({ baseUrl: "http://localhost:8080/v1", model: "llama-file" });
    const envWins = loadProvidersConfig({ env: { PSEUDOCLAUDE_ANTHROPIC_MODEL: "claude-env" }, home });
    expect(envWins.anthropic.model).toBe("claude-env");
    // Keys from the file are redacted from then on (by the redactor the configuration was loaded with).
    expect(secrets.redactSecrets("it was sk-ant-file-key-0123456789")).toBe(`it was ${REDACTED}`);
  });

  it("a broken settings file is reported in the hint with its path, not a crash", async () => {
    await writeSettings("{ not json");
    const config = loadProvidersConfig({ env: {}, home });
    expect(config.settingsError).toContain(settingsFilePath(home));
    expect(byName(listProviders(config), "anthropic").hint).toContain("not valid JSON");
    await writeSettings(JSON.stringify({ anthropic: { apiKey: 42 } }));
    expect(loadProvidersConfig({ env: {}, home }).settingsError).toContain(
      '"anthropic.apiKey" must be a string',
    );
  });

  it("recognises loopback URLs", () => {
    expect(isLoopbackUrl("http://127.0.0.1:11434/v1")).toBe(true);
    expect(isLoopbackUrl("http://localhost:1234/v1")).toBe(true);
    expect(isLoopbackUrl("http://[::1]:8000/v1")).toBe(true);
    expect(isLoopbackUrl("https://api.openai.com/v1")).toBe(false);
    expect(isLoopbackUrl("not a url")).toBe(false);
  });
});

describe("redactSecrets", () => {
  it("replaces registered and env keys, sk-like strings, bearer tokens and secret-named fields, deeply", () => {
    const secrets = new SecretRedactor();
    secrets.register("custom-secret-value-123");
    const previous = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = "plain-env-key-abcdefgh";
    try {
      const redacted = secrets.redactSecrets({
        message: "key custom-secret-value-123 and plain-env-key-abcdefgh",
        list: ["sk-ant-api03-AbCdEf0123456789xyz", "Authorization: Bearer abc.def-ghi_jkl"],
        headers: { "x-api-key": "anything", authorization: "whatever", accept: "json" },
        apiKey: "k",
        count: 3,
      });
      expect(redacted).toEqual({
        message: `key ${REDACTED} and ${REDACTED}`,
        list: [`sk-${REDACTED}`, `Authorization: Bearer ${REDACTED}`],
        headers: { "x-api-key": REDACTED, authorization: REDACTED, accept: "json" },
        apiKey: REDACTED,
        count: 3,
      });
    } finally {
      if (previous === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = previous;
    }
  });

  it("leaves ordinary text alone and does not modify its input", () => {
    const input = { text: "skills are loaded on demand", nested: ["task-list"] };
    const secrets = new SecretRedactor();
    expect(secrets.redactSecrets(input)).toEqual(input);
    expect(secrets.redactSecrets(input)).not.toBe(input);
  });
});

describe("createProvider", () => {
  const emptyConfig = () => loadProvidersConfig({ env: {}, home });

  it("builds each provider by name; explicit options win over the configuration", async () => {
    const anthropic = await createProvider({
      name: "anthropic",
      apiKey: "sk-ant-explicit-0123456789",
      model: "claude-x",
      baseUrl: "http://127.0.0.1:1",
      config: emptyConfig(),
    });
    expect(anthropic).toBeInstanceOf(AnthropicProvider);
    expect(anthropic.model).toBe("claude-x");
    expect((anthropic as AnthropicProvider).baseUrl).toBe("http://127.0.0.1:1");
    const openai = await createProvider({
      name: "openai",
      baseUrl: "http://127.0.0.1:11434/v1",
      model: "llama3.2",
      config: emptyConfig(),
    });
    expect(openai).toBeInstanceOf(OpenAiProvider);
    expect(openai.model).toBe("llama3.2");
    expect(await createProvider({ name: "manual" })).toBeInstanceOf(ManualProvider);
  });

  it("builds the scripted provider from a scenario file or folder", async () => {
    const folder = path.join(home, "scenarios");
    await mkdir(folder);
    await writeFile(path.join(folder, "hello.yaml"), "name: hello\nturns:\n  - text: hi\n");
    const fromFile = await createProvider({
      name: "scripted",
      scenario: "scenarios/hello.yaml",
      scenarioRoot: home,
    });
    expect(fromFile).toBeInstanceOf(ScriptedProvider);
    expect(fromFile.model).toBe("scripted-hello");
    expect(await createProvider({ name: "scripted", scenario: folder })).toBeInstanceOf(ScriptedProvider);
    await expect(
      createProvider({ name: "scripted", scenario: path.join(home, "nope.yaml") }),
    ).rejects.toThrow(/nope\.yaml/);
  });

  it("refuses an unknown name and Anthropic without a key, saying what to set", async () => {
    await expect(createProvider({ name: "gemini" })).rejects.toThrow(
      /unknown provider "gemini": use one of scripted, router, manual, anthropic, openai/,
    );
    const missingKey = createProvider({ name: "anthropic", config: emptyConfig() });
    await expect(missingKey).rejects.toBeInstanceOf(PlaygroundError);
    await expect(createProvider({ name: "anthropic", config: emptyConfig() })).rejects.toThrow(
      /ANTHROPIC_API_KEY/,
    );
  });
});
