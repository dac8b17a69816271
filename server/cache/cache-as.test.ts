// "cache as": the picker offers every model of the rules table with its minimum and TTL, and the default
// a scripted or manual session predicts with caches the walk-through — the demo's tools + stable system
// (the prefix its first breakpoint closes) exceed that model's minimum, so reads and writes show.
import { cp, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProcessRunner } from "../tools/process-runner.ts";
import { buildFirstRequest } from "../cli/prompt-command.ts";
import { createWorkspace } from "../session/workspace.ts";
import { DEMO_CACHE_MODEL, cacheAsOffer, cacheModelFor } from "./cache-as.ts";
import { loadCacheConfig } from "./rules-file.ts";
import { minCacheableTokens } from "./rules.ts";

/** This file's own process runner (its tools' processes), ended after each test. */
const processes = new ProcessRunner();

const demo = fileURLToPath(new URL("../../examples/demo-workdir/", import.meta.url));
let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "cache-as-"));
});
afterAll(async () => {
  await processes.killAll();
  await rm(root, { recursive: true, force: true });
});

describe("cache as", () => {
  it("offers every model of the rules table, each with its minimum and TTL, and the OpenAI price rows", () => {
    const { rules, prices } = loadCacheConfig();
    const offer = cacheAsOffer();
    const anthropic = offer.models.filter((choice) => choice.rules === "anthropic");
    expect(anthropic.map((choice) => choice.model)).toEqual(
      Object.keys(rules.anthropic.minCacheableTokens.byModel),
    );
    for (const choice of anthropic) {
      expect(choice.minTokens).toBe(minCacheableTokens(rules, choice.model));
      expect(choice.ttlSeconds).toBe(300);
    }
    const openai = offer.models.filter((choice) => choice.rules === "openai");
    expect(openai.length).toBeGreaterThan(0);
    for (const choice of openai) {
      expect(Object.keys(prices.models)).toContain(choice.model);
      expect(choice).toMatchObject({ minTokens: 1024, ttlSeconds: 300, priced: true });
    }
    expect(offer.default).toBe(DEMO_CACHE_MODEL);
    expect(offer.models.find((choice) => choice.model === DEMO_CACHE_MODEL)).toMatchObject({ priced: true });
  });

  it("defaults a scripted or manual session to a model whose minimum the demo's cached prefix exceeds", async () => {
    const workdir = path.join(root, "demo");
    await cp(demo, workdir, { recursive: true });
    const workspace = await createWorkspace({ workdir, home: path.join(root, "home") });
    const report = await buildFirstRequest(workspace, {
      processes,
      loads: [],
      disclosure: "progressive",
      provider: "scripted",
      // A fresh home has no rules or prices override to warn about.
      warn: (line) => expect.fail(line),
    });
    // The first breakpoint sits on the stable system: tools + stable is the prefix it caches.
    const prefix = report
      .segments!.filter((segment) => segment.kind === "tool" || segment.kind === "system")
      .reduce((sum, segment) => sum + segment.tokens, 0);
    for (const provider of ["scripted", "manual"]) {
      const model = cacheModelFor({ provider, providerModel: provider });
      expect(model).toBe(DEMO_CACHE_MODEL);
      expect(prefix).toBeGreaterThan(minCacheableTokens(loadCacheConfig().rules, model));
    }
    expect(report.cache?.model).toBe(DEMO_CACHE_MODEL);
    expect(report.cache?.predicted.cacheCreationInputTokens).toBeGreaterThan(0);
  });
});
