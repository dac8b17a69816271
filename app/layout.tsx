import type { ReactNode } from "react";
import "./globals.css";
import { earlySocketScript } from "./lib/early-socket.ts";

export const metadata = {
  title: "PseudoClaude Playground",
  description: "Progressive disclosure of agent skills, request by request",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        {/* Connects and asks for the first session while the page's scripts load (lib/early-socket.ts). */}
        <script dangerouslySetInnerHTML={{ __html: earlySocketScript() }} />
      </head>
      <body>{children}</body>
    </html>
  );
}
