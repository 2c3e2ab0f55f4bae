/**
 * The demo company registry: life-like UK (and a few South African) companies across every
 * sector, company type and credit grade band. Deterministic: generated from a fixed seed.
 *
 * Registration numbers: England & Wales companies 8 digits ("08234567"), Scotland "SC" + 6 digits,
 * Northern Ireland "NI" + 6 digits, LLPs "OC" + 6 digits; sole traders and start-ups are not on the
 * register and get a synthetic "ST"/"SU" + 6 digits number so they can be looked up in the demo.
 * South African numbers look like "2015/123456/07".
 */
import { createRandom, type Random } from './prng.js';

export const SECTORS = [
  'AGRICULTURE', 'AUTOMOTIVE', 'BUSINESS_SERVICES', 'CHARITIES', 'CONSTRUCTION', 'COURIER', 'DISTRIBUTION',
  'EDUCATION', 'FINANCIAL_SERVICES', 'HAULAGE', 'HEALTHCARE_CARE', 'HOTELS_HOUSE', 'IMPORT_EXPORT', 'IT_RELATED',
  'MANUFACTURING', 'MEDIA_AND_ENTERTAINMENT', 'NONE', 'OTHER', 'PRINT_PUBLISHING', 'PROFESSIONAL_SERVICES',
  'PROPERTY', 'RECRUITMENT', 'RETAIL', 'SECURITY_SERVICES', 'TRADE', 'TRANSPORTATION', 'WHOLESALE',
] as const;
export type SectorName = (typeof SECTORS)[number];
export type CompanyTypeName = 'SOLE_TRADER' | 'LIMITED_LIABILITY_PARTNERSHIP' | 'LIMITED_COMPANY' | 'STARTUP';

export interface DemoCompany {
  countryCode: 'GB' | 'ZA';
  registrationNumber: string;
  name: string;
  type: CompanyTypeName;
  sector: SectorName;
  status: 'ACTIVE' | 'DISSOLVED';
  vatStatus: 'REGISTERED' | 'NOT_REGISTERED' | 'UNKNOWN';
  incorporatedAt: Date;
  scoreValue: number;
  previousScoreValue: number | null;
  scoreChangedAt: Date | null;
  scoreLastAssessedAt: Date;
  creditLimitValue: number;
  creditLimitCurrency: 'GBP' | 'ZAR';
  employeesNumber: number;
  website: string | null;
  address: { simpleValue: string; street: string; city: string; postalCode: string };
  companyNoticesCount: number;
  companyNoticesValue: number;
  directorsNoticesCount: number;
  directorsNoticesValue: number;
  noticesCurrency: 'GBP' | 'ZAR';
}

/** Fixed companies that tests and the README's examples rely on. */
export const FIXED_COMPANIES: DemoCompany[] = [
  fixed('09876543', 'ACME WIDGETS LIMITED', 'LIMITED_COMPANY', 'MANUFACTURING', 95, 88, 'Sheffield', 'S1 2HE'),
  fixed('08234567', 'THORNBURY JOINERY LTD', 'LIMITED_COMPANY', 'CONSTRUCTION', 72, null, 'Bristol', 'BS35 2AA'),
  fixed('SC412345', 'HARBOURSIDE LOGISTICS LIMITED', 'LIMITED_COMPANY', 'HAULAGE', 42, 55, 'Aberdeen', 'AB11 5BN'),
  fixed('OC301234', 'PENNINE ADVISORY LLP', 'LIMITED_LIABILITY_PARTNERSHIP', 'PROFESSIONAL_SERVICES', 84, null, 'Leeds', 'LS1 4DY'),
  fixed('ST000001', 'MARY OKAFOR CATERING', 'SOLE_TRADER', 'HOTELS_HOUSE', 30, null, 'Croydon', 'CR0 1NX'),
  fixed('04512398', 'OLD MILL BAKERY LIMITED', 'LIMITED_COMPANY', 'RETAIL', 0, 20, 'Norwich', 'NR2 1QE', 'DISSOLVED'),
];

function fixed(
  registrationNumber: string, name: string, type: CompanyTypeName, sector: SectorName, score: number,
  previous: number | null, city: string, postalCode: string, status: 'ACTIVE' | 'DISSOLVED' = 'ACTIVE',
): DemoCompany {
  return {
    countryCode: 'GB', registrationNumber, name, type, sector, status,
    vatStatus: 'REGISTERED',
    incorporatedAt: new Date('2012-03-14T00:00:00Z'),
    scoreValue: score,
    previousScoreValue: previous,
    scoreChangedAt: previous === null ? null : new Date('2026-06-01T09:00:00Z'),
    scoreLastAssessedAt: new Date('2026-11-01T09:00:00Z'),
    creditLimitValue: score * 1500,
    creditLimitCurrency: 'GBP',
    employeesNumber: 24,
    website: `https://www.${name.toLowerCase().split(' ')[0]}.example.co.uk`,
    address: { simpleValue: `1 High Street, ${city}, ${postalCode}`, street: '1 High Street', city, postalCode },
    companyNoticesCount: 0, companyNoticesValue: 0, directorsNoticesCount: 0, directorsNoticesValue: 0,
    noticesCurrency: 'GBP',
  };
}

