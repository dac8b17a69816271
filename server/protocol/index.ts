export type * from "./model.ts";
export type * from "./permission.ts";
export type * from "./catalog.ts";
export type * from "./runner-events.ts";
export type * from "./wire.ts";
export type * from "./sandbox.ts";
export type * from "./mcp.ts";
export type { ErrorType } from "../errors/index.ts";
