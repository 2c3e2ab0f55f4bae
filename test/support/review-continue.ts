/** Seeds for the review queue and continue page tests: a tenant's Business V1 application with its continue URL, and choices posted as the page's form posts them. */
import { expect } from 'vitest';
import { ACME_APPLICATION } from './answers.js';
import { bearer, createTenant, platformToken, type Integrator } from './identities.js';
import { postJson, type TestApp } from './test-app.js';

const B = '/api/business/v1';

export interface ContinueFixture {
  auth: Record<string, string>;
  id: string;
  profileId: string;
  continueUrl: string;
  /** Matches as the page lists them ("lenderId:PRODUCT"), distinct lenders first. */
  choices: string[];
}

/** A tenant with ACME's profile (optionally named), an application, and its continue URL. */
export async function applicationWithLink(app: TestApp, integrator: Integrator, companyName?: string): Promise<ContinueFixture> {
  const { id: tenantId } = await createTenant(app, integrator.platformToken);
  const auth = bearer((await platformToken(app, integrator.apiKey, tenantId)).access_token);
  const company = { registrationNumber: '09876543', ...(companyName ? { name: companyName } : {}) };
  expect((await postJson(`${app.url}${B}/profile`, { companyInformation: company }, auth)).status).toBe(201);
  const created = await postJson(
    `${app.url}${B}/applications`,
    { ...ACME_APPLICATION, fundingAmount: { code: 'GBP', value: 150000 }, fundingPeriod: 24 },
    auth,
  );
  expect(created.status).toBe(201);
  const { id } = await created.json();
  const { continueUrl } = await (await postJson(`${app.url}${B}/applications/${id}/continue-url`, {}, auth)).json();
  const row = await app.runtime.database.prisma.businessApplication.findUniqueOrThrow({ where: { id } });
  const matches = await (await fetch(`${app.url}${B}/applications/${id}/matches`, { headers: auth })).json();
  const seen = new Set<number>();
  const choices: string[] = [];
  for (const m of matches.matches as Array<{ lender: { id: number }; product: string }>) {
    if (seen.has(m.lender.id)) continue;
    seen.add(m.lender.id);
    choices.push(`${m.lender.id}:${m.product}`);
  }
  return { auth, id, profileId: row.profileId, continueUrl, choices };
}

/** POSTs the continue page's form (as the browser does), not following the redirect. */
export function postChoice(continueUrl: string, choices: string[], replace = false): Promise<Response> {
  const body = new URLSearchParams([...choices.map((c) => ['choice', c]), ...(replace ? [['replace', 'yes']] : [])]);
  return fetch(continueUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body, redirect: 'manual' });
}
