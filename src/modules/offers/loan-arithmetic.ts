/**
 * Loan arithmetic for indicative offers: the amortised monthly repayment, total repayment, and the
 * representative APR (the annual equivalent of the monthly rate at which the payments repay the
 * net advance, fees deducted: the UK consumer-credit definition, used here for business credit).
 * Amounts in currency units, rates in percent. Results are rounded to pennies only at the edges.
 */

/** Monthly repayment of `principal` over `months` at `annualRatePct` nominal (monthly compounding). */
export function monthlyRepayment(principal: number, annualRatePct: number, months: number): number {
  if (months <= 0) throw new RangeError('the term must be at least one month');
  const r = annualRatePct / 100 / 12;
  if (r === 0) return principal / months;
  return (principal * r) / (1 - (1 + r) ** -months);
}

export function roundPennies(value: number): number {
  return Math.round(value * 100) / 100;
}

/**
 * Representative APR, %: the annual equivalent (1+i)^12 - 1 of the monthly rate i that equates
 * the net advance (principal less up-front fees) with the repayments (and any fee due at the end).
 */
export function representativeApr(principal: number, upfrontFees: number, payment: number, months: number, finalFee = 0): number {
  const netAdvance = principal - upfrontFees;
  const presentValue = (i: number) => {
    let pv = 0;
    for (let k = 1; k <= months; k++) pv += payment / (1 + i) ** k;
    return pv + finalFee / (1 + i) ** months;
  };
  // Present value falls as the rate rises: bisect for the rate where it meets the net advance.
  let low = 0;
  let high = 1;
  if (presentValue(low) <= netAdvance) return 0;
  for (let step = 0; step < 100; step++) {
    const mid = (low + high) / 2;
    if (presentValue(mid) > netAdvance) low = mid;
    else high = mid;
  }
  return Math.round(((1 + (low + high) / 2) ** 12 - 1) * 10_000) / 100;
}
