/** Thin adapter: Application.matches, which the matches subgraph adds to the Business V1 application. */
import { Ctx, Directive, Field, FieldResolver, ID, ObjectType, Resolver, Root } from 'type-graphql';
import { loadBatched } from '../../infra/graphql/field-loaders.js';
import type { ServiceContext } from '../../kernel/context.js';
import type { ApplicationMatchList as ApplicationMatchListResult } from '../matching/funding-search-schemas.js';
import { ApplicationMatchList } from '../matching/match-types.js';
import { matchesOfApplications } from './business-application-service.js';

/**
 * The matches subgraph's key-only stub of Application, hand-written because it declares no shape of
 * its own: the applications subgraph owns Application; this field adds its matches.
 */
@ObjectType('Application')
@Directive('@key(fields: "id")')
export class ApplicationReference {
  @Field(() => ID)
  id!: string;
}

@Resolver(() => ApplicationReference)
export class ApplicationMatchesResolver {
  @FieldResolver(() => ApplicationMatchList, { description: 'GET /applications/{id}/matches (access row Application.matches)' })
  matches(@Root() application: ApplicationReference, @Ctx() ctx: ServiceContext): Promise<ApplicationMatchListResult> {
    return loadBatched(ctx, 'Application.matches', (ids) => matchesOfApplications(ctx, ids), application.id);
  }
}
