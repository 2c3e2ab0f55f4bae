/** The explanation of a funding search (`?explain=true`), declared once: the REST body, its TypeScript type and its GraphQL type. */
import { z } from 'zod';

export const MatchExplanation = z
  .strictObject({
    missing: z.array(z.string()).describe('Answers the profile lacks, without which nothing matches'),
    rejections: z.array(
      z
        .strictObject({
          lender: z.strictObject({ id: z.number().int() }).meta({ id: 'RejectionLender' }),
          product: z.string().describe('The product type (spec 2.3)'),
          productId: z.number().int(),
          reasons: z.array(z.string()).describe('Why it did not match, e.g. "revenue £80,000 below the product\'s minimum £100,000"'),
        })
        .meta({ id: 'ProductRejection' }),
    ),
  })
  .meta({ id: 'MatchExplanation', description: 'Why the other products did not match' });
export type MatchExplanation = z.infer<typeof MatchExplanation>;
