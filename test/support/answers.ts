/** Answer bodies for tests, built from a questionnaire's definition: complete and valid by construction. */
import { APPLICATION_VARIANT_FIELDS } from '../../src/modules/business-applications/application-variants.js';
import type { Question, QuestionnaireDefinition } from '../../src/modules/questionnaires/questionnaire-definitions.js';

export function validValue(q: Question): unknown {
  switch (q.type) {
    case 'string':
      return `Answer to ${q.key}`;
    case 'email':
      return 'owner@acme-widgets.example';
    case 'phone':
      return '+44 20 7946 0000';
    case 'enum':
      return q.options?.find((o) => o !== 'NONE') ?? q.options?.[0];
    case 'boolean':
      return true;
    case 'number':
      return q.options?.[0] ?? Math.max(q.minimum ?? 0, 12);
    case 'currency':
      return { code: 'GBP', value: 75_000 };
    case 'date':
      return '2019-04-01';
  }
}

/** Every question answered: conditional requirements are then met whatever their conditions. */
export function completeAnswers(definition: QuestionnaireDefinition): Record<string, unknown> {
  return Object.fromEntries(definition.questions.map((q) => [q.key, validValue(q)]));
}

/** A value of the wrong type for a question. */
export function wrongTypeValue(q: Question): unknown {
  return q.type === 'boolean' ? 'yes' : q.type === 'number' ? 'twelve' : q.type === 'currency' ? 12 : 42;
}

/** ACME WIDGETS LIMITED (registry grade A) asking for £150,000 over 24 months. */
export const ACME_ANSWERS = {
  clientName: 'Ada Owner', clientEmail: 'ada@acme-widgets.example', clientNumber: '+44 20 7946 0000', legalRequirements: true,
  companyType: 'LIMITED_COMPANY', companyNumber: '09876543', companyName: 'ACME WIDGETS LIMITED', useOfFunds: 'BUSINESS_EXPANSION',
  fundingAmount: { code: 'GBP', value: 150000 }, fundingPeriod: 24, sector: 'MANUFACTURING', incorporationDate: '2015-10-19',
  revenue: { code: 'GBP', value: 900000 }, raiseInvoices: true, cardPayments: false, fundingAsset: false, purchaseOrders: false,
  governmentBacked: false, governmentBackedLoansExist: false, homeOwnership: true, personalGuarantee: true, businessOwnsAssets: true,
};

/**
 * ACME's answers as a Business V1 application body (type business-all-funding-products): only that
 * variant's fields; the company facts come from the tenant's profile, set up before.
 */
export const ACME_APPLICATION: Record<string, unknown> = Object.fromEntries(
  Object.entries(ACME_ANSWERS).filter(([key]) => APPLICATION_VARIANT_FIELDS['business-all-funding-products']!.includes(key)),
);
