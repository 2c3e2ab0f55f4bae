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
    summary: 'Attach a document (multipart field "file": PDF, PNG, JPEG, CSV without formulas, XLSX or DOCX, at most 10 MB; 413 past it)',
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
    summary: "The profile's documents (without their content)",
    response: z.array(ProfileDocument),
    successStatus: 200,
    surface: 'marketplaceV1',
    handle: (ctx, req) => documents.listDocuments(ctx, req.params.uuid),
  }),
  route({
    method: 'get',
    path: `${BASES.lenderApi}/v1/funding/search/:id/document/:documentId`,
    operationId: 'LenderDocumentController_get',
    summary: 'A document attached to the lender’s application, with its content type and name',
    download: documents.DOCUMENT_CONTENT_TYPES,
    successStatus: 200,
    surface: 'lenderApi',
    handle: async (ctx, req) => new FileDownload(await documents.lenderDocument(ctx, req.params.id, req.params.documentId)),
  }),
];
