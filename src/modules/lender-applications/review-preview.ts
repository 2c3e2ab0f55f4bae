/**
 * What a funding specialist reviews before submitting a selection (staff): the applicant's facts,
 * each selected lender's matched products with why they matched, and the fields each lender
 * requires that the application document would lack, computed exactly as submission computes them
 * (the same document builder and required-field rules), so a selection is fixed before it is sent.
 */
import { z } from 'zod';
import { registryGrade } from '../companies/company-information.js';
import type { ServiceContext } from '../../kernel/context.js';
import { AppError } from '../../kernel/errors.js';
import { requireAccess } from '../../kernel/access-policy.js';
import type { SelectedLender } from '../matching/selection-schemas.js';
import { parseInput } from '../../kernel/validation.js';
import { applicationDocument, lenderMatches, loadProfileForDocuments } from './application-documents.js';
import { missingRequiredFields, type RequiredFieldRule } from './required-fields.js';
import type { ReviewedLender, ReviewPreview } from './review-preview-schemas.js';
import { reviewSelectionScope } from '../matching/review-selection-visibility.js';
import { SEARCH_WITHOUT_MATCHES } from '../matching/funding-search.js';
import { toActionRecord } from '../matching/review-selection-actions.js';

const SelectionId = z.uuid({ message: 'must be a review selection id (uuid)' });

export async function previewReviewSelection(ctx: ServiceContext, selectionId: unknown): Promise<ReviewPreview> {
  requireAccess(ctx, 'reviews.read');
  const id = parseInput(SelectionId, selectionId, 'Selection id');
  const selection = await ctx.db.reviewSelection.findFirst({
    where: { AND: [{ id }, reviewSelectionScope(ctx)] },
    include: {
      fundingSearch: { omit: SEARCH_WITHOUT_MATCHES },
      profile: true,
      assignee: { select: { id: true, name: true, email: true } },
      actions: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], include: { actor: { select: { id: true, name: true, email: true } } } },
    },
  });
  if (!selection) throw AppError.notFound('Review selection');
  const [loaded, grade] = await Promise.all([loadProfileForDocuments(ctx.db, selection.profileId), registryGrade(ctx, selection.profile)]);
  const info = (selection.profile.companyInformation ?? {}) as { name?: string; registrationNumber?: string; type?: string; sector?: string };
  const lenders: ReviewedLender[] = [];
  for (const item of selection.selection as unknown as SelectedLender[]) {
    const [first, ...rest] = await lenderMatches(ctx.db, selection.fundingSearchId, item.lenderId, item.products);
    if (!first) {
      lenders.push({ lenderId: item.lenderId, lenderName: null, matched: false, products: item.products, likelihood: null, reasons: [], missingFields: [] });
      continue;
    }
    const document = applicationDocument(ctx, { ...loaded, applicationId: 0, grade, fundingSearch: selection.fundingSearch, matches: [first, ...rest] });
    const missing = missingRequiredFields(document, first.lender.requiredFields as unknown as RequiredFieldRule[]);
    lenders.push({
      lenderId: item.lenderId,
      lenderName: first.lender.name,
      matched: true,
      products: [first, ...rest].map((m) => m.productType),
      likelihood: Number(first.likelihood),
      reasons: [...new Set([first, ...rest].flatMap((m) => (Array.isArray(m.reasons) ? (m.reasons as string[]) : [])))],
      missingFields: missing.map((rule) => ({ field: rule.field, message: rule.message ?? `${first.lender.name} requires ${rule.field}` })),
    });
  }
  const history = selection.actions.map(toActionRecord);
  const a = selection.assignee;
  return {
    selectionId: selection.id,
    state: selection.state,
    company: {
      profileId: selection.profileId,
      name: info.name ?? null,
      number: info.registrationNumber ?? selection.profile.registrationNumber,
      type: info.type ?? selection.profile.companyType,
    },
    assignee: a ? { userId: a.id, name: a.name, email: a.email } : null,
    reason: selection.decisionReason,
    notes: history.filter((h) => h.kind === 'NOTE'),
    history,
    applicant: {
      companyName: info.name ?? null,
      companyNumber: info.registrationNumber ?? selection.profile.registrationNumber,
      companyType: info.type ?? selection.profile.companyType,
      sector: info.sector ?? selection.profile.sector,
      creditGrade: grade,
      amount: Number(selection.fundingSearch.amount),
      periodMonths: selection.fundingSearch.periodMonths,
      useOfFunds: selection.fundingSearch.useOfFunds,
      urgency: selection.fundingSearch.urgency,
    },
    lenders,
  };
}
