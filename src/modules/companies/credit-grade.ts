/**
 * Credit grades from a company score (spec 2.1): F 2-15 (maximum risk), E 16-25, D 26-50, C 51-80,
 * B 81-90, A 91-100; G for a dissolved company whatever its last score. Scores 0 and 1 lie below
 * the lowest band: they are graded F, the maximum-risk grade a live company can have.
 * Marketplace V1 knows only A-E (spec 2.1): there F and G are shown as E, the worst grade it knows.
 */
export const GRADES = ['A', 'B', 'C', 'D', 'E', 'F', 'G'] as const;
export type Grade = (typeof GRADES)[number];
export type MarketplaceV1Grade = Exclude<Grade, 'F' | 'G'>;

/** Lowest score of each band, best first. */
const BAND_MINIMUMS: ReadonlyArray<readonly [Grade, number]> = [
  ['A', 91],
  ['B', 81],
  ['C', 51],
  ['D', 26],
  ['E', 16],
  ['F', 0],
];

export function gradeFor(score: number, dissolved = false): Grade {
  if (dissolved) return 'G';
  const band = BAND_MINIMUMS.find(([, minimum]) => score >= minimum);
  return band ? band[0] : 'F';
}

export function marketplaceV1Grade(grade: Grade): MarketplaceV1Grade {
  return grade === 'F' || grade === 'G' ? 'E' : grade;
}