const PLACES = [
  ['Thornbury', 'BS35'], ['Harrogate', 'HG1'], ['Kendal', 'LA9'], ['Truro', 'TR1'], ['Ipswich', 'IP1'], ['Leicester', 'LE1'],
  ['Swansea', 'SA1'], ['Cardiff', 'CF10'], ['Glasgow', 'G2'], ['Dundee', 'DD1'], ['Belfast', 'BT1'], ['Derby', 'DE1'],
  ['Exeter', 'EX1'], ['York', 'YO1'], ['Lincoln', 'LN1'], ['Reading', 'RG1'], ['Salford', 'M5'], ['Coventry', 'CV1'],
  ['Brighton', 'BN1'], ['Hull', 'HU1'], ['Stockport', 'SK1'], ['Wrexham', 'LL11'], ['Inverness', 'IV1'], ['Luton', 'LU1'],
] as const;
const FIRST = [
  'Albion', 'Beacon', 'Bramble', 'Castle', 'Cedar', 'Copper', 'Crown', 'Dale', 'Eagle', 'Elm', 'Falcon', 'Fenwick',
  'Granite', 'Harbour', 'Heron', 'Highland', 'Ivy', 'Kestrel', 'Lark', 'Maple', 'Meridian', 'Northgate', 'Oak',
  'Orchard', 'Pennine', 'Quay', 'Riverside', 'Rowan', 'Saxon', 'Severn', 'Silver', 'Summit', 'Tamar', 'Thistle',
  'Tudor', 'Valley', 'Victoria', 'Weald', 'Willow', 'Windmill', 'Yew', 'Anchor', 'Blackthorn', 'Clyde', 'Derwent',
] as const;
const TRADE_BY_SECTOR: Record<SectorName, readonly string[]> = {
  AGRICULTURE: ['Farms', 'Agri Supplies', 'Dairy'], AUTOMOTIVE: ['Motors', 'Garage Services', 'Auto Parts'],
  BUSINESS_SERVICES: ['Business Services', 'Office Solutions'], CHARITIES: ['Community Trust', 'Foundation'],
  CONSTRUCTION: ['Builders', 'Construction', 'Roofing'], COURIER: ['Couriers', 'Express Delivery'],
  DISTRIBUTION: ['Distribution', 'Supply Co'], EDUCATION: ['Learning', 'Training Academy'],
  FINANCIAL_SERVICES: ['Financial Planning', 'Accountancy'], HAULAGE: ['Haulage', 'Freight'],
  HEALTHCARE_CARE: ['Care Homes', 'Healthcare'], HOTELS_HOUSE: ['Hotels', 'Inns', 'Guest House'],
  IMPORT_EXPORT: ['Trading', 'Import Export'], IT_RELATED: ['Software', 'Digital', 'IT Services'],
  MANUFACTURING: ['Engineering', 'Fabrication', 'Manufacturing'], MEDIA_AND_ENTERTAINMENT: ['Media', 'Studios'],
  NONE: ['Holdings'], OTHER: ['Enterprises', 'Group'], PRINT_PUBLISHING: ['Print', 'Publishing'],
  PROFESSIONAL_SERVICES: ['Consulting', 'Surveyors', 'Solicitors'], PROPERTY: ['Properties', 'Estates', 'Lettings'],
  RECRUITMENT: ['Recruitment', 'Staffing'], RETAIL: ['Stores', 'Boutique', 'Retail'],
  SECURITY_SERVICES: ['Security', 'Guarding'], TRADE: ['Plumbing & Heating', 'Electrical', 'Joinery'],
  TRANSPORTATION: ['Transport', 'Coaches'], WHOLESALE: ['Wholesale', 'Cash & Carry'],
};
const SUFFIX: Record<CompanyTypeName, readonly string[]> = {
  LIMITED_COMPANY: ['LIMITED', 'LTD'], LIMITED_LIABILITY_PARTNERSHIP: ['LLP'], SOLE_TRADER: [''], STARTUP: ['LTD'],
};
const STREETS = ['High Street', 'Station Road', 'Mill Lane', 'Church Street', 'Victoria Road', 'Market Place', 'Park Road'];
const ZA_PLACES = [['Johannesburg', '2001'], ['Cape Town', '8001'], ['Durban', '4001'], ['Pretoria', '0002']] as const;
const TYPES: CompanyTypeName[] = ['LIMITED_COMPANY', 'LIMITED_COMPANY', 'LIMITED_COMPANY', 'LIMITED_COMPANY', 'LIMITED_LIABILITY_PARTNERSHIP', 'SOLE_TRADER', 'STARTUP'];
/** Score bands of spec 2.1 (F 2-15 … A 91-100), cycled so every grade is well represented. */
const SCORE_BANDS: Array<[number, number]> = [[91, 100], [81, 90], [51, 80], [26, 50], [16, 25], [2, 15]];
const ASSESSED = Date.UTC(2026, 9, 1);

