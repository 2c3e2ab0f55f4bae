/** Loan arithmetic against worked examples. */
import { describe, expect, it } from 'vitest';
import { monthlyRepayment, representativeApr, roundPennies } from './loan-arithmetic.js';

describe('monthly repayment (amortised)', () => {
  it.each([
    // principal, annual %, months, monthly payment (P·r / (1 − (1 + r)^−n), r = annual / 12, to 50 digits)
    [10_000, 12, 12, 888.49],
    [100_000, 6, 60, 1933.28],
    [250_000, 9.5, 36, 8008.24],
    [50_000, 0, 24, 2083.33],
  ])('%d at %d%% over %d months → %d', (principal, rate, months, payment) => {
    expect(roundPennies(monthlyRepayment(principal, rate, months))).toBe(payment);
  });

  it('repays exactly the principal with interest: the balance after the last payment is zero', () => {
    const principal = 75_000;
    const r = 0.11 / 12;
    const payment = monthlyRepayment(principal, 11, 48);
    let balance = principal;
    for (let k = 0; k < 48; k++) balance = balance * (1 + r) - payment;
    expect(Math.abs(balance)).toBeLessThan(1e-6);
  });
});

describe('representative APR', () => {
  it('without fees is the annual equivalent of the monthly rate: 12% nominal → 12.68%', () => {
    expect(representativeApr(10_000, 0, monthlyRepayment(10_000, 12, 12), 12)).toBe(12.68);
  });

  it('an up-front fee raises it: £10,000, 12% over 12 months, £200 fee → 17.06%', () => {
    expect(representativeApr(10_000, 200, monthlyRepayment(10_000, 12, 12), 12)).toBe(17.06);
  });

  it('a fee at the end raises it less than the same fee up front', () => {
    const payment = monthlyRepayment(10_000, 12, 12);
    const atEnd = representativeApr(10_000, 0, payment, 12, 200);
    expect(atEnd).toBeGreaterThan(12.68);
    expect(atEnd).toBeLessThan(17.06);
  });

  it('is zero for an interest-free, fee-free loan', () => {
    expect(representativeApr(1_200, 0, 100, 12)).toBe(0);
  });
});
