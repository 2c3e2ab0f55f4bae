/** GraphQL type of a non-funding case (spec 2.3 Case), with its state history, derived from case-schemas.ts. */
import { Case as CaseSchema } from '../../src/domain/cases/case-schemas.js';
import { objectTypeFrom } from '../shared/zod-graphql-types.js';

export const Case = objectTypeFrom(CaseSchema);
