// Money is integer USD cents everywhere (docs/decisions/0038). A typed amount is read as text and never passes
// through floating point, so what the user typed is exactly what is stored, charged and shown.

/** The largest amount any form accepts: $1,000,000. */
export const MAX_AMOUNT_CENTS = 100_000_000;

// Dollars, then at most two decimals: "8", "8.5", "8.50", "8." is not an amount.
const AMOUNT_PATTERN = /^(\d+)(?:\.(\d{1,2}))?$/;

/**
 * The cents of a typed dollar amount ("12.5" is 1250), or null when it is not one: more than two decimals
 * ("10.005"), exponents ("1e3"), signs, separators, or more than MAX_AMOUNT_CENTS.
 */
export function parseCents(typed: string): number | null {
  const match = AMOUNT_PATTERN.exec(typed.trim());
  if (!match) return null;
  const [, dollars = '', decimals = ''] = match;
  // Joining the digits is multiplying by 100; the leading zeros go first so a long "000…1" stays short.
  const digits = `${dollars}${decimals.padEnd(2, '0')}`.replace(/^0+(?=\d)/, '');
  if (digits.length > String(MAX_AMOUNT_CENTS).length) return null;
  const cents = Number(digits);
  return cents <= MAX_AMOUNT_CENTS ? cents : null;
}

/** "-12.50", "8.00": the dollars of a cents amount with both decimals, as a ledger and a spreadsheet show them. */
export function formatLedgerDollars(cents: number) {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`Not a whole number of cents: ${cents}`);
  const digits = String(Math.abs(cents)).padStart(3, '0');
  return `${cents < 0 ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** "12.50" or "8": the dollars of a cents amount as a form field or a message shows them. */
export function formatDollars(cents: number) {
  const dollars = formatLedgerDollars(cents);
  return dollars.endsWith('.00') ? dollars.slice(0, -3) : dollars;
}

const withDollarSign = (dollars: string) => (dollars.startsWith('-') ? `-$${dollars.slice(1)}` : `$${dollars}`);

/** "$12.50" or "$8" (whole dollars without decimals, as budgets and bids have always looked). */
export const formatCents = (cents: number) => withDollarSign(formatDollars(cents));

/** "-$12.50", "$8.00": a ledger amount with its sign, both decimals and the dollar sign. */
export const formatLedgerCents = (cents: number) => withDollarSign(formatLedgerDollars(cents));
