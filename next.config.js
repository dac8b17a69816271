// The pages are a static export: the Node server in server/transport serves them on the same origin
// as the WebSocket, after its Host check, so no Next.js server process runs in production.
/** @type {import('next').NextConfig} */
const nextConfig = {
  output: "export",
  distDir: "out",
  images: { unoptimized: true },
  poweredByHeader: false,
  reactStrictMode: true,
  // The build type-checks only what the pages import (app/ and server/protocol/); the server is
  // type-checked by `npm run typecheck`, so a half-written server module never blocks the pages.
  typescript: { tsconfigPath: "tsconfig.app.json" },
};
export default nextConfig;
