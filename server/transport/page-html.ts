// The HTML of a page as the server sends it. The workspace page (app/page.tsx) carries a small inline
// script that opens the page's WebSocket before the page's scripts load (app/lib/early-socket.ts). Next
// writes it where the page renders it, in <body>, after the stylesheet <link> and the chunk scripts in
// <head> — and a browser runs an inline script only once every stylesheet before it has loaded, so the
// socket opened 60–160 ms into the load instead of at once. The server moves that script's text to the
// start of <head> (after the charset declaration, which must stay within the first 1,024 bytes), before
// anything it could wait for, and leaves the element in place empty: React hydrates <body> against what
// the page rendered, and finds the same element there (it does not compare an inline script's text).
// Same text, same origin: the Content-Security-Policy (script-src 'self' 'unsafe-inline') is unchanged.

/** The id of the early socket's <script> (app/lib/early-socket.ts EARLY_SOCKET_SCRIPT_ID says the same). */
export const EARLY_SCRIPT_ID = "early-socket";

const EARLY_SCRIPT = new RegExp(`<script id="${EARLY_SCRIPT_ID}">([\\s\\S]*?)</script>`);
/** Where the head starts: `<head>` and, when it comes first, the page's charset declaration. */
const HEAD_START = /<head>(?:<meta charSet="utf-8"\/>)?/i;

/**
 * The page with its early socket script first in <head>; a page without one (or without a <head> before
 * it) is returned as it is.
 */
export function earlyScriptFirst(html: string): string {
  const script = EARLY_SCRIPT.exec(html);
  if (!script || script[1] === "") return html;
  const head = HEAD_START.exec(html);
  if (!head || head.index > script.index) return html;
  const headEnd = head.index + head[0].length;
  const emptied = `<script id="${EARLY_SCRIPT_ID}"></script>`;
  return (
    html.slice(0, headEnd) +
    `<script>${script[1]}</script>` +
    html.slice(headEnd, script.index) +
    emptied +
    html.slice(script.index + script[0].length)
  );
}