function registrationNumber(rnd: Random, type: CompanyTypeName, index: number, za: boolean): string {
  const six = String(100000 + ((index * 7919) % 900000)).padStart(6, '0');
  if (za) return `${rnd.int(1995, 2024)}/${six}/07`;
  if (type === 'LIMITED_LIABILITY_PARTNERSHIP') return `OC${six}`;
  if (type === 'SOLE_TRADER') return `ST${six}`;
  if (type === 'STARTUP') return `SU${six}`;
  const region = rnd.next();
  if (region < 0.08) return `SC${six}`;
  if (region < 0.12) return `NI${six}`;
  return `${String(rnd.int(1, 15)).padStart(2, '0')}${six}`;
}

/** Generated companies (after the fixed ones); `offset` lets a benchmark generate 100,000 distinct ones. */
export function* generateCompanies(count: number, offset = 0): Generator<DemoCompany> {
  const rnd = createRandom(20261121 + offset);
  for (let i = offset; i < offset + count; i++) {
    const za = i % 40 === 39;
    const type = TYPES[i % TYPES.length] as CompanyTypeName;
    const sector = SECTORS[i % SECTORS.length] as SectorName;
    const dissolved = i % 53 === 17;
    const [min, max] = SCORE_BANDS[i % SCORE_BANDS.length] as [number, number];
    const score = dissolved ? rnd.int(0, 10) : rnd.int(min, max);
    const hasPrevious = rnd.chance(0.35);
    const previous = hasPrevious ? Math.max(0, Math.min(100, score + rnd.int(-20, 20))) : null;
    const [city, district] = za ? rnd.pick(ZA_PLACES) : rnd.pick(PLACES);
    const postalCode = za ? district : `${district} ${rnd.int(1, 9)}${String.fromCharCode(65 + rnd.int(0, 25))}${String.fromCharCode(65 + rnd.int(0, 25))}`;
    const street = `${rnd.int(1, 220)} ${rnd.pick(STREETS)}`;
    const trade = rnd.pick(TRADE_BY_SECTOR[sector]);
    const suffix = rnd.pick(SUFFIX[type]);
    // The counter in the name keeps names unique at any count without reading like a test fixture.
    const base = `${FIRST[i % FIRST.length]} ${trade}${i >= FIRST.length ? ` ${Math.floor(i / FIRST.length) + 1}` : ''}`;
    const name = (type === 'SOLE_TRADER' ? base : `${base} ${suffix}`).toUpperCase().trim();
    const currency = za ? 'ZAR' : 'GBP';
    const noticeCount = score < 26 ? rnd.int(1, 4) : rnd.chance(0.1) ? 1 : 0;
    yield {
      countryCode: za ? 'ZA' : 'GB',
      registrationNumber: registrationNumber(rnd, type, i, za),
      name,
      type,
      sector,
      status: dissolved ? 'DISSOLVED' : 'ACTIVE',
      vatStatus: rnd.pick(['REGISTERED', 'REGISTERED', 'NOT_REGISTERED', 'UNKNOWN'] as const),
      incorporatedAt: new Date(Date.UTC(type === 'STARTUP' ? rnd.int(2025, 2026) : rnd.int(1985, 2024), rnd.int(0, 11), rnd.int(1, 28))),
      scoreValue: score,
      previousScoreValue: previous,
      scoreChangedAt: previous === null ? null : new Date(ASSESSED - rnd.int(1, 300) * 86_400_000),
      scoreLastAssessedAt: new Date(ASSESSED),
      creditLimitValue: Math.round(score * rnd.int(200, 4000) / 100) * 100,
      creditLimitCurrency: currency,
      employeesNumber: type === 'SOLE_TRADER' ? 1 : rnd.int(2, 250),
      website: rnd.chance(0.7) ? `https://www.${base.toLowerCase().replace(/[^a-z0-9]+/g, '')}.example.co.uk` : null,
      address: { simpleValue: `${street}, ${city}, ${postalCode}`, street, city, postalCode },
      companyNoticesCount: noticeCount,
      companyNoticesValue: noticeCount * rnd.int(500, 12000),
      directorsNoticesCount: score < 16 ? rnd.int(0, 2) : 0,
      directorsNoticesValue: score < 16 ? rnd.int(0, 8000) : 0,
      noticesCurrency: currency,
    };
  }
}

export function demoCompanies(count = 400): DemoCompany[] {
  return [...FIXED_COMPANIES, ...generateCompanies(count - FIXED_COMPANIES.length)];
}
