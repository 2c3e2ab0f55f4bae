/** The documents module's REST rows: a profile's documents (Marketplace V1) and a lender's download of one. */
import * as documents from './document-service.js';
import { z } from 'zod';
import { ProfileDocument } from './document-schemas.js';
import { BASES, FileDownload, route, type RouteDefinition } from '../../kernel/rest/route-definition.js';

export const documentRoutes: RouteDefinition[] = [
  route({
    method: 'post',
    path: `${BASES.marketplaceV1}/profiles/:uuid/documents`,
    operationId: 'DocumentController_upload',
    summary: 'Attach a document to a profile',
    description:
      "Uploads one file as `multipart/form-data` in the field `file`: PDF, PNG, JPEG, CSV (without formulas), XLSX or DOCX, at most 10 MB. The content must be what its type says (else 415); a larger file is a 413, and nothing is kept. Lenders receive the profile's documents with its applications.",
    access: 'documents.write',
    response: ProfileDocument,
    successStatus: 201,
    surface: 'marketplaceV1',
    upload: 'file',
    authorizeUpload: (ctx, req) => documents.authorizeDocumentUpload(ctx, req.params.uuid),
    handle: (ctx, req) => documents.attachDocumentTo(ctx, req.uploadTarget as documents.DocumentUploadTarget, req.file),
  }),
  route({
    method: 'get',
    path: `${BASES.marketplaceV1}/profiles/:uuid/documents`,
    operationId: 'DocumentController_list',
    summary: "List a profile's documents",
    description: 'The documents attached to the profile: name, type, size and SHA-256, without their content.',
    access: 'documents.write',
    response: z.array(ProfileDocument),
    successStatus: 200,
    surface: 'marketplaceV1',
    handle: (ctx, req) => documents.listDocuments(ctx, req.params.uuid),
  }),
  route({
    method: 'get',
    path: `${BASES.lenderApi}/v1/funding/search/:id/document/:documentId`,
    operationId: 'LenderDocumentController_get',
    summary: 'Download an application document',
    description:
      "The content of a document attached to one of the calling lender's applications (the `attachments` of the application), with its content type, file name (`Content-Disposition`) and SHA-256 (`Digest`). Another lender's application, or a document not attached to it, is a 404.",
    access: 'lenderApplications.list',
    download: documents.DOCUMENT_CONTENT_TYPES,
    successStatus: 200,
    surface: 'lenderApi',
    handle: async (ctx, req) => new FileDownload(await documents.lenderDocument(ctx, req.params.id, req.params.documentId)),
  }),
];
