// `npm start` after the pages (ensure-build.mjs): the server from its cached bundle
// (scripts/server-bundle.mjs, rebuilt first when a source changed), in this process, with this process's
// flags. Plain Node loads the bundle in a fraction of the time tsx takes to compile the sources.
import { pathToFileURL } from "node:url";
import { serverBundle } from "./server-bundle.mjs";

const entry = serverBundle({ onBuild: (line) => console.log(line) });
await import(pathToFileURL(entry).href);
