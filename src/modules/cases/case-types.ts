/** GraphQL type of a non-funding case (spec 2.3 Case), with its state history, derived from case-schemas.ts. */
import { Case as CaseSchema } from './case-schemas.js';
import { objectTypeFrom } from '../../infra/graphql/zod-graphql-types.js';

export const Case = objectTypeFrom(CaseSchema);
