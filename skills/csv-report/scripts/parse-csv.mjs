// The CSV parser both of this skill's scripts use (profile-csv.mjs, scripts/column-types.mjs), so they
// always agree on where a cell starts and ends. RFC 4180: fields in double quotes may hold the delimiter,
// line breaks and doubled quotes (`"Widget, large"`, `"say ""hi"""`); CRLF or LF ends a record. Plain
// Node with no dependencies: the skill's scripts run in the playground's sandbox, where only the skill's
// own folder is there to import from.

/** The delimiter the header line uses most: `,`, `;`, tab or `|` (default `,`). */
export function guessDelimiter(firstLine) {
  const counts = [",", ";", "\t", "|"].map((candidate) => [candidate, firstLine.split(candidate).length - 1]);
  counts.sort((a, b) => b[1] - a[1]);
  return counts[0][1] > 0 ? counts[0][0] : ",";
}

/** Rows of cells; blank lines are skipped. */
export function parseCsv(text, delimiter = guessDelimiter(text.split(/\r?\n/, 1)[0] ?? "")) {
  const rows = [];
  let row = [];
  let field = "";
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"' && field === "") quoted = true;
    else if (char === delimiter) {
      row.push(field);
      field = "";
    } else if (char === "\n" || char === "\r") {
      if (char === "\r" && text[index + 1] === "\n") index++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += char;
  }
  if (field !== "" || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((cells) => !(cells.length === 1 && cells[0] === ""));
}
