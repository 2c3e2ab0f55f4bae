/**
 * Example requests of the Business V1 application routes (the API reference), and the application
 * the test suite creates (test/support/answers.ts): ACME WIDGETS LIMITED's answers as a
 * `business-all-funding-products` application (the company facts come from the tenant's profile).
 */
import { ACME_ANSWERS } from '../questionnaires/questionnaire.examples.js';
import { APPLICATION_VARIANT_FIELDS } from './application-variants.js';

/** Without `type`: business-all-funding-products is the default. */
export const ACME_APPLICATION: Record<string, unknown> = Object.fromEntries(
  Object.entries(ACME_ANSWERS).filter(([key]) => APPLICATION_VARIANT_FIELDS['business-all-funding-products']!.includes(key)),
);

/** A click id of the integrator's campaign, kept for attribution. */
export const EXAMPLE_CONTINUE_BODY = { clickId: 'newsletter-2026-11-acme' };
