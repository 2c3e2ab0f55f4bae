/**
 * Seeded lender applications for the insights tests: two lenders, two integrator accounts, and
 * applications with their status history at chosen instants (submitted, then acknowledged (status unchanged), offered
 * or rejected some hours later), so each aggregate has known numbers and times.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../../src/infra/database.js';
import { storedApplicationDocument } from './lender-applications.js';

const HOUR_MS = 3_600_000;

interface SeededApplication {
  id: number;
  accountId: string;
  lenderId: number;
  submittedAt: Date;
  /** Hours from submission, when the lender answered so. */
  acknowledgedAfterHours: number | null;
  offeredAfterHours: number | null;
  rejectedAfterHours: number | null;
}

export interface InsightsWorld {
  lenders: Array<{ id: number; slug: string; name: string }>;
  applications: SeededApplication[];
}

/**
 * `count` applications from `start`, one every 7 hours, spread over both accounts (two of every three
 * to the first) and both lenders; most are acknowledged, every third offered, every fifth rejected.
 */
export async function seedInsightsWorld(db: Db, input: { accounts: [string, string]; start: Date; count: number; label?: string }): Promise<InsightsWorld> {
  const label = input.label ?? randomUUID().slice(0, 8);
  const lenders = [];
  for (const name of ['Alpha', 'Beta']) {
    const row = await db.lender.create({
      data: {
        environment: 'demo',
        name: `Insights ${name} ${label}`,
        slug: `insights-${name.toLowerCase()}-${label}`,
        applicationUrl: 'https://lender.invalid/applications',
      },
    });
    lenders.push({ id: row.id, slug: row.slug, name: row.name });
  }
  const profiles = new Map<string, string>();
  for (const accountId of input.accounts) {
    const profile = await db.profile.create({
      data: { environment: 'demo', ownerAccountId: accountId, companyInformation: { name: `Insights ${accountId.slice(0, 6)} Ltd` } },
    });
    profiles.set(accountId, profile.id);
  }
  const applications: SeededApplication[] = [];
  for (let i = 0; i < input.count; i++) {
    const accountId = input.accounts[i % 3 === 2 ? 1 : 0];
    const lender = lenders[i % 2]!;
    const submittedAt = new Date(input.start.getTime() + i * 7 * HOUR_MS);
    const acknowledgedAfterHours = i % 4 === 3 ? null : 1 + (i % 6) * 1.5;
    const offeredAfterHours = i % 3 === 0 ? 6 + i * 2 : null;
    const rejectedAfterHours = offeredAfterHours === null && i % 5 === 4 ? 20 + i : null;
    // An acknowledgement leaves the status In Review (spec 3): a history row that stays there, and the first one's time.
    const moves: Array<{ to: string; afterHours: number; acknowledgement?: true }> = [{ to: 'In Review', afterHours: 0 }];
    if (acknowledgedAfterHours !== null) moves.push({ to: 'In Review', afterHours: acknowledgedAfterHours, acknowledgement: true });
    // A second acknowledgement (a comment) is no move into a status and no first acknowledgement: it must count nowhere.
    if (acknowledgedAfterHours !== null && i % 6 === 1) moves.push({ to: 'In Review', afterHours: acknowledgedAfterHours + 0.5, acknowledgement: true });
    if (offeredAfterHours !== null) moves.push({ to: 'Offered', afterHours: offeredAfterHours });
    if (rejectedAfterHours !== null) moves.push({ to: 'Rejected', afterHours: rejectedAfterHours });
    moves.sort((a, b) => a.afterHours - b.afterHours);
    const last = moves[moves.length - 1]!;
    const status = moves.filter((m) => !m.acknowledgement).at(-1)!.to;
    const at = (hours: number) => new Date(submittedAt.getTime() + hours * HOUR_MS);
    const row = await db.lenderApplication.create({
      data: {
        lenderId: lender.id,
        profileId: profiles.get(accountId)!,
        status,
        acknowledgedAt: acknowledgedAfterHours === null ? null : at(acknowledgedAfterHours),
        payload: storedApplicationDocument({ lenderId: lender.id, companyName: `Insights ${i}` }),
        createdAt: submittedAt,
        updatedAt: at(last.afterHours),
      },
    });
    let from: string | null = null;
    for (const move of moves) {
      await db.applicationStatusChange.create({
        data: { lenderApplicationId: row.id, fromStatus: move.acknowledgement ? 'In Review' : from, toStatus: move.to, createdAt: at(move.afterHours) },
      });
      if (!move.acknowledgement) from = move.to;
    }
    applications.push({ id: row.id, accountId, lenderId: lender.id, submittedAt, acknowledgedAfterHours, offeredAfterHours, rejectedAfterHours });
  }
  return { lenders, applications };
}

/** percentile_cont: linear interpolation between the two nearest ranks. */
export function percentileCont(values: number[], fraction: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = fraction * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (rank - low);
}

/**
 * Moves into each status per UTC day or ISO week of the window, counted by the test in its own SQL
 * (by owner account when given, else every demo application): the oracle the aggregates are held to.
 */
export async function countedMoves(
  db: Db,
  input: { since: Date; until: Date; bucket: 'day' | 'week'; accountId?: string },
): Promise<Map<string, Map<string, number>>> {
  const rows = await db.$queryRawUnsafe<Array<{ period: string; status: string; n: number }>>(
    `SELECT to_char(date_trunc('${input.bucket}', sc."createdAt"), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS period, sc."toStatus" AS status, count(DISTINCT la.id)::int AS n
       FROM application_status_change sc
       JOIN lender_application la ON la.id = sc."lenderApplicationId"
       JOIN lender l ON l.id = la."lenderId"
       JOIN profile p ON p.id = la."profileId"
      WHERE l.environment = 'demo'
        AND sc."createdAt" >= $1::timestamp AND sc."createdAt" < $2::timestamp
        AND (sc."fromStatus" IS NULL OR sc."fromStatus" <> sc."toStatus")
        AND ($3::uuid IS NULL OR p."ownerAccountId" = $3::uuid)
      GROUP BY 1, 2`,
    input.since.toISOString().replace('Z', ''),
    input.until.toISOString().replace('Z', ''),
    input.accountId ?? null,
  );
  const counted = new Map<string, Map<string, number>>();
  for (const row of rows) {
    const period = counted.get(row.period) ?? new Map<string, number>();
    period.set(row.status, row.n);
    counted.set(row.period, period);
  }
  return counted;
}
