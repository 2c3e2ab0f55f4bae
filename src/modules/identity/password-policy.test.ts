/**
 * The password policy (NIST SP 800-63B) on every path that sets a password: a user created by an
 * admin, a password an admin resets, one a user changes themself (REST: users have no GraphQL
 * operations), each refused with a 400 naming `/password` and changing nothing; the admin CLI is held to
 * the same schema (test/admin-cli.test.ts).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, signIn, signUpIntegrator, type Integrator } from '../../../test/support/identities.js';
import { postJson, startTestApp, type TestApp } from '../../../test/support/test-app.js';
import { isCommonPassword, Password } from './password-policy.js';

let app: TestApp;
let admin: Integrator;
let member: { id: string; email: string; password: string; token: string };
const db = () => app.runtime.database.prisma;
const url = (path: string) => `${app.url}${path}`;
const patchUser = (token: string, id: string, body: unknown) =>
  fetch(url(`/api/platform/v1/users/${id}`), {
    method: 'PATCH',
    headers: { ...bearer(token), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

beforeAll(async () => {
  app = await startTestApp();
  admin = await signUpIntegrator(app);
  const email = `member-${randomUUID()}@example.test`;
  const password = `pw-${randomUUID()}`;
  const created = await postJson(url('/api/platform/v1/users'), { email, password, role: 'MEMBER' }, bearer(admin.loginToken));
  expect(created.status).toBe(201);
  member = { id: (await created.json()).id, email, password, token: await signIn(app, email, password) };
});
afterAll(() => app?.close());

const REFUSED: Array<[string, string, RegExp]> = [
  ['twelve spaces', ' '.repeat(12), /whitespace/],
  ['tabs and newlines', '\t\n \t\n \t\n \t\n ', /whitespace/],
  ['a common password', 'password1234', /commonly used/],
  ['a common password in capitals', 'PASSWORD1234', /commonly used/],
  ['a common keyboard walk', 'qwertyuiop12', /commonly used/],
  ['a short one', 'short-pw', /at least 12 characters/],
];

describe('the password policy', () => {
  it('refuses whitespace, common and short passwords; accepts long uncommon ones, spaces inside included', () => {
    for (const [, password, message] of REFUSED) {
      const result = Password.safeParse(password);
      expect(result.success).toBe(false);
      expect(result.error!.issues.map((issue) => issue.message).join(' ')).toMatch(message);
    }
    expect(isCommonPassword('123456789012')).toBe(true);
    for (const password of ['correct horse battery staple', 'a-long-enough-password', `pw-${randomUUID()}`])
      expect(Password.safeParse(password).success).toBe(true);
  });

  it.each(REFUSED)('creating a user with %s is a 400 naming /password, creating nobody', async (_name, password, message) => {
    const before = await db().platformUser.count();
    const res = await postJson(
      url('/api/platform/v1/users'),
      { email: `new-${randomUUID()}@example.test`, password, role: 'MEMBER' },
      bearer(admin.loginToken),
    );
    expect(res.status).toBe(400);
    const problem = await res.json();
    expect(problem.errors).toContainEqual({ pointer: '/password', message: expect.stringMatching(message) });
    expect(await db().platformUser.count()).toBe(before);
  });

  it.each(REFUSED)(
    "an admin's reset to %s and a user's own change to it are 400s naming /password; the old password still signs in",
    async (_name, password, message) => {
      const hashBefore = (await db().platformUser.findUniqueOrThrow({ where: { id: member.id } })).passwordHash;
      for (const [token, body] of [
        [admin.loginToken, { password }],
        [member.token, { password, currentPassword: member.password }],
      ] as const) {
        const res = await patchUser(token, member.id, body);
        expect(res.status).toBe(400);
        expect((await res.json()).errors).toContainEqual({ pointer: '/password', message: expect.stringMatching(message) });
      }
      expect((await db().platformUser.findUniqueOrThrow({ where: { id: member.id } })).passwordHash).toBe(hashBefore);
      expect(await signIn(app, member.email, member.password)).toEqual(expect.any(String));
    },
  );
});
