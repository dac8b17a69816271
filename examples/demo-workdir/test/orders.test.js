import assert from "node:assert/strict";
import { test } from "node:test";
import { formatCents } from "../src/format.js";
import { parseOrders, toCents } from "../src/orders.js";
import { revenueBy, summary } from "../src/report.js";

const CSV = `order_id,date,region,product,quantity,unit_price
A1,2026-10-01,North,Widget,2,12.50
A1,2026-10-01,North,Gadget,1,3.00
A2,2026-10-02,South,Widget,1,12.50
A3,2026-10-02,South,Widget,0,12.50
`;

test("parses rows and skips lines with a non-positive quantity", () => {
  const orders = parseOrders(CSV);
  assert.equal(orders.length, 3);
  assert.deepEqual(orders[0], {
    id: "A1",
    date: "2026-10-01",
    region: "North",
    product: "Widget",
    quantity: 2,
    unitPriceCents: 1250,
  });
});

test("revenue per region, largest first", () => {
  assert.deepEqual(revenueBy(parseOrders(CSV), "region"), [
    { name: "North", cents: 2800 },
    { name: "South", cents: 1250 },
  ]);
});

test("summary counts distinct orders", () => {
  assert.deepEqual(summary(parseOrders(CSV)), { orders: 2, lines: 3, cents: 4050, averageCents: 1350 });
});

test("formats cents", () => {
  assert.equal(formatCents(123456), "1234.56");
  assert.equal(formatCents(-5), "-0.05");
});

test("converts prices to cents exactly", () => {
  assert.equal(toCents("0.29"), 29);
});
