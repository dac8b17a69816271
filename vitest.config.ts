import { defineConfig } from "vitest/config";

// Playwright specs live in e2e/ and must never be collected by Vitest.
export default defineConfig({
  test: {
    include: [
      "server/**/*.test.ts",
      "app/**/*.test.ts",
      "app/**/*.test.tsx",
      "scripts/**/*.test.ts",
      "bench/**/*.test.ts",
    ],
    exclude: ["e2e/**", "node_modules/**"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
  },
});
