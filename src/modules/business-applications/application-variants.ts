/**
 * The eleven Business V1 application bodies (spec 2.6; the live platform's variants, selected by
 * `type`): which fields each takes, every one optional, nothing else allowed. A field's schema is
 * the one its questionnaire question declares, so an application and an answer agree on what a
 * value may be; the few fields no questionnaire asks are declared here.
 */
import { AppError } from '../../kernel/errors.js';
import { answerSchema, CLIENT_NUMBER_PATTERN, CURRENCY_SCHEMA, type JsonSchema } from '../questionnaires/answer-schema.js';
import { validateAnswers } from '../questionnaires/answer-validation.js';
import { questionnaireDefinitions, type QuestionnaireDefinition } from '../questionnaires/questionnaire-definitions.js';

const CLIENT = ['clientName', 'clientEmail', 'clientNumber'] as const;
const ALL_FUNDING = [
  'fundingUrgency',
  'useOfFunds',
  'assetType',
  ...CLIENT,
  'legalRequirements',
  'businessPurposes',
  'fundingAmount',
  'fundingPeriod',
  'clientType',
  'averageCardSales',
  'netProfit',
  'revenue',
  'netAssetCost',
  'cardPayments',
  'raiseInvoices',
  'fundingAsset',
  'assetExistingAgreement',
  'purchaseOrders',
  'businessOwnsAssets',
  'homeOwnership',
] as const;
const WORKING_CAPITAL = [
  'fundingUrgency',
  'useOfFunds',
  'businessPurposes',
  'personalGuarantee',
  'homeOwnership',
  'businessOwnsAssets',
  'fundingAmount',
  'fundingPeriod',
  'netProfit',
  'revenue',
  'contactName',
  'contactEmail',
  'contactNumber',
  'tradingAddress',
] as const;

export const APPLICATION_VARIANT_FIELDS: Record<string, readonly string[]> = {
  'business-all-funding-products': [...ALL_FUNDING, 'personalGuarantee', 'governmentBackedLoansExist'],
  'introducer-all-funding-products': [...ALL_FUNDING, 'personalGuarantee', 'tradingAddress'],
  'introducer-recovery-loan-scheme': [...ALL_FUNDING, 'tradingAddress'],
  'business-working-capital': WORKING_CAPITAL,
  'business-anonymous-working-capital': WORKING_CAPITAL,
  'introducer-working-capital': [
    'fundingUrgency',
    'useOfFunds',
    ...CLIENT,
    'legalRequirements',
    'fundingPeriod',
    'businessPurposes',
    'personalGuarantee',
    'homeOwnership',
    'businessOwnsAssets',
    'netProfit',
    'fundingAmount',
    'revenue',
    'tradingAddress',
  ],
  'introducer-commercial-property': [
    'repaymentMethod',
    'propertyClassification',
    'mortgageProduct',
    'portfolioSize',
    'primaryUse',
    'propertySetting',
    'propertyLocation',
    ...CLIENT,
    'legalRequirements',
    'businessPurposes',
    'netProfit',
    'revenue',
    'fundingAmount',
    'depositOrEquity',
    'propertyValue',
    'outstandingDebt',
    'annualIncome',
    'fundingPeriod',
    'personalGuarantee',
    'homeOwnership',
    'businessOwnsAssets',
    'refinancing',
    'tradingAddress',
  ],
  'introducer-credit-improvement': [...CLIENT, 'legalRequirements', 'netProfit', 'revenue'],
  'introducer-debt-recovery': [
    ...CLIENT,
    'legalRequirements',
    'claimAmount',
    'defendantSector',
    'defendantCompanyType',
    'defendantClientName',
    'defendantClientEmail',
    'defendantClientNumber',
    'defendantTradingAddress',
    'defendantIncorporationDate',
    'defendantCompanyName',
    'defendantCompanyNumber',
  ],
  'introducer-grants': [
    ...CLIENT,
    'legalRequirements',
    'netProfit',
    'revenue',
    'tradeDebtors',
    'bankInterest',
    'depreciation',
    'amortisation',
    'companyWebsite',
    'employeesNumber',
    'uniqueIp',
    'previousGrantApplication',
    'tradingDifficulty',
    'tradingAddress',
  ],
  'introducer-rd-tax-claim': [
    ...CLIENT,
    'legalRequirements',
    'companyWebsite',
    'netProfit',
    'revenue',
    'innovativeProductsOrServices',
    'taxRelief',
    'tradingDifficulty',
    'tradingAddress',
  ],
};

