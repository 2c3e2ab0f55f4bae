/** What a submission to lenders returns, declared once: the REST body, its TypeScript type and its GraphQL type. */
import { z } from 'zod';

const SubmittedApplication = z
  .strictObject({ lenderId: z.number().int(), applicationId: z.number().int().describe('The lender application created') })
  .meta({ id: 'SubmittedApplication' });

/** Staff submitting a reviewed selection: one lender application per selected lender. */
export const SelectionSubmission = z
  .strictObject({ selectionId: z.uuid(), applications: z.array(SubmittedApplication) })
  .meta({ id: 'SelectionSubmission', description: 'A reviewed selection sent to its lenders' });
export type SelectionSubmission = z.infer<typeof SelectionSubmission>;

/** POST {business_v1_base}/applications/{applicationId}/submit → 201 { applications }. */
export const ApplicationSubmission = z
  .strictObject({ applications: z.array(SubmittedApplication) })
  .meta({ id: 'ApplicationSubmission', description: 'A Business V1 application sent to one of its matched lenders' });
export type ApplicationSubmission = z.infer<typeof ApplicationSubmission>;
