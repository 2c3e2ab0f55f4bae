/**
 * Documents attached to a profile (accounts, bank statements, ID): uploaded by integrators (REST
 * multipart, GraphQL base64), stored in PostgreSQL with their SHA-256, listed in the funding
 * application's `profile.attachments`, and streamed to the lenders the profile applied to.
 */
import type { Readable } from 'node:stream';
import { z } from 'zod';
import type { ServiceContext } from '../../kernel/context.js';
import { AppError } from '../../kernel/errors.js';
import { requireAccess } from '../../kernel/access-policy.js';
import { findVisibleProfileId } from '../profiles/profile-visibility.js';
import { documentScope, findLenderDocument } from './document-visibility.js';
import { parseInput } from '../../kernel/validation.js';
import { groupedBy } from '../../kernel/batched-lookups.js';
import { sniffedContentType } from './document-content-type.js';
import { refuseFormulaCells } from './csv-formula-cells.js';
import { DOCUMENT_CONTENT_TYPES, type ProfileDocument } from './document-schemas.js';
import { contentSize, readDocumentContent, storeDocument, type UploadContent } from './document-store.js';

export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
export { DOCUMENT_CONTENT_TYPES };

export interface UploadedFile {
  fileName: string;
  contentType: string;
  content: UploadContent;
}

export type DocumentDto = ProfileDocument;

const FileName = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(255)
  .regex(/^[^/\\\0]+$/, 'must be a file name, not a path');

/**
 * Where an upload may be stored: made only by authorizeDocumentUpload, so holding one means the
 * access decision has been taken.
 */
export interface DocumentUploadTarget {
  readonly profileId: string;
  readonly [AUTHORISED]: true;
}
declare const AUTHORISED: unique symbol;

/**
 * Attaching a document, first half: may the caller attach documents to this profile? Decided from
 * the credential and the path alone, so the REST adapter asks it before reading the multipart body
 * (a refused caller has nothing of its upload parsed or written).
 */
export async function authorizeDocumentUpload(ctx: ServiceContext, profileUuid: unknown): Promise<DocumentUploadTarget> {
  const actor = requireAccess(ctx, 'documents.write');
  return { profileId: await findVisibleProfileId(ctx, actor, profileUuid) } as DocumentUploadTarget;
}

/**
 * Second half: the file checked and stored on the authorised target (no access decision of its own).
 * @access decided-by authorizeDocumentUpload: only it makes the upload target this takes
 */
export async function attachDocumentTo(ctx: ServiceContext, target: DocumentUploadTarget, file: UploadedFile | undefined): Promise<DocumentDto> {
  if (!file) throw AppError.badRequest('A file is required', [{ pointer: 'file', message: 'is required (multipart field "file")' }]);
  const fileName = parseInput(FileName, file.fileName, 'File name');
  if (!(DOCUMENT_CONTENT_TYPES as readonly string[]).includes(file.contentType)) {
    throw AppError.unprocessable('This type of document is not accepted', [
      { pointer: 'file', message: `content type must be one of ${DOCUMENT_CONTENT_TYPES.join(', ')}` },
    ]);
  }
  if (contentSize(file.content) === 0) throw AppError.badRequest('The file is empty', [{ pointer: 'file', message: 'must not be empty' }]);
  if (contentSize(file.content) > MAX_DOCUMENT_BYTES)
    throw new AppError('PAYLOAD_TOO_LARGE', 'The file is too large', [{ pointer: 'file', message: 'must be at most 10 MB' }]);
  const contentType = await sniffedContentType(file.content, file.contentType, DOCUMENT_CONTENT_TYPES);
  if (contentType === 'text/csv') await refuseFormulaCells(file.content);
  const row = await storeDocument(ctx.db, { profileId: target.profileId, fileName, contentType }, file.content);
  return toDocumentDto(row);
}

/**
 * GraphQL attachDocument: the content comes with the arguments, so both halves run at once.
 * @access decided-by authorizeDocumentUpload: the upload target it returns is the decision
 */
export async function attachDocument(ctx: ServiceContext, profileUuid: unknown, file: UploadedFile | undefined): Promise<DocumentDto> {
  return attachDocumentTo(ctx, await authorizeDocumentUpload(ctx, profileUuid), file);
}

export async function listDocuments(ctx: ServiceContext, profileUuid: unknown): Promise<DocumentDto[]> {
  const actor = requireAccess(ctx, 'documents.write');
  const profileId = await findVisibleProfileId(ctx, actor, profileUuid);
  const rows = await ctx.db.document.findMany({
    where: { AND: [{ profileId }, documentScope(ctx, actor)] },
    orderBy: { createdAt: 'asc' },
  });
  return rows.map(toDocumentDto);
}

/** GraphQL Profile.documents: the documents of profiles the caller already sees, one list per profile id. */
export async function documentsOfProfiles(ctx: ServiceContext, profileIds: readonly string[]): Promise<DocumentDto[][]> {
  requireAccess(ctx, 'Profile.documents');
  return profileDocuments(ctx, profileIds);
}

/**
 * The documents of each profile, oldest first, in one statement.
 * @access internal: the profile ids come from a look-up that established their visibility
 */
async function profileDocuments(ctx: ServiceContext, profileIds: readonly string[]): Promise<DocumentDto[][]> {
  const rows = await ctx.db.document.findMany({ where: { profileId: { in: [...profileIds] } }, orderBy: { createdAt: 'asc' } });
  return groupedBy(profileIds, rows, (row) => row.profileId).map((documents) => documents.map(toDocumentDto));
}

export interface DocumentContent {
  fileName: string;
  contentType: string;
  sizeBytes: number;
  /** Read from the database as it is sent. */
  content: Readable;
  sha256: string;
}

const Ids = z.object({ applicationId: z.coerce.number().int().positive(), documentId: z.uuid({ message: 'must be a uuid' }) });

/** GET {lender_api_base}/v1/funding/search/{id}/document/{document_id}: a document of the lender's own application. */
export async function lenderDocument(ctx: ServiceContext, applicationId: unknown, documentId: unknown): Promise<DocumentContent> {
  const actor = requireAccess(ctx, 'lenderApplications.list');
  const ids = parseInput(Ids, { applicationId, documentId }, 'Path');
  const document = await findLenderDocument(ctx, actor, ids.applicationId, ids.documentId);
  return {
    fileName: document.fileName,
    contentType: document.contentType,
    sizeBytes: document.sizeBytes,
    content: readDocumentContent(ctx.db, document.id),
    sha256: document.sha256,
  };
}

function toDocumentDto(row: { id: string; fileName: string; contentType: string; sizeBytes: number; sha256: string; createdAt: Date }): DocumentDto {
  // Stored only once sniffed as one of DOCUMENT_CONTENT_TYPES (attachDocumentTo).
  return {
    id: row.id,
    fileName: row.fileName,
    contentType: row.contentType as DocumentDto['contentType'],
    sizeBytes: row.sizeBytes,
    sha256: row.sha256,
    createdAt: row.createdAt.toISOString(),
  };
}
