/** A lender selected with product types from its matches (spec 2.3 "Selected lender"): an item of the apply body, the submit body, and their GraphQL types. */
import { z } from 'zod';
import { PRODUCT_TYPES } from '../lenders/product-types.js';

export const SelectedLender = z
  .strictObject({
    lenderId: z.number({ message: 'must be a lender id (number)' }).int().positive(),
    products: z.array(z.enum(PRODUCT_TYPES, { message: `must be one of ${PRODUCT_TYPES.join(', ')}` })).min(1, 'must name at least one product'),
  })
  .meta({ id: 'SelectedLender', description: 'A selected lender and the product types chosen from its matches' });
export type SelectedLender = z.infer<typeof SelectedLender>;
