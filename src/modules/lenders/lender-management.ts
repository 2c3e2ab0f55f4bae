/**
 * Staff management of the lender catalogue (admin scope): lenders and their products with the
 * eligibility criteria, fees and pricing the matching engine reads. Every change makes each
 * process reload its in-memory catalogue (the change event), and no search anywhere matches over a
 * snapshot older than it (the catalogue revision: product-catalogue.ts).
 */
import { z } from 'zod';
import type { Prisma } from '../../generated/prisma/client.js';
import type { ServiceContext } from '../../kernel/context.js';
import { AppError } from '../../kernel/errors.js';
import { requireAccess } from '../../kernel/access-policy.js';
import type { Db } from '../../infra/database.js';
import { isUniqueViolation } from '../../infra/prisma-errors.js';
import { lenderCatalogueChanged } from './lender-catalogue-changes.js';
import { PRODUCT_TYPES } from './product-types.js';
import { ProductRequirementsSchema } from './lender-schemas.js';
import { SECTORS } from '../companies/company-information-schemas.js';
import { parseInput } from '../../kernel/validation.js';
import { assertWebhookUrl, PLACEHOLDER_WEBHOOK } from '../webhooks/webhook-url-policy.js';
import { findLender, type LenderSummary } from './lender-catalogue.js';
import { lenderScope } from './lender-visibility.js';

const Pct = z.number().min(0).max(100);

export const LenderInput = z.strictObject({
  name: z.string().trim().min(1).max(200),
  logo: z.url().nullable().optional(),
  description: z.string().max(2000).nullable().optional(),
  responseTimeHours: z
    .number()
    .int()
    .min(1)
    .max(24 * 90)
    .optional(),
  requiredDocuments: z.array(z.string().min(1)).optional(),
  priceBand: z.enum(['LOW', 'AVERAGE', 'EXPENSIVE', 'MOST_EXPENSIVE']).optional(),
  active: z.boolean().optional(),
  /** Where new applications are POSTed (spec 6); checked against the webhook URL policy. */
  applicationUrl: z.url({ protocol: /^https?$/, message: 'must be an absolute http(s) URL' }).optional(),
  /** Where application updates are POSTed; null sends them to applicationUrl. */
  updateUrl: z
    .url({ protocol: /^https?$/, message: 'must be an absolute http(s) URL' })
    .nullable()
    .optional(),
});

/** updateLender: any of the lender's fields. */
export const LenderUpdate = LenderInput.partial();

export const ProductInput = z
  .strictObject({
    productType: z.enum(PRODUCT_TYPES),
    name: z.string().trim().min(1).max(200),
    minAmount: z.number().min(0),
    maxAmount: z.number().positive(),
    minTermMonths: z.number().int().min(0).max(240),
    maxTermMonths: z.number().int().min(0).max(240),
    minTradingMonths: z.number().int().min(0).default(0),
    minAnnualRevenue: z.number().min(0).default(0),
    minGrade: z.enum(['A', 'B', 'C', 'D', 'E', 'F']).default('E'),
    excludedSectors: z.array(z.enum(SECTORS)).default([]),
    requiredSectors: z.array(z.enum(SECTORS)).default([]),
    companyTypes: z.array(z.enum(['SOLE_TRADER', 'LIMITED_LIABILITY_PARTNERSHIP', 'LIMITED_COMPANY', 'STARTUP'])).default([]),
    countries: z.array(z.enum(['GB', 'ZA'])).default(['GB']),
    currencies: z.array(z.enum(['GBP', 'EUR', 'ZAR'])).default(['GBP']),
    requirements: ProductRequirementsSchema.default({}),
    arrangementFeePct: Pct.default(0),
    earlyRepaymentFeePct: Pct.default(0),
    exitFeePct: Pct.default(0),
    annualRateMin: Pct,
    annualRateMax: Pct,
    likelihoodBase: z.number().min(0).max(1).default(0.5),
    instantOffer: z.boolean().default(false),
    active: z.boolean().default(true),
  })
  .refine((p) => p.maxAmount >= p.minAmount, { message: 'must be at least minAmount', path: ['maxAmount'] })
  .refine((p) => p.maxTermMonths >= p.minTermMonths, { message: 'must be at least minTermMonths', path: ['maxTermMonths'] })
  .refine((p) => p.annualRateMax >= p.annualRateMin, { message: 'must be at least annualRateMin', path: ['annualRateMax'] });

/** A lender's webhook URLs must pass the same URL policy deliveries are held to (a 422 naming the field). */
async function assertLenderWebhookUrls(ctx: ServiceContext, body: { applicationUrl?: string; updateUrl?: string | null }): Promise<void> {
  const policy = { environment: ctx.environment, allowPrivateAddresses: ctx.webhooks.allowPrivateAddresses };
  if (body.applicationUrl !== undefined) await assertWebhookUrl(body.applicationUrl, policy, '/applicationUrl');
  if (body.updateUrl) await assertWebhookUrl(body.updateUrl, policy, '/updateUrl');
}

export async function createLender(ctx: ServiceContext, input: unknown): Promise<LenderSummary> {
  requireAccess(ctx, 'lenders.manage');
  const body = parseInput(LenderInput, input);
  await assertLenderWebhookUrls(ctx, body);
  const slug = `${body.name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')}-${Date.now().toString(36)}`;
  const row = await ctx.db.lender.create({
    data: {
      ...body,
      environment: ctx.environment,
      slug,
      applicationUrl: body.applicationUrl ?? PLACEHOLDER_WEBHOOK,
      requiredDocuments: body.requiredDocuments ?? [],
    },
  });
  lenderCatalogueChanged(ctx);
  return findLender(ctx, row.id);
}

export async function updateLender(ctx: ServiceContext, id: number, input: unknown): Promise<LenderSummary> {
  requireAccess(ctx, 'lenders.manage');
  await findLender(ctx, id);
  const body = parseInput(LenderUpdate, input);
  await assertLenderWebhookUrls(ctx, body);
  const updated = await ctx.db.lender.updateMany({ where: { AND: [{ id }, lenderScope(ctx)] }, data: body });
  if (updated.count === 0) throw AppError.notFound('Lender');
  lenderCatalogueChanged(ctx);
  return findLender(ctx, id);
}

/** Creates the lender's product of that type, or replaces its terms (one product per type and lender). */
export async function saveLenderProduct(ctx: ServiceContext, lenderId: number, input: unknown): Promise<LenderSummary> {
  requireAccess(ctx, 'lenders.manage');
  await findLender(ctx, lenderId);
  const body = parseInput(ProductInput, input);
  await storeLenderProduct(ctx.db, lenderId, body);
  lenderCatalogueChanged(ctx);
  ctx.logger.info({ lenderId, productType: body.productType }, 'lender product saved');
  return findLender(ctx, lenderId);
}

/**
 * Internal: creates or replaces a lender's product of a validated body (the admin CLI's
 * `lender-product`, which has no caller to check, and saveLenderProduct above).
 */
export async function storeLenderProduct(db: Db, lenderId: number, body: z.output<typeof ProductInput>): Promise<void> {
  const data = { ...body, requirements: body.requirements as Prisma.InputJsonValue };
  try {
    await db.lenderProduct.upsert({
      where: { lenderId_productType: { lenderId, productType: body.productType } },
      create: { lenderId, ...data },
      update: data,
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw AppError.conflict('The lender changed at the same time; retry');
    throw err;
  }
}
