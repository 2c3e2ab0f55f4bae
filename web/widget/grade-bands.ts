/** What each credit grade means (spec 2.1): the band of scores it stands for, and its risk. */
export const GRADE_BANDS: Record<string, { meaning: string; scores: string | null }> = {
  A: { meaning: 'Minimum risk', scores: '91-100' },
  B: { meaning: 'Low risk', scores: '81-90' },
  C: { meaning: 'Below average risk', scores: '51-80' },
  D: { meaning: 'Above average risk', scores: '26-50' },
  E: { meaning: 'High risk', scores: '16-25' },
  F: { meaning: 'Maximum risk', scores: '0-15' },
  G: { meaning: 'Company dissolved', scores: null },
};

export function gradeMeaning(grade: string): string {
  const band = GRADE_BANDS[grade];
  if (!band) return 'Unknown grade';
  return band.scores ? `${band.meaning} (scores ${band.scores})` : band.meaning;
}
