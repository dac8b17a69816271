// A saved session (a real Anthropic-format run against a local fake of the Messages API, through the CLI's
// run --save) exported as an OpenTelemetry trace: the output parses as an ExportTraceServiceRequest with
// the official protocol definitions (opentelemetry-proto, as @opentelemetry/otlp-transformer ships them
// compiled), carries a span per run, model request, tool call, skill activation and level-3 read with
// GenAI and OpenInference attribute names, keeps content out unless asked, and posts to a real HTTP
// receiver through the CLI's `export --endpoint`.
import { createRequire } from "node:module";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SecretRedactor } from "../providers/redact.ts";
import { parseCliArguments } from "../cli/args.ts";
import { RequestReader } from "../protocol/request-model.ts";
import { runCli } from "../cli/testing/run-cli.ts";
import { anthropicStream, startFakeAnthropic } from "../providers/testing/fake-anthropic.ts";
import type { FakeServer } from "../providers/testing/fake-http.ts";
import { ANTHROPIC_TEST_KEY } from "../providers/testing/provider-setup.ts";
import { exportSession, readExportedSession, type ExportedSession } from "./index.ts";
import type { OtlpSpan, OtlpTraceRequest } from "./otlp-json.ts";
import { saveScriptedRun } from "./testing/saved-run.ts";

interface ProtoType {
  fromObject(object: unknown): unknown;
  toObject(message: unknown, options: Record<string, unknown>): unknown;
  encode(message: unknown): { finish(): Uint8Array };
  decode(bytes: Uint8Array): unknown;
  verify(message: unknown): string | null;
}
const require = createRequire(import.meta.url);
const root = require("@opentelemetry/otlp-transformer/build/src/generated/root.js") as {
  opentelemetry: { proto: { collector: { trace: { v1: { ExportTraceServiceRequest: ProtoType } } } } };
};
const ExportTraceServiceRequest = root.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;

const ID_FIELDS = new Set(["traceId", "spanId", "parentSpanId"]);

/** OTLP/JSON writes ids in hex where protobuf's JSON mapping says base64: mapped both ways here. */
function mapIds(value: unknown, map: (text: string) => unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => mapIds(item, map));
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      ID_FIELDS.has(key) && typeof item === "string" ? map(item) : mapIds(item, map),
    ]),
  );
}

/**
 * Parses OTLP/JSON with the official definitions: the message is built, verified, encoded to protobuf
 * bytes and decoded again, and what comes back must be the JSON that went in — a field the definitions
 * do not have, or a value of the wrong type, does not survive the round trip.
 */
function parseWithOfficialDefinitions(json: unknown): unknown {
  const message = ExportTraceServiceRequest.fromObject(mapIds(json, (hex) => Buffer.from(hex, "hex")));
  expect(ExportTraceServiceRequest.verify(message)).toBeNull();
  const decoded = ExportTraceServiceRequest.decode(ExportTraceServiceRequest.encode(message).finish());
  const back = ExportTraceServiceRequest.toObject(decoded, { longs: String, enums: Number, bytes: String });
  return mapIds(back, (base64) => Buffer.from(base64, "base64").toString("hex"));
}

/** protobufjs's toObject leaves out empty repeated fields; the JSON writer writes `events: []`. */
function withoutDefaults(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutDefaults);
  if (value === null || typeof value !== "object") return value;
  const entries = Object.entries(value)
    .map(([key, item]) => [key, withoutDefaults(item)] as const)
    .filter(([, item]) => !(Array.isArray(item) && item.length === 0));
  return Object.fromEntries(entries);
}

function spansOf(trace: OtlpTraceRequest): OtlpSpan[] {
  return trace.resourceSpans.flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans));
}

function attribute(span: OtlpSpan, key: string): unknown {
  const value = span.attributes.find((entry) => entry.key === key)?.value;
  if (!value) return undefined;
  if ("stringValue" in value) return value.stringValue;
  if ("intValue" in value) return Number(value.intValue);
  if ("doubleValue" in value) return value.doubleValue;
  if ("boolValue" in value) return value.boolValue;
  return value.arrayValue.values.map((item) => ("stringValue" in item ? item.stringValue : item));
}

