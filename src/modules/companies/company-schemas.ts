/**
 * Results of company search and look-up, declared once (zod): the service types, the REST bodies
 * (company.routes.ts) and the GraphQL CompanySearchHit. A registry company is CompanyInformation
 * (spec 2.1) with what the registry always states required and what it may not know null.
 */
import { z } from 'zod';
import { Address, COMPANY_TYPES, Currency, LegalNotices, SECTORS, VAT_STATUSES } from './company-information-schemas.js';
import { GRADES } from './credit-grade.js';

export const CompanySearchHit = z
  .strictObject({ name: z.string(), number: z.string().describe('The registration number') })
  .meta({ id: 'CompanySearchHit', description: 'A company search hit (spec 2.3)' });
export type CompanySearchHit = z.infer<typeof CompanySearchHit>;

const Grade = z.enum(GRADES);

export const RegistryCompanyScore = z
  .strictObject({
    grade: Grade,
    value: z.number(),
    industryAverageGrade: Grade.nullable(),
    changedAt: z.iso.datetime().nullable(),
    lastAssessedAt: z.iso.datetime().nullable(),
    previous: z.strictObject({ grade: Grade }).nullable(),
  })
  .describe('The credit score, graded on the scale of the surface asked (Marketplace V1: A-E)');

export const RegistryCompanyInformation = z
  .strictObject({
    name: z.string(),
    type: z.enum(COMPANY_TYPES),
    registrationNumber: z.string(),
    incorporatedAt: z.iso.datetime().nullable(),
    sector: z.enum(SECTORS),
    vatStatus: z.enum(VAT_STATUSES),
    score: RegistryCompanyScore.nullable().describe('Null when no credit-data source has scored the company'),
    creditLimit: Currency.nullable(),
    contactAddress: Address.nullable(),
    employeesNumber: z.number().int().nullable(),
    website: z.string().nullable(),
    legalNotices: LegalNotices.nullable().describe('Null when no credit-data source has stated them'),
  })
  .describe('CompanyInformation (spec 2.1) as the company registry states it');
export type RegistryCompanyInformation = z.infer<typeof RegistryCompanyInformation>;
