/**
 * What the matching engine knows of an applicant, read from the business profile (its company
 * information, financials and eligibilityRequest, filled by PATCHes and questionnaire answers), the
 * answers that have no place in the profile (averageCardSales, fundingAsset), and the registry's grade.
 */
import type { ApplicantFacts, Money } from './matching-engine.js';

type Doc = Record<string, any>;

const asMoney = (value: unknown): Money | undefined =>
  typeof value === 'object' && value !== null && typeof (value as Money).value === 'number' && typeof (value as Money).code === 'string'
    ? { code: (value as Money).code, value: (value as Money).value }
    : undefined;
const asBool = (value: unknown): boolean | undefined => (typeof value === 'boolean' ? value : undefined);
const asNumber = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
const asString = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

function monthsBetween(from: Date, to: Date): number {
  const months = (to.getUTCFullYear() - from.getUTCFullYear()) * 12 + (to.getUTCMonth() - from.getUTCMonth());
  return Math.max(0, to.getUTCDate() < from.getUTCDate() ? months - 1 : months);
}

export interface ProfileForMatching {
  countryCode: string;
  companyInformation: unknown;
  financials: unknown;
  eligibilityRequest: unknown;
}

export function applicantFacts(profile: ProfileForMatching, answers: Record<string, unknown>, registryGrade: string | undefined, now: Date): ApplicantFacts {
  const info = (profile.companyInformation ?? {}) as Doc;
  const financials = (profile.financials ?? {}) as Doc;
  const eligibility = (profile.eligibilityRequest ?? {}) as Doc;
  const shared = (eligibility.shared ?? {}) as Doc;
  const started = asString(info.tradingFromDate) ?? asString(info.incorporatedAt);
  const startedAt = started ? new Date(started) : undefined;
  const grade = registryGrade ?? asString(info.score?.grade);
  const useOfFunds = asString(shared.useOfFunds);
  const commercialProperty = eligibility.commercialProperty as Doc | undefined;
  return {
    amount: asMoney(shared.fundingAmount),
    periodMonths: asNumber(shared.fundingPeriod),
    tradingMonths: startedAt && !Number.isNaN(startedAt.getTime()) ? monthsBetween(startedAt, now) : undefined,
    annualRevenue: asMoney(financials.revenue),
    grade: grade as ApplicantFacts['grade'],
    sector: asString(info.sector),
    companyType: asString(info.type),
    countryCode: profile.countryCode,
    useOfFunds,
    raisesInvoices: asBool(eligibility.invoiceFinance?.raisesInvoices),
    cardPayments: asBool(eligibility.merchantCash?.acceptsCommercePayments),
    averageCardSales: asNumber(answers.averageCardSales),
    ownsAsset: asBool(eligibility.assetFinance?.ownsAssets) ?? asBool(info.unencumberedAssets?.businessOwnsAssets),
    needsAsset: asBool(answers.fundingAsset),
    purchaseOrders: asBool(eligibility.tradeFinance?.hasPurchaseOrders),
    property: useOfFunds === 'PURCHASING_PROPERTY' || (commercialProperty !== undefined && Object.keys(commercialProperty).length > 0),
    homeowner: asBool(info.unencumberedAssets?.isHomeOwnership),
    personalGuarantee: asBool(info.unencumberedAssets?.personalGuarantee),
    governmentBackedOnly: asBool(info.isGovernmentBacked),
  };
}
