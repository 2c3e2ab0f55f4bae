/**
 * Non-funding cases (spec 2.3 Case, 4.1 rule 5): POST /profiles/{uuid}/cases/apply opens a case for
 * what the profile's answers ask for: debt recovery, grants, an R&D tax claim or credit improvement.
 * The questionnaire the answers came from decides first (eligibilityRequest.sourceQuestionnaireId);
 * otherwise the first answered section in that order. Nothing non-funding asked for → 422.
 * Applying again while a case of that type is open returns the open case (no duplicate).
 */
import type { Prisma } from '../../generated/prisma/client.js';
import type { ServiceContext } from '../../kernel/context.js';
import { AppError } from '../../kernel/errors.js';
import { requireAccess } from '../../kernel/access-policy.js';
import { answerOnceAsIs } from '../../infra/idempotent-answers.js';
import { findVisibleProfileId } from '../profiles/profile-visibility.js';
import { groupedBy } from '../../kernel/batched-lookups.js';
import type { Case } from './case-schemas.js';

interface CaseKind {
  type: string;
  productName: string;
  title: string;
  /** Questionnaire whose answers ask for this case. */
  questionnaire: string;
  /** Whether the profile's eligibilityRequest asks for it. */
  asks(eligibility: EligibilityRequest): boolean;
  amount?(eligibility: EligibilityRequest): unknown;
}

interface EligibilityRequest {
  sourceQuestionnaireId?: string;
  recovery?: { defendant?: unknown; claimAmount?: unknown };
  innovationRequirements?: { grants?: Record<string, unknown>; rdTaxClaim?: Record<string, unknown> };
  shared?: { fundingAmount?: unknown };
}

const hasAny = (value: object | undefined) => value !== undefined && Object.keys(value).length > 0;

const CASE_KINDS: readonly CaseKind[] = [
  {
    type: 'DEBT_RECOVERY',
    productName: 'Debt recovery',
    title: 'Recover an unpaid debt',
    questionnaire: 'introducer-debt-recovery',
    asks: (e) => hasAny(e.recovery),
    amount: (e) => e.recovery?.claimAmount,
  },
  {
    type: 'GRANTS',
    productName: 'Grants',
    title: 'Apply for grants',
    questionnaire: 'introducer-grants',
    asks: (e) => hasAny(e.innovationRequirements?.grants),
  },
  {
    type: 'RD_TAX_CLAIM',
    productName: 'R&D tax claim',
    title: 'Claim R&D tax relief',
    questionnaire: 'introducer-rd-tax-claim',
    asks: (e) => hasAny(e.innovationRequirements?.rdTaxClaim),
  },
  {
    type: 'CREDIT_IMPROVEMENT',
    productName: 'Credit improvement',
    title: 'Improve the business credit score',
    questionnaire: 'introducer-credit-improvement',
    asks: () => false, // asked for only through its questionnaire
  },
];

/** A new case waits for a funding specialist. */
const OPEN = { caseState: 'NEW', state: 'AWAITING_REVIEW', stateType: 'OPEN' } as const;
const STATE_NAMES: Record<string, string> = { NEW: 'New', AWAITING_REVIEW: 'Awaiting review' };

export function chooseCaseKind(eligibility: EligibilityRequest): CaseKind | null {
  const byQuestionnaire = CASE_KINDS.find((k) => k.questionnaire === eligibility.sourceQuestionnaireId);
  return byQuestionnaire ?? CASE_KINDS.find((k) => k.asks(eligibility)) ?? null;
}

type CaseRow = Prisma.CaseGetPayload<{ include: { history: true } }>;

export type CaseDto = Case;

