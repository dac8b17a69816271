// A local OpenAI-format server for the trigger lab's tests and benchmark: a real node:http server on
// 127.0.0.1 that answers POST /v1/chat/completions with the Chat Completions SSE wire format (the
// chunks of providers/testing/fake-openai.ts), choosing the scripted answer by the request's last user
// message, so concurrent probes of different queries each get their own answer. It can hold every answer
// for a fixed time (a model's thinking time) and measures its own time per request.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { formatSse } from "../../providers/testing/fake-http.ts";
import { openAiError, openAiTurnEvents, type OpenAiFakeTurn } from "../../providers/testing/fake-openai.ts";

export type QueryAnswer = OpenAiFakeTurn | { status: number; message: string };

export interface QueryServer {
  /** Base URL including /v1, as --base-url takes it. */
  readonly baseUrl: string;
  /** Requests received, with the parsed body. */
  readonly requests: { body: Record<string, any>; query: string }[];
  /** Milliseconds from receiving each request's body to the end of its answer. */
  readonly answerMs: number[];
  /** Most requests in flight at once. */
  readonly peakInFlight: number;
  close(): Promise<void>;
}

function lastUserText(body: Record<string, any>): string {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    if (messages[index]?.role === "user") return String(messages[index].content ?? "");
  }
  return "";
}

export async function startQueryServer(options: {
  answers: Record<string, QueryAnswer>;
  /** Answers a request no entry of `answers` names (e.g. by reading its system prompt). */
  answer?: (body: Record<string, any>, query: string) => QueryAnswer | undefined;
  /** Hold each answer this long before sending it (default 0). */
  delayMs?: number;
}): Promise<QueryServer> {
  const requests: QueryServer["requests"] = [];
  const answerMs: number[] = [];
  let inFlight = 0;
  let peakInFlight = 0;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const received = performance.now();
      inFlight += 1;
      peakInFlight = Math.max(peakInFlight, inFlight);
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, any>;
      const query = lastUserText(body);
      requests.push({ body, query });
      const answer = options.answers[query] ?? options.answer?.(body, query);
      const send = () => {
        if (request.method !== "POST" || (request.url ?? "").split("?")[0] !== "/v1/chat/completions") {
          response.writeHead(404, { "content-type": "application/json" });
          response.end(JSON.stringify({ error: { message: "Invalid URL", type: "invalid_request_error" } }));
        } else if (!answer || "status" in answer) {
          const failure = openAiError(
            answer?.status ?? 500,
            answer?.message ?? `no scripted answer for "${query}"`,
            "server_error",
          );
          if (failure.kind === "json") {
            response.writeHead(failure.status, { "content-type": "application/json" });
            response.end(JSON.stringify(failure.body));
          }
        } else {
          response.writeHead(200, { "content-type": "text/event-stream; charset=utf-8" });
          response.end(openAiTurnEvents(answer).map(formatSse).join(""));
        }
        inFlight -= 1;
        answerMs.push(performance.now() - received);
      };
      if (options.delayMs) setTimeout(send, options.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    answerMs,
    get peakInFlight() {
      return peakInFlight;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
