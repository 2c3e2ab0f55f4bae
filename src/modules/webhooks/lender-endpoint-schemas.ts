/**
 * The lender API's view of a lender's webhook endpoints, declared once: the REST bodies and the
 * OpenAPI schemas follow from these. An endpoint is a kind of event (`created`, `updated`) with the
 * URL it is sent to and whether it is sent at all; the signing secret shows its status, never itself.
 */
import { z } from 'zod';

export const EndpointKind = z.enum(['created', 'updated'], { message: 'must be created or updated' });
export type EndpointKind = z.infer<typeof EndpointKind>;

const instant = z.iso.datetime();
const webhookUrl = z.url({ protocol: /^https?$/, message: 'must be an absolute http(s) URL' }).max(2000, 'must be at most 2000 characters');

export const LenderEndpoint = z
  .strictObject({
    kind: EndpointKind.describe('`created`: new applications (`application.created`); `updated`: every other change (`application.updated`)'),
    url: z.string().nullable().describe('Where this kind of event is sent now; null while no application URL is set'),
    ownUrl: z.boolean().describe('false for `updated` when you gave no update URL: updates go to your application URL'),
    enabled: z.boolean().describe("false: this kind's deliveries wait (no attempt, no retry counted, never dead-lettered) until you enable it again"),
    waiting: z.number().int().describe('Deliveries of this kind not delivered yet (PENDING or FAILED)'),
  })
  .meta({ id: 'LenderEndpoint', description: 'One of your webhook endpoints' });
export type LenderEndpoint = z.infer<typeof LenderEndpoint>;

const SigningSecretStatus = z
  .strictObject({
    status: z
      .enum(['NONE', 'ACTIVE', 'ROTATING'])
      .describe('NONE: deliveries are not signed; ACTIVE: signed with your secret; ROTATING: signed with your secret and the previous one'),
    previousSecretValidUntil: instant.nullable().describe('While ROTATING: until when the previous secret signs too'),
  })
  .meta({ id: 'SigningSecretStatus', description: 'Your webhook signing secret, without the secret' });

export const LenderEndpoints = z
  .strictObject({
    endpoints: z.array(LenderEndpoint).describe('`created`, then `updated`'),
    signingSecret: SigningSecretStatus,
  })
  .meta({ id: 'LenderEndpoints', description: 'Your webhook endpoints and the status of your signing secret' });
export type LenderEndpoints = z.infer<typeof LenderEndpoints>;

export const LenderEndpointChange = z
  .strictObject({
    url: webhookUrl.nullable().optional().describe('The new URL (held to the webhook URL policy); for `updated`, null sends updates to your application URL'),
    enabled: z.boolean({ message: 'must be true or false' }).optional().describe('false holds this kind of delivery; true sends what waited, in order'),
  })
  .refine((change) => change.url !== undefined || change.enabled !== undefined, { message: 'give url, enabled or both', path: ['url'] })
  .meta({ id: 'LenderEndpointChange', description: 'A change of one of your endpoints' });
export type LenderEndpointChange = z.output<typeof LenderEndpointChange>;

/** The longest overlap window a rotation may ask for, and the default one. */
export const MAX_OVERLAP_SECONDS = 7 * 86_400;

export const SigningSecretRotation = z
  .strictObject({
    overlapSeconds: z
      .number({ message: 'must be a whole number of seconds' })
      .int('must be a whole number of seconds')
      .min(0, 'must be at least 0')
      .max(MAX_OVERLAP_SECONDS, `must be at most ${MAX_OVERLAP_SECONDS}`)
      .optional()
      .describe('How long deliveries carry a signature with the previous secret too: 86400 (a day) unless given; 0 ends it at once'),
  })
  .meta({ id: 'SigningSecretRotation', description: 'A rotation of your webhook signing secret' });

export const RotatedSigningSecret = z
  .strictObject({
    webhookSecret: z.string().describe('Your new `whsec_` signing secret: shown this once'),
    previousSecretValidUntil: instant
      .nullable()
      .describe('Until when deliveries carry the previous signature too; null when none (no overlap, or no previous secret)'),
  })
  .meta({ id: 'RotatedSigningSecret', description: 'Your new webhook signing secret, shown once' });
export type RotatedSigningSecret = z.infer<typeof RotatedSigningSecret>;
