// A provider's payload (the exact API request body shown in the Raw pane) repeats the previous one: the
// same system prompt and tools, and the conversation so far plus a few messages. Logged in full every
// time it grows the log with the square of the conversation, like request snapshots do. So the log
// stores a payload object as `{"$previousPayload": seq, ...}` where each top-level value the previous
// payload (logged at seq) already had is `{"$same": true}`, and an array that starts like the previous
// one is `{"$prefix": n, "rest": [...]}`. Provider-agnostic: it only looks at the body's top-level keys.
import { sameJson } from "./same-json.ts";

export const PREVIOUS_PAYLOAD_KEY = "$previousPayload";
const SAME_KEY = "$same";
const PREFIX_KEY = "$prefix";

/** Shorter values are logged as they are: a reference would not save anything. */
const WORTH_REFERENCING_CHARS = 64;

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function worthReferencing(value: unknown): boolean {
  if (typeof value === "string") return value.length > WORTH_REFERENCING_CHARS;
  return typeof value === "object" && value !== null;
}

function commonPrefixLength(previous: unknown[], next: unknown[]): number {
  let count = 0;
  while (count < previous.length && count < next.length && sameJson(previous[count], next[count])) count++;
  return count;
}

/** The compact form of `payload` given the previous logged payload, or undefined when nothing repeats. */
export function compactPayload(
  payload: unknown,
  previous: { seq: number; payload: unknown } | undefined,
): JsonObject | undefined {
  if (!previous || !isObject(payload) || !isObject(previous.payload)) return undefined;
  // A body whose own values look like references is logged as it is, so reading it back is exact.
  if (Object.values(payload).some((value) => isObject(value) && (SAME_KEY in value || PREFIX_KEY in value)))
    return undefined;
  if (PREVIOUS_PAYLOAD_KEY in payload) return undefined;
  const before = previous.payload;
  const compact: JsonObject = { [PREVIOUS_PAYLOAD_KEY]: previous.seq };
  let saved = false;
  for (const [key, value] of Object.entries(payload)) {
    const old = before[key];
    if (worthReferencing(value) && sameJson(old, value)) {
      compact[key] = { [SAME_KEY]: true };
      saved = true;
    } else if (Array.isArray(value) && Array.isArray(old) && commonPrefixLength(old, value) > 0) {
      const count = commonPrefixLength(old, value);
      compact[key] = { [PREFIX_KEY]: count, rest: value.slice(count) };
      saved = true;
    } else {
      compact[key] = value;
    }
  }
  return saved ? compact : undefined;
}

export function isCompactPayload(value: unknown): value is JsonObject {
  return isObject(value) && Number.isInteger(value[PREVIOUS_PAYLOAD_KEY]);
}

/**
 * The payload a compact one stands for, given the previous payload as read (already expanded). A
 * `problem` names what a damaged log could not restore; those values are left out.
 */
export function expandPayload(
  compact: JsonObject,
  previous: { seq: number; payload: unknown } | undefined,
): { payload: JsonObject; problem?: string } {
  const wanted = compact[PREVIOUS_PAYLOAD_KEY] as number;
  const before = previous?.seq === wanted && isObject(previous.payload) ? previous.payload : undefined;
  const payload: JsonObject = {};
  const missing: string[] = [];
  for (const [key, stored] of Object.entries(compact)) {
    if (key === PREVIOUS_PAYLOAD_KEY) continue;
    if (isObject(stored) && stored[SAME_KEY] === true) {
      if (before && key in before) payload[key] = before[key];
      else missing.push(key);
    } else if (isObject(stored) && Number.isInteger(stored[PREFIX_KEY]) && Array.isArray(stored.rest)) {
      const old = before?.[key];
      if (!Array.isArray(old)) missing.push(key);
      payload[key] = [
        ...(Array.isArray(old) ? old.slice(0, stored[PREFIX_KEY] as number) : []),
        ...stored.rest,
      ];
    } else {
      payload[key] = stored;
    }
  }
  if (missing.length === 0) return { payload };
  return {
    payload,
    problem: `repeats ${missing.map((key) => `"${key}"`).join(", ")} of the payload at seq ${wanted}, which could not be read`,
  };
}
