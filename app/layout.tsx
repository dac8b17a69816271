import type { ReactNode } from "react";
import "./globals.css";

export const metadata = {
  title: "PseudoClaude Playground",
  description: "Progressive disclosure of agent skills, request by request",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
