import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "./fixtures.ts";

/** A page on another origin (another port) that tries to open the playground's socket with the real token. */
async function startOtherOrigin(socketUrl: string): Promise<{ url: string; server: Server }> {
  const html = `<!doctype html><title>other origin</title><p id="result">trying</p><script>
    const socket = new WebSocket(${JSON.stringify(socketUrl)});
    let opened = false;
    socket.onopen = () => { opened = true; document.getElementById("result").textContent = "opened"; };
    socket.onclose = () => { if (!opened) document.getElementById("result").textContent = "refused"; };
  </script>`;
  const server = createServer((request, response) => {
    response.writeHead(200, { "content-type": "text/html" });
    response.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, server };
}

test("a page opened from another origin cannot connect, even with the token", async ({
  page,
  playground,
}) => {
  const socketUrl = `${playground.origin.replace("http", "ws")}/ws?token=${playground.token}`;
  const other = await startOtherOrigin(socketUrl);
  try {
    await page.goto(other.url);
    await expect(page.locator("#result")).toHaveText("refused");
  } finally {
    await new Promise<void>((resolve, reject) =>
      other.server.close((error) => (error ? reject(error) : resolve())),
    );
  }
});

test("the page served under a foreign Host name is refused", async ({ page, playground }) => {
  const port = new URL(playground.origin).port;
  const response = await page.request.get(`http://127.0.0.1:${port}/`, {
    headers: { host: `rebind.evil:${port}` },
  });
  expect(response.status()).toBe(403);
});

test("without the token the page explains what to open", async ({ page, playground }) => {
  await page.goto(playground.origin + "/");
  await expect(page.getByTestId("no-token")).toContainText("#token=");
});
