/** A lender of the catalogue with its products, as integrators and staff read it, declared once: its TypeScript type and its GraphQL type follow from it. */
import { z } from 'zod';
import { PRICE_BANDS, PRODUCT_TYPES } from './product-types.js';

export const LenderProduct = z
  .strictObject({
    id: z.number().int(),
    productType: z.enum(PRODUCT_TYPES).describe('The product type (spec 2.3).'),
    name: z.string(),
    instantOffer: z.boolean(),
  })
  .meta({ id: 'LenderProduct' });
export type ProductSummary = z.infer<typeof LenderProduct>;

export const Lender = z
  .strictObject({
    id: z.number().int(),
    name: z.string(),
    logo: z.string().nullable(),
    description: z.string().nullable(),
    priceBand: z.enum(PRICE_BANDS),
    responseTimeHours: z.number().int(),
    requiredDocuments: z.array(z.string()),
    products: z.array(LenderProduct),
  })
  .meta({ id: 'Lender' });
export type LenderSummary = z.infer<typeof Lender>;
