// The long scripted answer both streaming figures play: 10,000 words, which the scripted provider
// streams one word per text delta, ending in a marker word so a reader knows the last one arrived.
export const DELTAS = 10_000;
const WORDS = ["stream", "render", "batch", "delta", "token", "frame", "skill", "index", "prompt", "cache"];

export function marker(turn: number): string {
  return `END-OF-STREAM-${turn}`;
}

/** `turns` turns of 10,000 words each (the last one a marker): 10,000 chunks, so 10,000 deltas, per turn. */
export function streamScenario(turns: number): string {
  const lines = ["name: browser-stream", "turns:"];
  for (let turn = 1; turn <= turns; turn++) {
    const words: string[] = [];
    for (let index = 0; index < DELTAS - 1; index++)
      words.push(`${WORDS[index % WORDS.length]}${index % 97}`);
    words.push(marker(turn));
    lines.push(`  - text: ${JSON.stringify(words.join(" "))}`);
  }
  return `${lines.join("\n")}\n`;
}
