/** 1234567 → "1,234,567" (en-US grouping), without Intl: a listing page formats about a hundred prices. */
function groupThousands(whole: number) {
  const digits = String(whole);
  return whole < 1000 ? digits : digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** Money is integer cents everywhere (P-3) and shown as dollars with 2 decimals. */
export function formatCents(cents: number) {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(Math.round(cents));
  const dollars = groupThousands(Math.floor(abs / 100));
  return `${sign}$${dollars}.${String(abs % 100).padStart(2, "0")}`;
}

/** Parses a dollar amount typed by a person ("12", "12.5", "$1,299.99") into cents. */
export function dollarsToCents(value: string | number): number | undefined {
  const text = String(value).replace(/[$,\s]/g, "");
  if (!/^\d+(\.\d{0,2})?$/.test(text)) return undefined;
  const [whole = "0", fraction = ""] = text.split(".");
  return Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
}

export function centsToDollarString(cents: number) {
  return (cents / 100).toFixed(2);
}
