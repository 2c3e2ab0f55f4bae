/** GraphQL types of lender applications as integrators and dashboards see them, derived from their zod declarations. */
import { objectTypeFrom } from '../../infra/graphql/zod-graphql-types.js';
import { ApplicationStatusChanged, OfferStatusChanged } from './application-event-schemas.js';
import { IntegratorApplicationDocument } from './funding-application-schemas.js';
import { ApplicationSubmission as ApplicationSubmissionSchema, SelectionSubmission as SelectionSubmissionSchema } from './submission-schemas.js';

/** What integrators get back from accept, decline and resubmit: never the lender's apiProvider. */
export const IntegratorFundingApplication = objectTypeFrom(IntegratorApplicationDocument);
export const ApplicationSubmission = objectTypeFrom(ApplicationSubmissionSchema);
export const ApplicationStatusChange = objectTypeFrom(ApplicationStatusChanged);
export const OfferStatusChange = objectTypeFrom(OfferStatusChanged);
export const SelectionSubmission = objectTypeFrom(SelectionSubmissionSchema);
