// Parses the order export into order objects. One CSV row = one order line.

const REQUIRED = ["order_id", "date", "region", "product", "quantity", "unit_price"];

/** Splits a CSV line on commas. */
// TODO: quoted fields ("Widget, large") are split in the middle; use a real CSV parser.
export function splitLine(line) {
  return line.split(",").map((cell) => cell.trim());
}

/** Converts "12.50" into 1250 cents. */
export function toCents(text) {
  // FIXME: parseFloat then * 100 rounds 0.29 to 28.999999999999996 — round or parse the digits.
  return Math.floor(parseFloat(text) * 100);
}

export function parseOrders(csvText) {
  const lines = csvText.split(/\r?\n/).filter((line) => line.trim() !== "");
  const header = splitLine(lines[0]);
  for (const column of REQUIRED) {
    if (!header.includes(column)) throw new Error(`missing column "${column}" in the header`);
  }
  const orders = [];
  for (let index = 1; index < lines.length; index++) {
    const cells = splitLine(lines[index]);
    const row = Object.fromEntries(header.map((name, position) => [name, cells[position]]));
    const quantity = Number(row.quantity);
    if (!Number.isInteger(quantity) || quantity <= 0) {
      // TODO: collect bad rows and report them instead of skipping silently.
      continue;
    }
    orders.push({
      id: row.order_id,
      date: row.date,
      region: row.region,
      product: row.product,
      quantity,
      unitPriceCents: toCents(row.unit_price),
    });
  }
  return orders;
}
