#!/usr/bin/env node
import { readFileSync } from "node:fs";
import { formatCents, table } from "./format.js";
import { parseOrders } from "./orders.js";
import { revenueBy, summary } from "./report.js";

const [file, flag, key = "region"] = process.argv.slice(2);
if (!file) {
  console.error("usage: node src/cli.js <orders.csv> [--by region|product]");
  process.exit(2);
}
const groupBy = flag === "--by" ? key : "region";
const orders = parseOrders(readFileSync(file, "utf8"));
const totals = summary(orders);
console.log(table(revenueBy(orders, groupBy), groupBy));
console.log(`\n${totals.orders} orders, ${totals.lines} lines, revenue ${formatCents(totals.cents)}`);