function toCaseDto(row: CaseRow): CaseDto {
  // Written by applyForCase alone, with the amount of a currency answer (or none).
  const details = row.details as { title: string; description: string; amount?: CaseDto['details']['amount'] };
  const latest = row.history.at(-1);
  return {
    id: row.id,
    profile: row.profileId,
    businessId: row.businessId,
    caseState: row.caseState,
    caseStateName: STATE_NAMES[row.caseState] ?? row.caseState,
    state: row.state,
    stateName: STATE_NAMES[row.state] ?? row.state,
    stateType: row.stateType,
    type: row.type,
    product: row.product,
    productName: row.productName,
    private: row.private,
    offersAwaitingReview: false,
    followers: [],
    products: [row.product],
    productNames: [row.productName],
    stateUpdatedAt: row.stateUpdatedAt.toISOString(),
    details: { title: details.title, description: details.description, amount: details.amount ?? null },
    owner: null,
    manager: null,
    latestActivity: latest ? { id: latest.id, title: latest.note ?? latest.toState, createdAt: latest.createdAt.toISOString() } : null,
    integration: { name: 'funding-gateway', generatedAt: row.createdAt.toISOString() },
    history: row.history.map((h) => ({ fromState: h.fromState, toState: h.toState, note: h.note, createdAt: h.createdAt.toISOString() })),
  };
}

/** POST /profiles/{uuid}/cases/apply → 200 Case. */
export async function applyForCase(ctx: ServiceContext, uuid: unknown, idempotencyKey?: unknown): Promise<CaseDto> {
  const actor = requireAccess(ctx, 'cases.apply');
  const profileId = await findVisibleProfileId(ctx, actor, uuid);
  const request = { owner: { accountId: actor.accountId }, operation: 'cases.apply', target: profileId, body: null };
  return answerOnceAsIs(ctx, idempotencyKey, request, () => openCase(ctx, profileId));
}

/** Opens the case the profile's answers ask for, or answers the one already open. */
async function openCase(ctx: ServiceContext, profileId: string): Promise<CaseDto> {
  const row = await ctx.db.profile.findUniqueOrThrow({ where: { id: profileId }, select: { eligibilityRequest: true, companyInformation: true } });
  const companyName = (row.companyInformation as { name?: unknown } | null)?.name;
  const eligibility = (row.eligibilityRequest ?? {}) as EligibilityRequest;
  const kind = chooseCaseKind(eligibility);
  if (!kind) {
    throw AppError.unprocessable(
      'The profile asks for nothing non-funding: answer the debt recovery, grants, R&D tax claim or credit improvement questionnaire first',
    );
  }
  const open = await ctx.db.case.findFirst({
    where: { profileId: profileId, type: kind.type, stateType: 'OPEN' },
    include: { history: { orderBy: { createdAt: 'asc' } } },
  });
  if (open) return toCaseDto(open);
  const now = ctx.clock.now();
  const created = await ctx.db.case.create({
    data: {
      profileId: profileId,
      type: kind.type,
      product: kind.type,
      productName: kind.productName,
      ...OPEN,
      details: {
        title: kind.title,
        description: `${kind.productName} for ${typeof companyName === 'string' ? companyName : 'the business'}`,
        amount: (kind.amount?.(eligibility) ?? null) as Prisma.InputJsonValue,
      },
      stateUpdatedAt: now,
      createdAt: now,
      history: { create: [{ fromState: null, toState: OPEN.state, note: 'Case opened', createdAt: now }] },
    },
    include: { history: { orderBy: { createdAt: 'asc' } } },
  });
  ctx.logger.info({ caseId: created.id, profileId: profileId, type: kind.type }, 'case opened');
  return toCaseDto(created);
}

/** GraphQL Profile.cases: the cases, with their state history, of profiles the caller already sees, one list per profile id. */
export async function casesOfProfiles(ctx: ServiceContext, profileIds: readonly string[]): Promise<CaseDto[][]> {
  requireAccess(ctx, 'Profile.cases');
  return profileCases(ctx, profileIds);
}

/**
 * The cases of each profile, oldest first, with their history (one statement for the cases, one for their histories).
 * @access internal: the profile ids come from a look-up that established their visibility
 */
async function profileCases(ctx: ServiceContext, profileIds: readonly string[]): Promise<CaseDto[][]> {
  const rows = await ctx.db.case.findMany({
    where: { profileId: { in: [...profileIds] } },
    orderBy: { createdAt: 'asc' },
    include: { history: { orderBy: { createdAt: 'asc' } } },
  });
  return groupedBy(profileIds, rows, (row) => row.profileId).map((cases) => cases.map(toCaseDto));
}
