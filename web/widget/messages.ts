/**
 * Every text the widget shows, per locale, and how a requested locale is resolved. en-GB is the one
 * catalogue; another locale is added as a complete `Catalogue` (the type makes a missing text a
 * compile error), never as a partial one that would mix languages on one card. Dates, money and
 * numbers are not texts: Intl formats them in the requested locale (widget-format.ts).
 */
import type { WidgetErrorCode } from './widget-errors.js';

export interface Catalogue {
  /** The frame's page and iframe title, and the name of the region. */
  title: string;
  loading: string;
  reportFor: (company: string) => string;
  unnamedCompany: string;
  companyNumber: (registrationNumber: string) => string;
  /** The spec's company types (2.1); an unknown type is shown as the API spells it. */
  companyTypes: Record<string, string>;
  creditGrade: (grade: string) => string;
  /** Grades A-G (spec 2.1). */
  gradeMeanings: Record<string, string>;
  unknownGrade: string;
  /** A company no credit-data source has scored: no grade is shown, and this says why. */
  noCreditData: string;
  noCreditDataExplained: string;
  gradeWithScores: (meaning: string, scores: string) => string;
  creditScore: string;
  scoreOutOf100: (score: string) => string;
  facts: {
    industryAverageGrade: string;
    previousGrade: string;
    lastAssessed: string;
    creditLimit: string;
    companyNotices: string;
    directorNotices: string;
  };
  notKnown: string;
  noneRecorded: string;
  gradeAndMeaning: (grade: string, meaning: string) => string;
  previousGradeChanged: (grade: string, date: string) => string;
  /** A count of legal notices, by its plural category in this language (Intl.PluralRules). */
  notices: (count: string, category: Intl.LDMLPluralRule) => string;
  noticesWithValue: (notices: string, value: string) => string;
  /** What an end user reads for each failure: plain words, no codes, no token jargon. */
  errors: Record<WidgetErrorCode, string>;
}

const TRY_LATER = 'The credit report cannot be shown right now. Please try again later.';

const EN_GB: Catalogue = {
  title: 'Credit report',
  loading: 'Loading credit report…',
  reportFor: (company) => `Credit report for ${company}`,
  unnamedCompany: 'Your company',
  companyNumber: (registrationNumber) => `Company number ${registrationNumber}`,
  companyTypes: {
    LIMITED_COMPANY: 'Limited company',
    LIMITED_LIABILITY_PARTNERSHIP: 'Limited liability partnership',
    SOLE_TRADER: 'Sole trader',
    STARTUP: 'Start-up',
  },
  creditGrade: (grade) => `Credit grade ${grade}`,
  gradeMeanings: {
    A: 'Minimum risk',
    B: 'Low risk',
    C: 'Below average risk',
    D: 'Above average risk',
    E: 'High risk',
    F: 'Maximum risk',
    G: 'Company dissolved',
  },
  unknownGrade: 'Unknown grade',
  noCreditData: 'No credit data',
  noCreditDataExplained: 'No credit reference agency has data on this company yet, so it has no credit grade.',
  gradeWithScores: (meaning, scores) => `${meaning} (scores ${scores})`,
  creditScore: 'Credit score',
  scoreOutOf100: (score) => `${score} / 100`,
  facts: {
    industryAverageGrade: 'Industry average grade',
    previousGrade: 'Previous grade',
    lastAssessed: 'Last assessed',
    creditLimit: 'Credit limit',
    companyNotices: 'Legal notices against the company (last 12 months)',
    directorNotices: 'Legal notices against directors (last 12 months)',
  },
  notKnown: 'Not known',
  noneRecorded: 'None recorded',
  gradeAndMeaning: (grade, meaning) => `${grade}: ${meaning}`,
  previousGradeChanged: (grade, date) => `${grade}, changed ${date}`,
  notices: (count, category) => `${count} ${category === 'one' ? 'notice' : 'notices'}`,
  noticesWithValue: (notices, value) => `${notices}, ${value}`,
  errors: {
    INVALID_OPTIONS: TRY_LATER,
    ELEMENT_NOT_FOUND: TRY_LATER,
    WRONG_TOKEN_KIND: 'The credit report cannot be shown here. Please contact the website you are using.',
    TOKEN_INVALID: 'This link is not valid – please refresh the page.',
    TOKEN_EXPIRED: 'This link has expired – please refresh the page.',
    NO_PROFILE: 'There is no company profile to show a credit report for yet.',
    NOT_ELIGIBLE: 'A credit report is available only for limited companies with a company registration number.',
    NETWORK_ERROR: 'The credit report could not be loaded. Please check your internet connection and refresh the page.',
    SERVER_ERROR: 'The credit report service is not available at the moment. Please try again later.',
    UNEXPECTED_RESPONSE: TRY_LATER,
  },
};

export const DEFAULT_LOCALE = 'en-GB';

/** The complete catalogues, by the locale they are written in. */
const CATALOGUES: Readonly<Record<string, Catalogue>> = { [DEFAULT_LOCALE]: EN_GB };

export interface ResolvedLocale {
  /** The locale Intl formats dates, money and numbers in. */
  formatting: string;
  /** The catalogue's locale: the texts' language (the `lang` attribute). */
  language: string;
  text: Catalogue;
  /** True when no catalogue speaks the requested language and en-GB stands in for it. */
  fellBack: boolean;
}

/**
 * The catalogue written in the requested locale, else one in its language (en-US reads en-GB's
 * texts, its dates formatted the US way), else en-GB for everything, texts and formats alike, so
 * that one card never mixes two languages. Throws a RangeError for a tag that is not BCP 47.
 */
export function resolveLocale(requested: string | undefined): ResolvedLocale {
  if (requested === undefined) return { formatting: DEFAULT_LOCALE, language: DEFAULT_LOCALE, text: EN_GB, fellBack: false };
  const [tag] = Intl.getCanonicalLocales(requested);
  if (!tag) throw new RangeError(`Incorrect locale information provided: ${requested}`);
  const exact = CATALOGUES[tag];
  if (exact) return { formatting: tag, language: tag, text: exact, fellBack: false };
  const language = tag.split('-')[0]!.toLowerCase();
  const sameLanguage = Object.keys(CATALOGUES).find((candidate) => candidate.split('-')[0]!.toLowerCase() === language);
  if (sameLanguage) return { formatting: tag, language: sameLanguage, text: CATALOGUES[sameLanguage]!, fellBack: false };
  return { formatting: DEFAULT_LOCALE, language: DEFAULT_LOCALE, text: EN_GB, fellBack: true };
}
