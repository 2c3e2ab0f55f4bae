/** A profile document's result, declared once (zod): the service type, the REST body and the GraphQL ProfileDocument. */
import { z } from 'zod';

/** What a document may be: checked against its sniffed content (document-content-type.ts) before it is stored. */
export const DOCUMENT_CONTENT_TYPES = [
  'application/pdf',
  'image/png',
  'image/jpeg',
  'text/csv',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
] as const;

export const ProfileDocument = z
  .strictObject({
    id: z.uuid(),
    fileName: z.string(),
    contentType: z.enum(DOCUMENT_CONTENT_TYPES),
    sizeBytes: z.number().int(),
    sha256: z.string().describe('Hex SHA-256 of the content'),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'ProfileDocument', description: 'A document attached to a profile (content served to lenders by the lender API)' });
export type ProfileDocument = z.infer<typeof ProfileDocument>;
