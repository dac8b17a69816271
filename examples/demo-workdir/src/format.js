// Text rendering. The only place where cents become decimal strings.

export function formatCents(cents) {
  const sign = cents < 0 ? "-" : "";
  const absolute = Math.abs(cents);
  return `${sign}${Math.floor(absolute / 100)}.${String(absolute % 100).padStart(2, "0")}`;
}

export function table(rows, title) {
  const width = Math.max(title.length, ...rows.map((row) => row.name.length));
  const lines = [`${title.padEnd(width)}  revenue`, `${"-".repeat(width)}  -------`];
  for (const row of rows) lines.push(`${row.name.padEnd(width)}  ${formatCents(row.cents).padStart(7)}`);
  return lines.join("\n");
}
