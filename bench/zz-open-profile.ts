// Throwaway: profile the page while it opens the 500-request session (not committed).
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "@playwright/test";
import { ProtocolClient } from "../server/transport/protocol-client.ts";
import { startBenchServer } from "./bench-server.ts";
import { CHROMIUM_ARGS, chromiumPath } from "./plot.ts";
import { fiveHundredRequestScenario, REQUESTS } from "./inspector-select.ts";
import { topFrames } from "./profile-figure.ts";
import type { CpuProfile } from "./profile-summary.ts";

const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));
const bench = await startBenchServer({
  scenarios: { "inspector-500.yaml": fiveHundredRequestScenario() },
  staticDir: path.join(REPO_ROOT, "out"),
});
const client = await ProtocolClient.connectTo({
  address: `http://127.0.0.1:${bench.server.port}`,
  token: bench.server.token,
  maxPayload: 256 * 1024 * 1024,
});
const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
await writeFile(path.join(bench.workdir, "README.md"), "# hello\n");
const sessionId = await client.createSession({ provider: "scripted", scenario: "inspector-500.yaml" });
for (let message = 1; message <= 50; message++) await client.sendMessage(sessionId, `Message ${message}`);
await bench.server.hub.shutdown();
const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
const page = await context.newPage();
await page.addInitScript({
  content: `window.sessionStorage.setItem("pseudoclaude-playground-session", ${JSON.stringify(sessionId)});`,
});
let bytes = 0;
let frames = 0;
page.on("websocket", (ws) => ws.on("framereceived", (frame) => { frames++; bytes += String(frame.payload).length; }));
const cdp = await context.newCDPSession(page);
await cdp.send("Profiler.enable");
await cdp.send("Profiler.start");
const opened = Date.now();
await page.goto(bench.server.url);
await page.getByTestId(`timeline-request-${REQUESTS}`).waitFor({ timeout: 120_000 });
const ms = Date.now() - opened;
const profile = ((await cdp.send("Profiler.stop")) as { profile: CpuProfile }).profile;
console.log(JSON.stringify({ ms, frames, mb: bytes / 1e6, ...topFrames(profile, 15) }, null, 1));
await browser.close();
await client.close();
await bench.close();
