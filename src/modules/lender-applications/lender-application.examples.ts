/**
 * Example requests of the Lender Application API and of the client's decisions (the API reference),
 * sent as they are by test/openapi-examples.test.ts: a lender answering ACME WIDGETS LIMITED's
 * application for a £150,000 term loan over 24 months.
 */
export const EXAMPLE_ACKNOWLEDGEMENT = { reference: 'NLC-2026-004187', comment: 'Received: an underwriter will review the accounts within two working days.' };

/** An initial quote (spec 4.5: INDICATIVE, with the likelihoods); money as currency amounts (spec 2.1). */
export const EXAMPLE_OFFER = {
  reference: 'NLC-2026-004187-Q1',
  status: 'INDICATIVE',
  expiryDate: '2026-12-31T17:00:00.000Z',
  comment: 'Subject to the latest management accounts and a personal guarantee from one director.',
  termLoan: {
    maximumAmount: { code: 'GBP', value: 150000 },
    minimumAmount: { code: 'GBP', value: 50000 },
    term: 24,
    interestRate: 0.95,
    representativeAPR: 14.2,
    monthlyRepayment: 7019.06,
    totalRepayment: 168457.56,
    arrangementFee: { code: 'GBP', value: 3000 },
    likelihoodOfRate: 0.8,
    likelihoodOfAcceptance: 0.7,
  },
};

/** A failure the client can fix and resubmit (reason Failed). */
export const EXAMPLE_REJECTION = {
  reason: 'Failed',
  comment: 'The VAT number on the application does not match HMRC records; please correct it and resubmit.',
  reference: 'NLC-2026-004187',
};
