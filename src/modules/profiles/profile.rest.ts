/**
 * The REST forms of the profile results (profile-schemas.ts): the Marketplace V1 body of spec 2.2
 * taken from the record, and every profile body with the keys REST leaves out when they have no
 * value (rest-bodies.ts) made optional, as the OpenAPI document must describe them.
 */
import { CreditReport, CreditReportCompany, CreditReportData, CreditReportScore } from './credit-report.js';
import { ProfileLegacy, ProfileRecord } from './profile-schemas.js';
import { OPTIONAL_KEYS, withOptionalKeys } from '../../kernel/rest/rest-bodies.js';

const PUBLIC_FIELDS = {
  uuid: true,
  createdAt: true,
  updatedAt: true,
  legacy: true,
  companyInformation: true,
  financials: true,
  persons: true,
  properties: true,
  assets: true,
  assetsForSecurity: true,
  merchantCashAdvance: true,
  eligibilityRequest: true,
} as const;

/**
 * The Marketplace V1 public profile (spec 2.2): the record's public fields, legacy.fundingSearchId
 * left out until there is one, and companyInformation and financials, which spec 2.2 declares
 * non-empty, left out while they are empty (never `{}`).
 */
export const PublicProfile = ProfileRecord.pick(PUBLIC_FIELDS).extend({
  legacy: withOptionalKeys(ProfileLegacy, OPTIONAL_KEYS.profiles),
  // Described by the shared types' own ids (describing them here would copy them without their ids).
  companyInformation: ProfileRecord.shape.companyInformation.optional(),
  financials: ProfileRecord.shape.financials.optional(),
});

/** An empty document is no value: its key is left out. */
const unlessEmpty = <K extends string, T extends object>(key: K, value: T): Partial<Record<K, T>> =>
  Object.keys(value).length > 0 ? ({ [key]: value } as Record<K, T>) : {};

/** The REST body of spec 2.2: the record's public fields, in the documented order. */
export function toPublicProfile(record: ProfileRecord) {
  const {
    uuid,
    createdAt,
    updatedAt,
    legacy,
    companyInformation,
    financials,
    persons,
    properties,
    assets,
    assetsForSecurity,
    merchantCashAdvance,
    eligibilityRequest,
  } = record;
  return {
    uuid,
    createdAt,
    updatedAt,
    legacy,
    ...unlessEmpty('companyInformation', companyInformation),
    ...unlessEmpty('financials', financials),
    persons,
    properties,
    assets,
    assetsForSecurity,
    merchantCashAdvance,
    eligibilityRequest,
  };
}

/** The credit report (spec 2.5): a score never changed has no changedAt or previous. */
export const RestCreditReport = CreditReport.extend({
  data: CreditReportData.extend({
    companyInformation: CreditReportCompany.extend({ score: withOptionalKeys(CreditReportScore, OPTIONAL_KEYS.profiles).nullable() }),
  }),
});
