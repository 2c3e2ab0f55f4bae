/** Seed for the board's browser test: many lender applications of one account, with company names, numbers and lender references. */
import type { TestApp } from './test-app.js';
import { storedApplicationDocument } from './lender-applications.js';

export interface SeededBoardRow {
  id: number;
  companyName: string;
  reference: string;
}

/** `count` applications to `lenderId` for a profile of `accountId`, each with a status move, last changed one second apart. */
export async function seedBoardApplications(app: TestApp, input: { accountId: string; lenderId: number; count: number }): Promise<SeededBoardRow[]> {
  const db = app.runtime.database.prisma;
  const profile = await db.profile.create({ data: { environment: 'demo', ownerAccountId: input.accountId } });
  const base = Date.now() - input.count * 1_000 - 3_600_000;
  // In Review twice: once as sent, once acknowledged by the lender (which leaves the status as it is).
  const statuses: Array<[string, boolean]> = [
    ['In Review', false],
    ['In Review', true],
    ['Offered', false],
    ['Failed', false],
    ['Rejected', false],
  ];
  const rows: SeededBoardRow[] = [];
  for (let n = 1; n <= input.count; n++) {
    const companyName = `Seeded Company ${String(n).padStart(3, '0')} Ltd`;
    const reference = `BREF-${String(n).padStart(3, '0')}`;
    const payload = storedApplicationDocument({ lenderId: input.lenderId, companyName, amount: `${10_000 + n * 100}.00` });
    payload.application.profile.basicCompanyDetails.companyNumber = `BC${String(n).padStart(6, '0')}` as never;
    const at = new Date(base + n * 1_000);
    const row = await db.lenderApplication.create({
      data: {
        lenderId: input.lenderId,
        profileId: profile.id,
        status: statuses[n % statuses.length]![0],
        acknowledgedAt: statuses[n % statuses.length]![1] ? at : null,
        reference,
        payload: payload as never,
        createdAt: at,
        updatedAt: at,
      },
    });
    await db.applicationStatusChange.create({ data: { lenderApplicationId: row.id, fromStatus: null, toStatus: row.status, createdAt: at } });
    rows.push({ id: row.id, companyName, reference });
  }
  return rows;
}