const USER_MESSAGE = "check the column types in data/sales.csv, secret word PAPAYA";

let dir: string;
let fake: FakeServer;
let session: ExportedSession;
let home: string;
let sessionId: string;
let skillDir: string;
const savedKey = process.env.ANTHROPIC_API_KEY;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "otlp-export-"));
  fake = await startFakeAnthropic();
  process.env.ANTHROPIC_API_KEY = ANTHROPIC_TEST_KEY;
  skillDir = path.resolve("skills/csv-report");
  fake.enqueue(
    anthropicStream({
      text: "The csv-report skill fits.",
      toolUses: [{ id: "toolu_1", name: "load_skill", input: { name: "csv-report" } }],
      usage: { input_tokens: 120, output_tokens: 20, cache_creation_input_tokens: 1651 },
    }),
    anthropicStream({
      text: "Reading its reference, and a file that is not there.",
      toolUses: [
        { id: "toolu_2", name: "read_file", input: { path: `${skillDir}/reference/column-types.md` } },
        { id: "toolu_3", name: "read_file", input: { path: "no-such-file.txt" } },
      ],
      usage: { input_tokens: 300, output_tokens: 30, cache_read_input_tokens: 1651 },
    }),
    anthropicStream({
      text: "Quantity holds one text cell: PINEAPPLE.",
      usage: { input_tokens: 700, output_tokens: 12 },
    }),
  );
  const saved = await saveScriptedRun(dir, "name: unused\nturns: []\n", [USER_MESSAGE], {
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    baseUrl: fake.url,
  });
  expect(saved.outcomes.map((outcome) => outcome.reason)).toEqual(["completed"]);
  home = saved.home;
  sessionId = saved.sessionId;
  session = await readExportedSession(home, sessionId, new SecretRedactor());
});

