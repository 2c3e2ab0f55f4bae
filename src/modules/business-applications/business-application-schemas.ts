/**
 * The results of Business V1 applications, declared once: the application as GraphQL answers it
 * (its answers stay out: they differ per variant, and REST answers them as the variant's fields,
 * business-application.rest.ts), and the continue URL and its check. Their TypeScript types, the
 * GraphQL type and the REST response schemas follow from these.
 */
import { z } from 'zod';

/**
 * Spec 2.6: whatever variant the request named, the created application answers as the introducer
 * variant, so its `type` is always this value; the variant it was made with is `questionnaireId`.
 */
export const APPLICATION_RESPONSE_TYPE = 'introducer-all-funding-products';

export const BusinessApplication = z
  .strictObject({
    id: z.uuid(),
    type: z.literal(APPLICATION_RESPONSE_TYPE).describe('The response variant of spec 2.6, the same for every application.'),
    questionnaireId: z.string().describe("The questionnaire (answer variant) it was made with: the request's `type`, e.g. business-all-funding-products"),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Application', description: 'A Business V1 funding application (spec 2.6)' });

/** A Business V1 application as stored: the answer variant it was made with, and its answers. */
export type BusinessApplicationRecord = z.infer<typeof BusinessApplication> & { answers: Record<string, unknown> };

export const ContinueUrl = z
  .strictObject({ continueUrl: z.url().describe('Signed and expiring: where the client continues the application') })
  .meta({ id: 'ContinueUrl' });
export type ContinueUrl = z.infer<typeof ContinueUrl>;

export const ContinueUrlCheck = z
  .strictObject({ valid: z.literal(true), applicationId: z.uuid() })
  .meta({ id: 'ContinueUrlCheck', description: 'The continue URL is ours, for this application, and unexpired (otherwise a problem)' });
export type ContinueUrlCheck = z.infer<typeof ContinueUrlCheck>;
