import { EARLY_SOCKET_SCRIPT_ID, earlySocketScript } from "./lib/early-socket.ts";
import { Workspace } from "./components/workspace.tsx";

// A server component: the workspace is the client part; the inline script before it connects while the
// page's scripts load (lib/early-socket.ts) — on this page only, the one that adopts the socket. The server
// sends its text first in <head> and leaves this element empty (server/transport/page-html.ts).
export default function Home() {
  return (
    <>
      <script id={EARLY_SOCKET_SCRIPT_ID} dangerouslySetInnerHTML={{ __html: earlySocketScript() }} />
      <Workspace />
    </>
  );
}
