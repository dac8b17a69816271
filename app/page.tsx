import { earlySocketScript } from "./lib/early-socket.ts";
import { Workspace } from "./components/workspace.tsx";

// A server component: the workspace is the client part; the inline script before it connects while the
// page's scripts load (lib/early-socket.ts) — on this page only, the one that adopts the socket.
export default function Home() {
  return (
    <>
      <script dangerouslySetInnerHTML={{ __html: earlySocketScript() }} />
      <Workspace />
    </>
  );
}
