/**
 * Example requests of the identity routes (the API reference), sent as they are by
 * test/openapi-examples.test.ts. Secrets appear as the specification's placeholders (section 5:
 * <API_KEY>, <REFRESH_TOKEN>), which that test replaces with credentials it has just made.
 */
export const PLACEHOLDERS = { apiKey: '<API_KEY>', refreshToken: '<REFRESH_TOKEN>', lenderUsername: '<USERNAME>', lenderPassword: '<PASSWORD>' } as const;

/**
 * The demo deployment's published sign-in (README; prisma/seed/demo-identities.ts seeds it): the
 * example works as it is against any demo deployment, which test/openapi-examples.test.ts proves.
 */
export const DEMO_INTEGRATOR_SIGN_IN = { email: 'integrator@demo.funding-gateway.test', password: 'demo-integrator-password' };

export const EXAMPLE_API_KEY_BODY = {
  name: 'Acme CRM integration',
  scopes: ['profile:read', 'profile:write', 'questionnaire:read', 'questionnaire:write', 'funding:read', 'funding:write'],
};

export const EXAMPLE_USER_BODY = { email: 'finance@acme-widgets.example', password: 'correct-horse-battery-staple', name: 'Grace Hopwood', role: 'MEMBER' };
