/** The band of 0-100 scores each credit grade stands for (spec 2.1); their meanings are texts (messages.ts). */
import type { Catalogue } from './messages.js';

const GRADE_SCORES: Record<string, string | null> = {
  A: '91-100',
  B: '81-90',
  C: '51-80',
  D: '26-50',
  E: '16-25',
  F: '0-15',
  G: null,
};

export function gradeMeaning(grade: string, text: Catalogue): string {
  const meaning = text.gradeMeanings[grade];
  if (!meaning) return text.unknownGrade;
  const scores = GRADE_SCORES[grade];
  return scores ? text.gradeWithScores(meaning, scores) : meaning;
}
