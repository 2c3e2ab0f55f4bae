/**
 * The demo deployment's sign-in identities: a staff account and an integrator account, each with
 * one user whose password is published (README, tests) so anyone trying the demo can sign in.
 *
 * Idempotent per user: a user whose email already exists is left alone (its password is not reset),
 * and a concurrent start that creates it first is treated the same way. Rows are always written in
 * the 'demo' environment, whatever the caller's configuration, so they can never sign in to a
 * production deployment; the callers (src/processes/demo-seed.ts, src/processes/cli/seed.ts) only run in demo.
 */
import type { PrismaClient } from '../../src/generated/prisma/client.js';
import { createAccountWithUser } from '../../src/modules/identity/bootstrap.js';
import type { PlatformRole } from '../../src/kernel/actor.js';
import { isUniqueViolation } from '../../src/infra/prisma-errors.js';

export interface DemoIdentity {
  accountName: string;
  name: string;
  email: string;
  password: string;
  role: PlatformRole;
}

/** Published demo sign-ins (never valid outside the demo environment). */
export const DEMO_CREDENTIALS = {
  staff: {
    accountName: 'Funding Gateway Staff',
    name: 'Demo Staff',
    email: 'staff@demo.funding-gateway.test',
    password: 'demo-staff-password',
    role: 'STAFF',
  },
  integrator: {
    accountName: 'Demo Integrator Ltd',
    name: 'Demo Integrator',
    email: 'integrator@demo.funding-gateway.test',
    password: 'demo-integrator-password',
    role: 'ADMIN',
  },
} as const satisfies Record<string, DemoIdentity>;

const DEMO_ENVIRONMENT = 'demo';

/** Creates the demo identities that do not exist yet; returns the emails created and skipped. */
export async function seedDemoIdentities(prisma: PrismaClient, log: (msg: string) => void = () => {}): Promise<{ created: string[]; skipped: string[] }> {
  const identities = Object.values(DEMO_CREDENTIALS);
  // Each is independent, and password hashing (argon2) runs on libuv's threads: in parallel, a first
  // start waits for about one hash instead of five.
  const createdNow = await Promise.all(identities.map((identity) => createUnlessPresent(prisma, identity)));
  const created = identities.filter((_, i) => createdNow[i]).map((identity) => identity.email);
  const skipped = identities.filter((_, i) => !createdNow[i]).map((identity) => identity.email);
  if (created.length > 0) log(`demo identities: created ${created.join(', ')}`);
  return { created, skipped };
}

async function createUnlessPresent(prisma: PrismaClient, identity: DemoIdentity): Promise<boolean> {
  const existing = await prisma.platformUser.findUnique({ where: { email: identity.email }, select: { id: true } });
  if (existing) return false;
  try {
    await createAccountWithUser(prisma, { environment: DEMO_ENVIRONMENT, ...identity });
    return true;
  } catch (err) {
    // Another process seeding at the same moment created it (the transaction left no account behind).
    if (isUniqueViolation(err)) return false;
    throw err;
  }
}
