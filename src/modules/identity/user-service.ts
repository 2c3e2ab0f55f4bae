/**
 * The account's platform users (GET/POST /users, GET/PATCH /users/{userId}). Admins add and change
 * users; anyone may change their own name, and their own password given the current one. A role
 * change, a password change or disabling raises the user's session epoch, which ends every login
 * token issued before it (credential-status.ts). An account always keeps an active admin.
 * Staff (internal) users are never made here: only by the bootstrap CLI and the demo seed.
 */
import { z } from 'zod';
import type { ServiceContext } from '../../kernel/context.js';
import { AppError } from '../../kernel/errors.js';
import { parseInput, type CheckedLater } from '../../kernel/validation.js';
import { isUniqueViolation } from '../../infra/prisma-errors.js';
import { requireAccess } from '../../kernel/access-policy.js';
import type { CreateUserBody, PlatformUser, UpdateUserBody } from './identity-schemas.js';
import { hashPassword, verifyPassword } from './secrets.js';
import { userScope } from './user-visibility.js';

interface UserRow {
  id: string;
  email: string;
  name: string | null;
  role: string;
  disabledAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

function toUserDto(row: UserRow): PlatformUser {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role as PlatformUser['role'],
    disabled: row.disabledAt !== null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const UserId = z.uuid({ message: 'must be a uuid' });

export async function listUsers(ctx: ServiceContext): Promise<PlatformUser[]> {
  const actor = requireAccess(ctx, 'users.list');
  const rows = await ctx.db.platformUser.findMany({
    where: userScope(ctx, actor),
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  return rows.map(toUserDto);
}

export async function getUser(ctx: ServiceContext, userId: unknown): Promise<PlatformUser> {
  const actor = requireAccess(ctx, 'users.read');
  return toUserDto(await findAccountUser(ctx, actor.accountId, userId));
}

export async function createUser(ctx: ServiceContext, body: z.output<typeof CreateUserBody>): Promise<PlatformUser> {
  const actor = requireAccess(ctx, 'users.create');
  try {
    const row = await ctx.db.platformUser.create({
      data: {
        accountId: actor.accountId,
        email: body.email,
        name: body.name ?? null,
        role: body.role,
        passwordHash: await hashPassword(body.password),
        environment: ctx.environment,
      },
    });
    ctx.logger.info({ userId: row.id, accountId: actor.accountId }, 'platform user created');
    return toUserDto(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw AppError.conflict('A user with this email already exists', [{ pointer: '/email', message: 'is already registered' }]);
    throw err;
  }
}

export async function updateUser(ctx: ServiceContext, userId: unknown, input: CheckedLater<z.output<typeof UpdateUserBody>>): Promise<PlatformUser> {
  const actor = requireAccess(ctx, 'users.update');
  // The user first: another account's user is a 404 whatever the body says.
  const target = await findAccountUser(ctx, actor.accountId, userId);
  const body = input();
  const isSelf = target.id === actor.userId;
  const needsAdmin = !isSelf || body.role !== undefined || body.disabled !== undefined;
  if (needsAdmin && !actor.scopes.includes('users:write')) {
    throw AppError.forbidden('Only an account admin may change other users, roles or the disabled flag');
  }
  if (target.role === 'STAFF' && actor.role !== 'STAFF') throw AppError.forbidden('Staff users are managed by staff only');
  const demotesAdmin = target.role === 'ADMIN' && ((body.role !== undefined && body.role !== 'ADMIN') || body.disabled === true);
  if (demotesAdmin) await assertAnotherActiveAdmin(ctx, actor.accountId, target.id);
  if (isSelf && body.password !== undefined) await assertCurrentPassword(ctx, target, body.currentPassword);
  const endsSessions = (body.role !== undefined && body.role !== target.role) || body.password !== undefined || body.disabled === true;
  const row = await ctx.db.platformUser.update({
    where: { id: target.id },
    data: {
      ...(endsSessions ? { sessionEpoch: { increment: 1 } } : {}),
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.role !== undefined ? { role: body.role } : {}),
      ...(body.disabled !== undefined ? { disabledAt: body.disabled ? ctx.clock.now() : null } : {}),
      ...(body.password !== undefined ? { passwordHash: await hashPassword(body.password) } : {}),
    },
  });
  ctx.auth.credentialStatus.forget(row.id);
  return toUserDto(row);
}

/**
 * Changing one's own password takes the current one, counted by the login throttle like a sign-in
 * (keyed to the user rather than an address), so a stolen login token cannot guess it either.
 */
async function assertCurrentPassword(ctx: ServiceContext, user: UserRow & { passwordHash: string }, currentPassword: string | undefined): Promise<void> {
  if (currentPassword === undefined) {
    throw AppError.badRequest('Changing your own password needs your current password', [
      { pointer: '/currentPassword', message: 'is required with password' },
    ]);
  }
  const throttleKey = `password-change:${user.id}`;
  await ctx.auth.loginThrottle.beginAttempt(user.email, throttleKey);
  if (!(await verifyPassword(user.passwordHash, currentPassword))) {
    throw new AppError('FORBIDDEN', 'The current password is not correct', [{ pointer: '/currentPassword', message: 'is not correct' }]);
  }
  await ctx.auth.loginThrottle.recordSuccess(user.email, throttleKey);
}

async function findAccountUser(
  ctx: ServiceContext,
  accountId: string,
  userId: unknown,
): Promise<UserRow & { role: 'MEMBER' | 'ADMIN' | 'STAFF'; passwordHash: string }> {
  const id = parseInput(UserId, userId, 'User id');
  const row = await ctx.db.platformUser.findFirst({ where: { AND: [{ id }, userScope(ctx, { accountId })] } });
  if (!row) throw AppError.notFound('User');
  return row;
}

async function assertAnotherActiveAdmin(ctx: ServiceContext, accountId: string, exceptUserId: string): Promise<void> {
  const others = await ctx.db.platformUser.count({
    where: { AND: [userScope(ctx, { accountId }), { role: 'ADMIN', disabledAt: null, id: { not: exceptUserId } }] },
  });
  if (others === 0) throw AppError.conflict('The account must keep at least one active admin');
}
