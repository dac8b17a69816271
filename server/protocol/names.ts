// The one order for names (skills, tools): by UTF-16 code units, the same on every machine and locale,
// so a sorted list renders to the same bytes (the stable system's prompt cache depends on it).
export function compareNames(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

/** compareNames on the `name` of two items. */
export function byName(left: { name: string }, right: { name: string }): number {
  return compareNames(left.name, right.name);
}
