/** Thin adapters: a profile's documents (Profile.documents, which this module adds to the profile) and attaching one. */
import { Arg, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { loadBatched } from '../../infra/graphql/field-loaders.js';
import { objectTypeFrom } from '../../infra/graphql/zod-graphql-types.js';
import type { ServiceContext } from '../../kernel/context.js';
import type { ProfileRecord } from '../profiles/profile-records.js';
import { Profile } from '../profiles/profile-types.js';
import { ProfileDocument as ProfileDocumentSchema } from './document-schemas.js';
import * as documents from './document-service.js';

const ProfileDocument = objectTypeFrom(ProfileDocumentSchema);

@Resolver(() => Profile)
export class ProfileDocumentsResolver {
  @Query(() => [ProfileDocument], {
    description:
      "A visible profile's documents, by uuid (GET …/documents): for callers holding profile:write alone. Profile.documents answers the same with its own row (profile:write) on a profile the caller reads",
  })
  profileDocuments(@Arg('uuid', () => ID) uuid: string, @Ctx() ctx: ServiceContext): Promise<documents.DocumentDto[]> {
    return documents.listDocuments(ctx, uuid);
  }

  @FieldResolver(() => [ProfileDocument], { description: "The profile's documents (access row Profile.documents: profile:write)" })
  documents(@Root() profile: ProfileRecord, @Ctx() ctx: ServiceContext): Promise<documents.DocumentDto[]> {
    return loadBatched(ctx, 'Profile.documents', (ids) => documents.documentsOfProfiles(ctx, ids), profile.uuid);
  }

  @Mutation(() => ProfileDocument, { description: 'Attach a document (base64 content; PDF, PNG, JPEG, CSV, XLSX or DOCX, at most 10 MB)' })
  attachDocument(
    @Arg('profileId', () => ID) profileId: string,
    @Arg('fileName', () => String) fileName: string,
    @Arg('contentType', () => String) contentType: string,
    @Arg('contentBase64', () => String) contentBase64: string,
    @Ctx() ctx: ServiceContext,
  ): Promise<documents.DocumentDto> {
    return documents.attachDocument(ctx, profileId, { fileName, contentType, content: Buffer.from(contentBase64, 'base64') });
  }
}
