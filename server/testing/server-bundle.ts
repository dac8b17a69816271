// The server as the tests start it: the cached esbuild bundle of scripts/server-bundle.mjs (the same one
// `npm start` runs), rebuilt whenever a source changes. A test that needs the whole server as a process
// (e2e/fixtures.ts, spawned-server.ts) starts it with plain Node in about a second instead of tsx's 4.
export { bundledCli, serverBundle, sourceHash } from "../../scripts/server-bundle.mjs";
