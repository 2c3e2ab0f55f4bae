/** The integrator console's view of tenants, declared once (GraphQL types derived in console-tenant-resolver.ts). */
import { z } from 'zod';

export const ConsoleTenantSearch = z
  .strictObject({
    search: z.string().trim().max(200).optional().describe('Text in the reference, company name or registration number, or a tenant id'),
    offset: z.number().int().min(0).default(0),
    limit: z.number().int().min(1).max(100).default(20),
  })
  .meta({ description: "Which of the account's tenants to list" });
export type ConsoleTenantSearch = z.output<typeof ConsoleTenantSearch>;

export const ConsoleTenant = z
  .strictObject({
    id: z.uuid(),
    referenceId: z.string().nullable(),
    companyName: z.string().nullable().describe("The profile's company name (null before the profile is set up)"),
    registrationNumber: z.string().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'ConsoleTenant', description: 'A tenant of the account as the integrator console lists it' });
export type ConsoleTenant = z.infer<typeof ConsoleTenant>;

export const ConsoleTenantPage = z
  .strictObject({ items: z.array(ConsoleTenant), total: z.number().int(), offset: z.number().int(), limit: z.number().int() })
  .meta({ id: 'ConsoleTenantPage', description: 'A page of tenants, newest first, with the number that match' });
export type ConsoleTenantPage = z.infer<typeof ConsoleTenantPage>;

const ConsoleCreditReport = z
  .strictObject({
    available: z.boolean(),
    reason: z.string().nullable().describe('Why there is no report (when not available)'),
    grade: z.string().nullable(),
    industryAverageGrade: z.string().nullable(),
    creditLimit: z.string().nullable().describe('Amount and currency, e.g. "25000 GBP"'),
    legalNotices: z.number().int().nullable().describe('Legal notices against the company and its directors'),
    source: z.string().nullable().describe('The credit-data source that stated it'),
  })
  .meta({ id: 'ConsoleCreditReport', description: "The tenant's credit report, as far as the console shows it" });

const ConsoleApplication = z
  .strictObject({ id: z.uuid(), questionnaireId: z.string(), createdAt: z.iso.datetime() })
  .meta({ id: 'ConsoleApplication', description: 'A Business V1 application of the tenant' });

const ConsoleSelection = z
  .strictObject({
    id: z.uuid(),
    state: z.string().describe('PENDING_REVIEW, IN_REVIEW, SUBMITTED, REJECTED, RETURNED or CLOSED'),
    lenders: z.number().int().describe('Lenders chosen'),
    decisionReason: z.string().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'ConsoleSelection', description: "A selection of lenders the tenant's client sent to review" });

export const ConsoleTenantDetail = z
  .strictObject({
    tenant: ConsoleTenant,
    profileId: z.uuid().nullable(),
    countryCode: z.string().nullable(),
    companyType: z.string().nullable(),
    sector: z.string().nullable(),
    creditReport: ConsoleCreditReport,
    applications: z.array(ConsoleApplication),
    selections: z.array(ConsoleSelection),
  })
  .meta({ id: 'ConsoleTenantDetail', description: 'One tenant with its profile, credit report, applications and review selections' });
export type ConsoleTenantDetail = z.infer<typeof ConsoleTenantDetail>;
