/**
 * Companies House's code lists (company types, statuses, SIC descriptions; vendored in
 * code-lists.yml) and how the register's facts map to ours: its many company types to our four,
 * its statuses to ACTIVE or DISSOLVED, a SIC code to our sector. The mapping is documented in
 * docs/operations.md ("Loading the company register"); the register's own codes are kept beside ours.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { repositoryPath } from '../../../kernel/repository-root.js';
import type { COMPANY_TYPES, SECTORS } from '../company-information-schemas.js';

type CompanyType = (typeof COMPANY_TYPES)[number];
type Sector = (typeof SECTORS)[number];

interface CodeLists {
  company_type: Record<string, string>;
  company_status: Record<string, string>;
  sic_descriptions: Record<string, string>;
}

let loaded: CodeLists | undefined;

/** Read on first use: an import or an API lookup needs them, a server that does neither never reads the file. */
function codeLists(): CodeLists {
  loaded ??= parse(readFileSync(repositoryPath('src', 'modules', 'companies', 'companies-house', 'code-lists.yml'), 'utf8')) as CodeLists;
  return loaded;
}

const normalised = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/**
 * The bulk file names a company's type by a description that is not always the code list's
 * ("PRI/LTD BY GUAR/NSC (Private, limited by guarantee, no share capital)"): these are the ones
 * that differ, by their normalised text.
 */
const BULK_CATEGORY_CODES: Record<string, string> = {
  'private limited company': 'ltd',
  'public limited company': 'plc',
  'pri ltd by guar nsc private limited by guarantee no share capital': 'private-limited-guarant-nsc',
  'pri lbg nsc private limited by guarantee no share capital use of limited exemption': 'private-limited-guarant-nsc-limited-exemption',
  'priv ltd sect 30 private limited company section 30 of the companies act': 'private-limited-shares-section-30-exemption',
  'private unlimited': 'private-unlimited',
  'private unlimited company': 'private-unlimited',
  'community interest company': 'ltd',
  'limited liability partnership': 'llp',
  'limited partnership': 'limited-partnership',
  'scottish partnership': 'scottish-partnership',
  'overseas entity': 'registered-overseas-entity',
  'other company type': 'other',
  'charitable incorporated organisation': 'charitable-incorporated-organisation',
  'scottish charitable incorporated organisation': 'scottish-charitable-incorporated-organisation',
  'registered society': 'registered-society-non-jurisdictional',
};

let byDescription: Map<string, string> | undefined;

/** The register's type code of a bulk-file category (or an API type code, returned as it is); null when unknown. */
export function companyTypeCode(categoryOrCode: string): string | null {
  const lists = codeLists();
  if (lists.company_type[categoryOrCode]) return categoryOrCode;
  const key = normalised(categoryOrCode);
  if (BULK_CATEGORY_CODES[key]) return BULK_CATEGORY_CODES[key];
  byDescription ??= new Map(Object.entries(lists.company_type).map(([code, description]) => [normalised(description), code]));
  return byDescription.get(key) ?? null;
}

/** Partnerships are ours LIMITED_LIABILITY_PARTNERSHIP; every other registered body is a company, limited or not. */
const PARTNERSHIP_CODES = new Set(['llp', 'limited-partnership', 'scottish-partnership']);

export function companyTypeOf(code: string | null): CompanyType {
  return code !== null && PARTNERSHIP_CODES.has(code) ? 'LIMITED_LIABILITY_PARTNERSHIP' : 'LIMITED_COMPANY';
}

let statusByDescription: Map<string, string> | undefined;

/**
 * The register's status code of a bulk-file status ("Active - Proposal to Strike off" is active with
 * a detail) or of an API status code; null when unknown.
 */
export function companyStatusCode(statusOrCode: string): string | null {
  const lists = codeLists();
  if (lists.company_status[statusOrCode]) return statusOrCode;
  statusByDescription ??= new Map(Object.entries(lists.company_status).map(([code, description]) => [normalised(description), code]));
  const main = normalised(statusOrCode.split(' - ')[0] ?? statusOrCode);
  return statusByDescription.get(main) ?? (main === 'in administration' || main === 'administration' ? 'administration' : null);
}

/** Companies that no longer exist are DISSOLVED (grade G); every other status is still a company on the register. */
const ENDED_STATUSES = new Set(['dissolved', 'converted-closed', 'closed', 'removed']);

export function companyStatusOf(code: string | null): 'ACTIVE' | 'DISSOLVED' {
  return code !== null && ENDED_STATUSES.has(code) ? 'DISSOLVED' : 'ACTIVE';
}

/**
 * The SIC code of a bulk-file SIC text ("62012 - Business and domestic software development"), or of
 * a bare code; null for "None Supplied" and for a code Companies House's own list does not have.
 */
export function sicCodeOf(text: string): string | null {
  const code = /^\s*(\d{4,5})\b/.exec(text)?.[1];
  return code !== undefined && codeLists().sic_descriptions[code] !== undefined ? code : null;
}

/** Our sector of a SIC 2007 code, by its division (the first two digits); the few exceptions by the full code. */
const SECTOR_OF_CODE: Record<string, Sector> = {
  '49410': 'HAULAGE',
  '53100': 'COURIER',
  '53201': 'COURIER',
  '53202': 'COURIER',
  '74990': 'NONE',
  '99999': 'NONE',
};

const SECTOR_OF_DIVISION: ReadonlyArray<readonly [number, number, Sector]> = [
  [1, 3, 'AGRICULTURE'],
  [10, 17, 'MANUFACTURING'],
  [18, 18, 'PRINT_PUBLISHING'],
  [19, 33, 'MANUFACTURING'],
  [41, 43, 'CONSTRUCTION'],
  [45, 45, 'AUTOMOTIVE'],
  [46, 46, 'WHOLESALE'],
  [47, 47, 'RETAIL'],
  [49, 52, 'TRANSPORTATION'],
  [53, 53, 'COURIER'],
  [55, 56, 'HOTELS_HOUSE'],
  [58, 58, 'PRINT_PUBLISHING'],
  [59, 60, 'MEDIA_AND_ENTERTAINMENT'],
  [61, 63, 'IT_RELATED'],
  [64, 66, 'FINANCIAL_SERVICES'],
  [68, 68, 'PROPERTY'],
  [69, 75, 'PROFESSIONAL_SERVICES'],
  [78, 78, 'RECRUITMENT'],
  [80, 80, 'SECURITY_SERVICES'],
  [77, 82, 'BUSINESS_SERVICES'],
  [85, 85, 'EDUCATION'],
  [86, 88, 'HEALTHCARE_CARE'],
  [90, 93, 'MEDIA_AND_ENTERTAINMENT'],
  [94, 94, 'CHARITIES'],
];

/** The sector of a company's first SIC code; NONE when it has none, OTHER when its division is not one of ours. */
export function sectorOf(sicCodes: readonly string[]): Sector {
  const first = sicCodes[0];
  if (first === undefined) return 'NONE';
  if (SECTOR_OF_CODE[first]) return SECTOR_OF_CODE[first];
  const division = Number(first.slice(0, 2));
  return SECTOR_OF_DIVISION.find(([from, to]) => division >= from && division <= to)?.[2] ?? 'OTHER';
}
