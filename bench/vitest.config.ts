import { defineConfig } from "vitest/config";

// The root vitest.config.ts collects server/, app/ and scripts/ only; the bench harness tests run with
// `npx vitest run --config bench/vitest.config.ts`.
export default defineConfig({
  test: {
    root: new URL("..", import.meta.url).pathname,
    include: ["bench/**/*.test.ts"],
    testTimeout: 30_000,
    pool: "forks",
  },
});