afterAll(async () => {
  if (savedKey === undefined) delete process.env.ANTHROPIC_API_KEY;
  else process.env.ANTHROPIC_API_KEY = savedKey;
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

describe("export --format otlp", () => {
  it("parses as an ExportTraceServiceRequest with the official definitions, unchanged by the round trip", () => {
    const text = exportSession(session, "otlp").text;
    const json = JSON.parse(text) as OtlpTraceRequest;
    expect(parseWithOfficialDefinitions(json)).toEqual(withoutDefaults(json));
    // A misspelt field does not survive: the check above can fail.
    const broken = structuredClone(json) as unknown as {
      resourceSpans: { scopeSpans: { spans: Record<string, unknown>[] }[] }[];
    };
    broken.resourceSpans[0]!.scopeSpans[0]!.spans[0]!.startTime = "1";
    expect(parseWithOfficialDefinitions(broken)).not.toEqual(withoutDefaults(broken));
  });

  it("carries a span per run, per model request, per tool call, per skill activation and per level-3 read", () => {
    const trace = JSON.parse(exportSession(session, "otlp").text) as OtlpTraceRequest;
    const spans = spansOf(trace);
    const runs = spans.filter((span) => attribute(span, "gen_ai.operation.name") === "invoke_agent");
    expect(runs).toHaveLength(1);
    const [run] = runs;
    expect(run!.parentSpanId).toBeUndefined();
    expect(attribute(run!, "openinference.span.kind")).toBe("AGENT");
    expect(attribute(run!, "pseudoclaude.stop.reason")).toBe("completed");
    expect(spans.every((span) => span.traceId === run!.traceId)).toBe(true);
    expect(spans.every((span) => attribute(span, "session.id") === sessionId)).toBe(true);

    const chats = spans.filter((span) => attribute(span, "gen_ai.operation.name") === "chat");
    expect(chats.map((span) => span.name)).toEqual(Array(3).fill("chat claude-sonnet-4-5"));
    const [first, second, third] = chats;
    expect(first!.parentSpanId).toBe(run!.spanId);
    expect(attribute(first!, "gen_ai.request.model")).toBe("claude-sonnet-4-5");
    expect(attribute(first!, "gen_ai.provider.name")).toBe("anthropic");
    expect(attribute(first!, "llm.model_name")).toBe("claude-sonnet-4-5");
    expect(attribute(first!, "openinference.span.kind")).toBe("LLM");
    // Input as the GenAI conventions count it: cache writes and reads included (Anthropic's is not).
    expect(attribute(first!, "gen_ai.usage.input_tokens")).toBe(120 + 1651);
    expect(attribute(first!, "gen_ai.usage.cache_creation.input_tokens")).toBe(1651);
    expect(attribute(first!, "llm.token_count.prompt_details.cache_write")).toBe(1651);
    expect(attribute(second!, "gen_ai.usage.cache_read.input_tokens")).toBe(1651);
    expect(attribute(second!, "llm.token_count.prompt_details.cache_read")).toBe(1651);
    expect(attribute(third!, "gen_ai.usage.output_tokens")).toBe(12);
    expect(attribute(third!, "llm.token_count.total")).toBe(712);
    expect(attribute(first!, "gen_ai.response.finish_reasons")).toEqual(["tool_calls"]);
    expect(attribute(third!, "gen_ai.response.finish_reasons")).toEqual(["stop"]);
    // Cost from the provider's report and the price row the request was predicted with (prices.json).
    const reader = new RequestReader();
    const price = session.events.flatMap(({ event }) => {
      reader.observe(event);
      return event.type === "request" ? [reader.resolve(event.snapshot).cache?.price] : [];
    })[0]!;
    const expected = (120 * price.input + 1651 * price.cacheWrite5m + 20 * price.output) / 1e6;
    expect(attribute(first!, "gen_ai.usage.cost")).toBeCloseTo(expected, 12);
    expect(attribute(first!, "llm.cost.total")).toBeCloseTo(expected, 12);
    expect(String(attribute(first!, "pseudoclaude.cost.source"))).toContain("prices.json");

    const tools = spans.filter((span) => attribute(span, "gen_ai.operation.name") === "execute_tool");
    expect(tools.map((span) => attribute(span, "gen_ai.tool.name"))).toEqual([
      "load_skill",
      "read_file",
      "read_file",
    ]);
    expect(tools.every((span) => attribute(span, "openinference.span.kind") === "TOOL")).toBe(true);
    expect(tools.map((span) => attribute(span, "pseudoclaude.permission.decision"))).toEqual([
      "allow",
      "allow",
      "allow",
    ]);
    expect(tools.map((span) => attribute(span, "pseudoclaude.permission.source"))).toEqual([
      "mode",
      "mode",
      "mode",
    ]);
    expect(tools.map((span) => attribute(span, "pseudoclaude.tool.outcome"))).toEqual([
      "ok",
      "ok",
      "not_found",
    ]);
    expect(tools.map((span) => span.status.code)).toEqual([0, 0, 2]);

    const activation = spans.find((span) => span.name === "skill_activated csv-report")!;
    expect(activation.parentSpanId).toBe(tools[0]!.spanId);
    expect(attribute(activation, "pseudoclaude.skill.source")).toBe("builtin");
    const read = spans.find(
      (span) => span.name === "skill_resource_read csv-report/reference/column-types.md",
    )!;
    expect(read.parentSpanId).toBe(tools[1]!.spanId);
    expect(attribute(read, "pseudoclaude.skill.file.bytes")).toBeGreaterThan(0);
    for (const span of spans)
      expect(BigInt(span.endTimeUnixNano) >= BigInt(span.startTimeUnixNano)).toBe(true);
  });

  it("keeps prompt and completion text out unless --include-content is given", () => {
    const plain = exportSession(session, "otlp").text;
    for (const text of ["PAPAYA", "PINEAPPLE", "column-types.md\\n", "Column types"])
      expect(plain).not.toContain(text);
    expect(plain).not.toContain("gen_ai.input.messages");
    expect(plain).not.toContain(ANTHROPIC_TEST_KEY);

    const full = JSON.parse(
      exportSession(session, "otlp", { includeContent: true }).text,
    ) as OtlpTraceRequest;
    const spans = spansOf(full);
    expect(parseWithOfficialDefinitions(full)).toEqual(withoutDefaults(full));
    const chats = spans.filter((span) => attribute(span, "gen_ai.operation.name") === "chat");
    expect(String(attribute(chats[0]!, "gen_ai.input.messages"))).toContain("PAPAYA");
    expect(attribute(chats[0]!, "llm.input_messages.1.message.content")).toBe(USER_MESSAGE);
    expect(attribute(chats[2]!, "llm.output_messages.0.message.content")).toBe(
      "Quantity holds one text cell: PINEAPPLE.",
    );
    expect(JSON.stringify(full)).not.toContain(ANTHROPIC_TEST_KEY);
  });
});

describe("export --endpoint", () => {
  interface Received {
    path: string;
    headers: http.IncomingHttpHeaders;
    body: string;
  }
  async function receiver(status: number, answer: string) {
    const received: Received[] = [];
    const server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        received.push({
          path: request.url ?? "",
          headers: request.headers,
          body: Buffer.concat(chunks).toString(),
        });
        response.writeHead(status, { "content-type": "application/json" });
        response.end(answer);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${port}`,
      received,
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  }

  it("posts the trace to an OTLP/HTTP receiver at /v1/traces, with OTEL_EXPORTER_OTLP_HEADERS", async () => {
    const collector = await receiver(200, JSON.stringify({ partialSuccess: {} }));
    try {
      const result = await runCli(
        [
          "export",
          sessionId,
          "--home",
          home,
          "--format",
          "otlp",
          "--endpoint",
          `${collector.url}/api/public/otel`,
        ],
        {
          env: { ...process.env, OTEL_EXPORTER_OTLP_HEADERS: "Authorization=Basic%20cGs6c2s=,x-tenant=demo" },
        },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe("");
      expect(result.stderr).toMatch(
        /^posted \d+ spans \(\d+ bytes\) to .*\/api\/public\/otel\/v1\/traces: 200/,
      );
    } finally {
      await collector.close();
    }
    expect(collector.received).toHaveLength(1);
    const [post] = collector.received;
    expect(post!.path).toBe("/api/public/otel/v1/traces");
    expect(post!.headers["content-type"]).toBe("application/json");
    expect(post!.headers.authorization).toBe("Basic cGs6c2s=");
    expect(post!.headers["x-tenant"]).toBe("demo");
    const body = JSON.parse(post!.body) as OtlpTraceRequest;
    expect(parseWithOfficialDefinitions(body)).toEqual(withoutDefaults(body));
    expect(spansOf(body).length).toBeGreaterThanOrEqual(9);
  });

  it("says what the collector answered when it refuses the trace", async () => {
    const collector = await receiver(401, '{"message":"invalid credentials"}');
    try {
      const result = await runCli([
        "export",
        sessionId,
        "--home",
        home,
        "--format",
        "otlp",
        "--endpoint",
        `${collector.url}/v1/traces`,
      ]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/answered 401 .*invalid credentials/);
      expect(collector.received[0]!.path).toBe("/v1/traces");
    } finally {
      await collector.close();
    }
  });

  it("refuses --endpoint with another format, and with --out", () => {
    expect(() =>
      parseCliArguments(["export", "x", "--format", "html", "--endpoint", "http://127.0.0.1:1"]),
    ).toThrow(/format otlp only/);
    expect(() =>
      parseCliArguments([
        "export",
        "x",
        "--format",
        "otlp",
        "--endpoint",
        "http://127.0.0.1:1",
        "--out",
        "f",
      ]),
    ).toThrow(/give one of them/);
  });

  it("writes the trace to --out", async () => {
    const out = path.join(dir, "trace.json");
    const result = await runCli(["export", sessionId, "--home", home, "--format", "otlp", "--out", out]);
    expect(result.code, result.stderr).toBe(0);
    const json = JSON.parse(await readFile(out, "utf8")) as OtlpTraceRequest;
    expect(spansOf(json).some((span) => span.name.startsWith("skill_resource_read"))).toBe(true);
  });
});
