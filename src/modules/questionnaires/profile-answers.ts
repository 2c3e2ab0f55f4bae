/**
 * Where answers land in the business profile: each question's `profilePath` names a place in the
 * profile's companyInformation, financials or eligibilityRequest documents. Answering sets it,
 * deleting the answer unsets it; and the same paths read the profile back as form defaults.
 */
import { valueAtPath } from '../../kernel/document-path.js';
import type { Question, QuestionnaireDefinition } from './questionnaire-definitions.js';

const PROFILE_DOCUMENTS = ['companyInformation', 'financials', 'eligibilityRequest'] as const;
type ProfileDocument = (typeof PROFILE_DOCUMENTS)[number];
export type ProfileDocuments = Record<ProfileDocument, Record<string, unknown>>;

function pathsOf(q: Question): string[] {
  return q.profilePath === undefined ? [] : Array.isArray(q.profilePath) ? q.profilePath : [q.profilePath];
}

function splitPath(path: string): [ProfileDocument, string[]] {
  const [document, ...rest] = path.split('.');
  if (!(PROFILE_DOCUMENTS as readonly string[]).includes(document ?? '') || rest.length === 0) {
    throw new Error(`profilePath ${path} must start with one of ${PROFILE_DOCUMENTS.join(', ')}`);
  }
  return [document as ProfileDocument, rest];
}

function setIn(target: Record<string, unknown>, keys: string[], value: unknown): void {
  const [head, ...rest] = keys as [string, ...string[]];
  if (rest.length === 0) {
    if (value === undefined) delete target[head];
    else target[head] = value;
    return;
  }
  const child = target[head];
  const next = typeof child === 'object' && child !== null && !Array.isArray(child) ? { ...(child as Record<string, unknown>) } : {};
  setIn(next, rest, value);
  if (Object.keys(next).length === 0) delete target[head];
  else target[head] = next;
}

const toProfileValue = (q: Question, value: unknown) => (q.transform === 'date-time' && typeof value === 'string' ? `${value}T00:00:00.000Z` : value);
const toAnswerValue = (q: Question, value: unknown) => (q.transform === 'date-time' && typeof value === 'string' ? value.slice(0, 10) : value);

/**
 * The profile's documents after the answers changed from `before` to `after`: answered questions
 * set their paths; questions answered before and no longer (deleted, or left out of a PUT) unset
 * theirs; anything else in the profile (e.g. set by PATCH /company) is left alone. The
 * questionnaire becomes the eligibilityRequest's source.
 */
export function applyAnswerChange(
  definition: QuestionnaireDefinition,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  documents: ProfileDocuments,
): ProfileDocuments {
  const next: ProfileDocuments = {
    companyInformation: structuredClone(documents.companyInformation),
    financials: structuredClone(documents.financials),
    eligibilityRequest: structuredClone(documents.eligibilityRequest),
  };
  for (const q of definition.questions) {
    const answered = q.key in after;
    if (!answered && !(q.key in before)) continue;
    for (const path of pathsOf(q)) {
      const [document, keys] = splitPath(path);
      setIn(next[document], keys, answered ? toProfileValue(q, after[q.key]) : undefined);
    }
  }
  next.eligibilityRequest.sourceQuestionnaireId = definition.id;
  return next;
}

/** The profile's current values for the questionnaire's questions (the per-profile schema defaults). */
export function profileDefaults(definition: QuestionnaireDefinition, documents: ProfileDocuments): Record<string, unknown> {
  const defaults: Record<string, unknown> = {};
  for (const q of definition.questions) {
    const [first] = pathsOf(q);
    if (!first) continue;
    const [document, keys] = splitPath(first);
    const value = valueAtPath(documents[document], keys);
    if (value !== undefined) defaults[q.key] = toAnswerValue(q, value);
  }
  return defaults;
}