/** The debt-recovery application names the defendant's contact as the live platform does; its questionnaire asks them shorter. */
const QUESTION_KEY_OF: Record<string, string> = {
  defendantClientName: 'defendantName',
  defendantClientEmail: 'defendantEmail',
  defendantClientNumber: 'defendantNumber',
};

const CURRENCY_REF = { $ref: '#/$defs/Currency' };
/** Fields of application bodies that no questionnaire asks (or asks with a narrower type). */
const APPLICATION_ONLY_FIELDS: Record<string, JsonSchema> = {
  clientType: { title: 'Client type', type: 'number' },
  netAssetCost: { title: 'Net asset cost', ...CURRENCY_REF },
  contactName: { title: 'Contact name', type: 'string', minLength: 1, pattern: '\\S' },
  contactEmail: { title: 'Contact email', type: 'string', format: 'email' },
  contactNumber: { title: 'Contact number', type: 'string', pattern: CLIENT_NUMBER_PATTERN },
  mortgageProduct: {
    title: 'Mortgage product',
    type: 'string',
    enum: [
      'PERSONAL_MORTGAGE',
      'BUY_TO_LET',
      'COMMERCIAL_MORTGAGE',
      'COMMERCIAL_INVESTMENT',
      'DEVELOPMENT_FINANCE',
      'BRIDGING_LOAN',
      'REFURBISHMENT_LOAN',
      'OTHER',
    ],
  },
};

function fieldSchemas(): Map<string, JsonSchema> {
  const fields = new Map<string, JsonSchema>();
  for (const definition of questionnaireDefinitions().values()) {
    const properties = answerSchema(definition).properties as Record<string, JsonSchema>;
    for (const [key, schema] of Object.entries(properties)) if (!fields.has(key)) fields.set(key, schema);
  }
  return fields;
}

let schemas: Map<string, JsonSchema> | undefined;

/** The JSON Schema of one variant's body (without `type`): its fields, all optional, no others. */
export function applicationBodySchema(type: string): JsonSchema {
  schemas ??= new Map();
  const cached = schemas.get(type);
  if (cached) return cached;
  const known = fieldSchemas();
  const properties = Object.fromEntries(
    (APPLICATION_VARIANT_FIELDS[type] ?? []).map((field) => {
      const declared = APPLICATION_ONLY_FIELDS[field] ?? known.get(QUESTION_KEY_OF[field] ?? field);
      if (!declared) throw new Error(`application variant ${type}: no schema for ${field}`);
      const { default: _default, ...schema } = declared;
      return [field, schema];
    }),
  );
  const schema: JsonSchema = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `urn:funding-gateway:business-v1-application:${type}`,
    type: 'object',
    properties,
    additionalProperties: false,
    $defs: { Currency: CURRENCY_SCHEMA },
  };
  schemas.set(type, schema);
  return schema;
}

/** Validates a body (without `type`) against its variant: 400 naming every failing or foreign field. */
export function validateApplicationBody(type: string, body: Record<string, unknown>): Record<string, unknown> {
  if (!(type in APPLICATION_VARIANT_FIELDS)) {
    throw AppError.badRequest('The application is invalid', [
      { pointer: '/type', message: `must be one of ${Object.keys(APPLICATION_VARIANT_FIELDS).join(', ')}` },
    ]);
  }
  if (Object.keys(body).length === 0)
    throw AppError.badRequest('The application is invalid', [{ pointer: '', message: 'must hold at least one field besides type' }]);
  return validateAnswers(applicationBodySchema(type), body);
}

/** The part of an application that answers its questionnaire, under the questionnaire's keys. */
export function answersOf(definition: QuestionnaireDefinition, body: Record<string, unknown>): Record<string, unknown> {
  const keys = new Set(definition.questions.map((q) => q.key));
  return Object.fromEntries(
    Object.entries(body)
      .map(([field, value]) => [QUESTION_KEY_OF[field] ?? field, value] as const)
      .filter(([key]) => keys.has(key)),
  );
}
