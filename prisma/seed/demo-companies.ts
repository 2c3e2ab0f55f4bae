/**
 * The demo company registry: life-like UK companies (and a few South African ones) across every
 * sector, company type and credit grade band. Pure and deterministic: no I/O, no Math.random.
 *
 * The first entries are FIXED_COMPANIES (documented below; tests and examples rely on them), then
 * generated companies. `demoCompanies(n)` is always a prefix of `demoCompanyStream(m)` for n <= m,
 * so a benchmark can stream 100,000 companies on top of the seeded 400 without duplicates.
 *
 * Names: registry style (upper case, as Companies House shows them), "<WORD> <WORD> <TRADE> <SUFFIX>",
 * e.g. "KESTREL VALLEY SOFTWARE LTD". The three word lists have pairwise coprime lengths and item i
 * takes a word chosen by (i mod len) from each list, so names are unique for the first 64*35*81 = 181,440 items
 * (the Chinese remainder theorem); beyond that a generation number is appended.
 *
 * Registration numbers (unique per country by construction; collisions with fixed ones are skipped):
 * - LIMITED_COMPANY: England & Wales 8 digits ("08234567"), Scotland "SC" + 6 digits,
 *   Northern Ireland "NI" + 6 digits; the town of the address matches the jurisdiction.
 * - LIMITED_LIABILITY_PARTNERSHIP: "OC" + 6 digits (England & Wales), "SO" (Scotland), "NC" (NI).
 * - STARTUP: recently incorporated limited companies, so real-format numbers from the recent range
 *   ("15xxxxxx"/"16xxxxxx") and incorporation in the last 18 months.
 * - SOLE_TRADER: not on the companies register at all. The demo registry still gives them a
 *   synthetic number "ST" + 6 digits (no Companies House prefix looks like it) so that they can be
 *   searched and looked up like any other row; the credit report/widget rule ("limited company with a
 *   valid registration number") must treat them as not eligible.
 * - ZA (every 40th generated company): "YYYY/NNNNNN/07" (07 = private company), "(PTY) LTD" names,
 *   amounts in ZAR.
 *
 * Scores follow the bands of spec 2.1: A 91-100, B 81-90, C 51-80, D 26-50, E 16-25, F 2-15;
 * a dissolved company (status DISSOLVED, about 2%) is grade G and has scoreValue 0 (its last
 * score before dissolution is kept as previousScoreValue).
 */
import type { CompanyStatus, CompanyType, Sector, VatStatus } from '../../src/generated/prisma/enums.js';
import { createRandom, seedFor, type Random } from './prng.js';
import { COMPANY_TYPES as DECLARED_COMPANY_TYPES, SECTORS as DECLARED_SECTORS } from '../../src/modules/companies/company-information-schemas.js';

export interface DemoAddress {
  simpleValue: string;
  street: string;
  houseNumber?: string;
  city: string;
  province: string;
  postalCode: string;
}

/** One row of the `company` table, minus generated columns (id, nameLower, timestamps). */
export interface DemoCompany {
  countryCode: 'GB' | 'ZA';
  registrationNumber: string;
  name: string;
  type: CompanyType;
  sector: Sector;
  status: CompanyStatus;
  vatStatus: VatStatus;
  incorporatedAt: Date;
  scoreValue: number;
  previousScoreValue: number | null;
  scoreChangedAt: Date | null;
  scoreLastAssessedAt: Date;
  creditLimitValue: number;
  creditLimitCurrency: 'GBP' | 'ZAR';
  employeesNumber: number;
  website: string | null;
  address: DemoAddress;
  companyNoticesCount: number;
  companyNoticesValue: number;
  directorsNoticesCount: number;
  directorsNoticesValue: number;
  noticesCurrency: 'GBP' | 'ZAR';
}

/** The row to insert: DemoCompany plus the lower-cased name used by the indexed prefix search. */
export function companyRow(c: DemoCompany): DemoCompany & { nameLower: string } {
  return { ...c, nameLower: c.name.toLowerCase() };
}

/** Date every demo score was last assessed; scores "changed" at some point before it. */
export const SCORE_ASSESSED_AT = new Date('2026-11-01T09:00:00Z');

/** The demo draws from the lists the API declares (the same order, so the same demo). */
export const SECTORS: readonly Sector[] = DECLARED_SECTORS;
export const COMPANY_TYPES: readonly CompanyType[] = DECLARED_COMPANY_TYPES;

// ------------------------------------------------------------------------------------------ fixed

interface FixedSpec {
  registrationNumber: string;
  name: string;
  type: CompanyType;
  sector: Sector;
  score: number;
  previous: number | null;
  status?: CompanyStatus;
  vat: VatStatus;
  incorporated: string;
  creditLimit: number;
  employees: number;
  website: string | null;
  address: DemoAddress;
  notices?: [companyCount: number, companyValue: number, directorsCount: number, directorsValue: number];
  countryCode?: 'GB' | 'ZA';
}

function fixed(s: FixedSpec): DemoCompany {
  const currency = s.countryCode === 'ZA' ? 'ZAR' : 'GBP';
  const [cc, cv, dc, dv] = s.notices ?? [0, 0, 0, 0];
  return {
    countryCode: s.countryCode ?? 'GB',
    registrationNumber: s.registrationNumber,
    name: s.name,
    type: s.type,
    sector: s.sector,
    status: s.status ?? 'ACTIVE',
    vatStatus: s.vat,
    incorporatedAt: new Date(`${s.incorporated}T00:00:00Z`),
    scoreValue: s.score,
    previousScoreValue: s.previous,
    scoreChangedAt: s.previous === null ? null : new Date('2026-06-01T09:00:00Z'),
    scoreLastAssessedAt: SCORE_ASSESSED_AT,
    creditLimitValue: s.creditLimit,
    creditLimitCurrency: currency,
    employeesNumber: s.employees,
    website: s.website,
    address: s.address,
    companyNoticesCount: cc,
    companyNoticesValue: cv,
    directorsNoticesCount: dc,
    directorsNoticesValue: dv,
    noticesCurrency: currency,
  };
}

function addr(street: string, city: string, province: string, postalCode: string, houseNumber?: string): DemoAddress {
  const simpleValue = [street, houseNumber, city, postalCode].filter(Boolean).join(', ');
  return houseNumber ? { simpleValue, street, houseNumber, city, province, postalCode } : { simpleValue, street, city, province, postalCode };
}

/**
 * Fixed demo companies, always present in a seeded demo database (grade in brackets):
 *
 * | registrationNumber | name                              | type / sector                         | score (grade)        |
 * |--------------------|-----------------------------------|---------------------------------------|----------------------|
 * | 09876543           | ACME WIDGETS LIMITED              | LIMITED_COMPANY / MANUFACTURING       | 95 (A), previous 88 (B) |
 * | 11223344           | ACME WIDGETS HOLDINGS LIMITED     | LIMITED_COMPANY / NONE                | 86 (B)  (2nd "acme" prefix hit) |
 * | 08234567           | THORNBURY JOINERY LTD             | LIMITED_COMPANY / TRADE               | 72 (C)               |
 * | SC412345           | HARBOURSIDE LOGISTICS LIMITED     | LIMITED_COMPANY / HAULAGE             | 42 (D), previous 55 (C), 1 company notice |
 * | OC301234           | PENNINE ADVISORY LLP              | LIMITED_LIABILITY_PARTNERSHIP / PROFESSIONAL_SERVICES | 84 (B) |
 * | NI612345           | LAGAN VALLEY FOODS LIMITED        | LIMITED_COMPANY / WHOLESALE           | 20 (E), notices      |
 * | 16012345           | NEWLEAF ROBOTICS LTD              | STARTUP / IT_RELATED                  | 58 (C), incorporated 2026-02-02 |
 * | ST000001           | BRAMBLE & CO CAFE                 | SOLE_TRADER / HOTELS_HOUSE            | 12 (F)               |
 * | 04512398           | OLD MILL BAKERY LIMITED           | LIMITED_COMPANY / RETAIL, DISSOLVED   | 0 (G), previous 20 (E) |
 * | ZA 2015/123456/07  | UBUNTU FRESH PRODUCE (PTY) LTD    | LIMITED_COMPANY / AGRICULTURE, ZAR    | 77 (C)               |
 */
export const FIXED_COMPANIES: readonly DemoCompany[] = [
  fixed({
    registrationNumber: '09876543',
    name: 'ACME WIDGETS LIMITED',
    type: 'LIMITED_COMPANY',
    sector: 'MANUFACTURING',
    score: 95,
    previous: 88,
    vat: 'REGISTERED',
    incorporated: '2015-10-19',
    creditLimit: 150_000,
    employees: 42,
    website: 'https://acme-widgets.example',
    address: addr('Unit 4, Parkway Industrial Estate', 'Sheffield', 'South Yorkshire', 'S9 3BL', 'Parkway Drive'),
  }),
  fixed({
    registrationNumber: '11223344',
    name: 'ACME WIDGETS HOLDINGS LIMITED',
    type: 'LIMITED_COMPANY',
    sector: 'NONE',
    score: 86,
    previous: null,
    vat: 'NOT_REGISTERED',
    incorporated: '2018-03-05',
    creditLimit: 60_000,
    employees: 2,
    website: null,
    address: addr('Unit 4, Parkway Industrial Estate', 'Sheffield', 'South Yorkshire', 'S9 3BL', 'Parkway Drive'),
  }),
  fixed({
    registrationNumber: '08234567',
    name: 'THORNBURY JOINERY LTD',
    type: 'LIMITED_COMPANY',
    sector: 'TRADE',
    score: 72,
    previous: null,
    vat: 'REGISTERED',
    incorporated: '2012-09-24',
    creditLimit: 35_000,
    employees: 11,
    website: 'https://thornbury-joinery.example',
    address: addr('7 Midland Way', 'Thornbury', 'Gloucestershire', 'BS35 2BS'),
  }),
  fixed({
    registrationNumber: 'SC412345',
    name: 'HARBOURSIDE LOGISTICS LIMITED',
    type: 'LIMITED_COMPANY',
    sector: 'HAULAGE',
    score: 42,
    previous: 55,
    vat: 'REGISTERED',
    incorporated: '2011-12-01',
    creditLimit: 18_000,
    employees: 64,
    website: 'https://harbourside-logistics.example',
    address: addr('22 Regent Quay', 'Aberdeen', 'Aberdeenshire', 'AB11 5BE'),
    notices: [1, 4_250, 0, 0],
  }),
  fixed({
    registrationNumber: 'OC301234',
    name: 'PENNINE ADVISORY LLP',
    type: 'LIMITED_LIABILITY_PARTNERSHIP',
    sector: 'PROFESSIONAL_SERVICES',
    score: 84,
    previous: null,
    vat: 'REGISTERED',
    incorporated: '2004-04-06',
    creditLimit: 45_000,
    employees: 18,
    website: 'https://pennine-advisory.example',
    address: addr('3 Park Square East', 'Leeds', 'West Yorkshire', 'LS1 2NE'),
  }),
  fixed({
    registrationNumber: 'NI612345',
    name: 'LAGAN VALLEY FOODS LIMITED',
    type: 'LIMITED_COMPANY',
    sector: 'WHOLESALE',
    score: 20,
    previous: 31,
    vat: 'REGISTERED',
    incorporated: '2009-06-15',
    creditLimit: 2_500,
    employees: 27,
    website: 'https://lagan-valley-foods.example',
    address: addr('14 Duncrue Street', 'Belfast', 'County Antrim', 'BT3 9AR'),
    notices: [2, 11_800, 1, 3_200],
  }),
  fixed({
    registrationNumber: '16012345',
    name: 'NEWLEAF ROBOTICS LTD',
    type: 'STARTUP',
    sector: 'IT_RELATED',
    score: 58,
    previous: null,
    vat: 'UNKNOWN',
    incorporated: '2026-02-02',
    creditLimit: 5_000,
    employees: 4,
    website: 'https://newleaf-robotics.example',
    address: addr('Bristol Robotics Hub, 1 Temple Way', 'Bristol', 'Bristol', 'BS1 6QA'),
  }),
  fixed({
    registrationNumber: 'ST000001',
    name: 'BRAMBLE & CO CAFE',
    type: 'SOLE_TRADER',
    sector: 'HOTELS_HOUSE',
    score: 12,
    previous: null,
    vat: 'NOT_REGISTERED',
    incorporated: '2019-05-01',
    creditLimit: 500,
    employees: 3,
    website: null,
    address: addr('41 Surrey Street', 'Croydon', 'Greater London', 'CR0 1RG'),
    notices: [1, 950, 0, 0],
  }),
  fixed({
    registrationNumber: '04512398',
    name: 'OLD MILL BAKERY LIMITED',
    type: 'LIMITED_COMPANY',
    sector: 'RETAIL',
    score: 0,
    previous: 20,
    status: 'DISSOLVED',
    vat: 'NOT_REGISTERED',
    incorporated: '2002-07-30',
    creditLimit: 0,
    employees: 0,
    website: null,
    address: addr('2 Timberhill', 'Norwich', 'Norfolk', 'NR1 3JZ'),
    notices: [3, 21_400, 1, 5_000],
  }),
  fixed({
    countryCode: 'ZA',
    registrationNumber: '2015/123456/07',
    name: 'UBUNTU FRESH PRODUCE (PTY) LTD',
    type: 'LIMITED_COMPANY',
    sector: 'AGRICULTURE',
    score: 77,
    previous: null,
    vat: 'REGISTERED',
    incorporated: '2015-03-09',
    creditLimit: 850_000,
    employees: 56,
    website: 'https://ubuntu-fresh.example',
    address: addr('18 Rissik Street', 'Johannesburg', 'Gauteng', '2001'),
  }),
];

// ------------------------------------------------------------------------------------------ word lists

/** 64 words (2^6). */
const FIRST_WORDS = [
  'ALBION',
  'ASHFORD',
  'BEACON',
  'BLACKTHORN',
  'BRAMBLEWOOD',
  'BRUNEL',
  'CALEDON',
  'CASTLEGATE',
  'CEDAR',
  'CLYDE',
  'COPPER',
  'COTSWOLD',
  'CROWN',
  'DALESWAY',
  'DERWENT',
  'EDEN',
  'ELMFIELD',
  'FENWICK',
  'FOXHALL',
  'GRANITE',
  'GREYFRIARS',
  'HADRIAN',
  'HARBOUR',
  'HAWTHORN',
  'HERON',
  'HIGHCLERE',
  'IVYBRIDGE',
  'KESTREL',
  'KINGSWAY',
  'LAKELAND',
  'LARKSPUR',
  'LINDEN',
  'MALVERN',
  'MAPLE',
  'MERCIA',
  'MERIDIAN',
  'NORTHGATE',
  'OAKWOOD',
  'ORCHARD',
  'PEVERIL',
  'PORTLAND',
  'QUAYSIDE',
  'RAVENSCROFT',
  'REDBROOK',
  'RIVERSIDE',
  'ROWAN',
  'SAXON',
  'SEVERN',
  'SHERWOOD',
  'SILVERDALE',
  'SOLENT',
  'SUMMIT',
  'TAMAR',
  'THAMES',
  'THISTLE',
  'TRENTHAM',
  'TUDOR',
  'TYNESIDE',
  'WESSEX',
  'WESTBURY',
  'WILLOW',
  'WINDMILL',
  'WOLDS',
  'YEWTREE',
] as const;
/** 35 words (5 x 7). */
const SECOND_WORDS = [
  'BRIDGE',
  'VALLEY',
  'PARK',
  'VALE',
  'GREEN',
  'HILL',
  'MOOR',
  'FIELD',
  'GATE',
  'CROSS',
  'MILL',
  'BROOK',
  'FORD',
  'LANE',
  'COURT',
  'HOUSE',
  'POINT',
  'STREET',
  'ROW',
  'SQUARE',
  'WHARF',
  'DOCK',
  'FORGE',
  'WORKS',
  'YARD',
  'HEATH',
  'RIDGE',
  'MEADOW',
  'GROVE',
  'CLIFF',
  'BAY',
  'EDGE',
  'HALL',
  'MANOR',
  'COMMON',
] as const;
/** Three trades per sector: 81 (3^4) trades; any 81 consecutive generated companies cover every sector. */
const TRADES: Record<Sector, readonly [string, string, string]> = {
  AGRICULTURE: ['FARMS', 'AGRICULTURAL SUPPLIES', 'DAIRIES'],
  AUTOMOTIVE: ['MOTORS', 'AUTOCENTRE', 'VEHICLE REPAIRS'],
  BUSINESS_SERVICES: ['BUSINESS SERVICES', 'OFFICE SOLUTIONS', 'FACILITIES MANAGEMENT'],
  CHARITIES: ['COMMUNITY TRUST', 'FOUNDATION', 'CHARITABLE SERVICES'],
  CONSTRUCTION: ['BUILDERS', 'CONSTRUCTION', 'ROOFING'],
  COURIER: ['COURIERS', 'EXPRESS PARCELS', 'SAME DAY DELIVERY'],
  DISTRIBUTION: ['DISTRIBUTION', 'SUPPLIES', 'FULFILMENT'],
  EDUCATION: ['LEARNING', 'TRAINING ACADEMY', 'TUTORS'],
  FINANCIAL_SERVICES: ['FINANCIAL PLANNING', 'ACCOUNTANCY', 'WEALTH MANAGEMENT'],
  HAULAGE: ['HAULAGE', 'FREIGHT', 'LOGISTICS'],
  HEALTHCARE_CARE: ['CARE HOMES', 'HEALTHCARE', 'DENTAL PRACTICE'],
  HOTELS_HOUSE: ['HOTELS', 'INNS', 'GUEST HOUSE'],
  IMPORT_EXPORT: ['TRADING', 'IMPORTS', 'GLOBAL TRADE'],
  IT_RELATED: ['SOFTWARE', 'DIGITAL', 'IT SERVICES'],
  MANUFACTURING: ['ENGINEERING', 'FABRICATIONS', 'PRECISION COMPONENTS'],
  MEDIA_AND_ENTERTAINMENT: ['MEDIA', 'STUDIOS', 'EVENTS'],
  NONE: ['HOLDINGS', 'VENTURES', 'INVESTMENTS'],
  OTHER: ['ENTERPRISES', 'GROUP', 'SERVICES'],
  PRINT_PUBLISHING: ['PRINT', 'PUBLISHING', 'PRESS'],
  PROFESSIONAL_SERVICES: ['CONSULTING', 'SURVEYORS', 'ARCHITECTS'],
  PROPERTY: ['PROPERTIES', 'ESTATES', 'LETTINGS'],
  RECRUITMENT: ['RECRUITMENT', 'STAFFING', 'TALENT'],
  RETAIL: ['STORES', 'BOUTIQUE', 'GARDEN CENTRE'],
  SECURITY_SERVICES: ['SECURITY', 'GUARDING', 'FIRE & SECURITY'],
  TRADE: ['PLUMBING & HEATING', 'ELECTRICAL', 'JOINERY'],
  TRANSPORTATION: ['TRANSPORT', 'COACHES', 'TRAVEL'],
  WHOLESALE: ['WHOLESALE', 'CASH & CARRY', 'FOODS'],
};
const TRADE_LIST: ReadonlyArray<readonly [Sector, string]> = SECTORS.flatMap((s) => TRADES[s].map((t) => [s, t] as const));

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}
const NA = FIRST_WORDS.length;
const NB = SECOND_WORDS.length;
const NT = TRADE_LIST.length;
if (gcd(NA, NB) !== 1 || gcd(NA, NT) !== 1 || gcd(NB, NT) !== 1) {
  throw new Error(`demo company word lists must have pairwise coprime lengths (${NA}, ${NB}, ${NT})`);
}
/** Generated names are unique up to this many companies (without a generation number). */
export const UNIQUE_NAME_CAPACITY = NA * NB * NT;

type Place = readonly [town: string, outward: string, province: string];
const ENGLAND_WALES: readonly Place[] = [
  ['Sheffield', 'S1', 'South Yorkshire'],
  ['Leeds', 'LS1', 'West Yorkshire'],
  ['Harrogate', 'HG1', 'North Yorkshire'],
  ['York', 'YO1', 'North Yorkshire'],
  ['Kendal', 'LA9', 'Cumbria'],
  ['Carlisle', 'CA1', 'Cumbria'],
  ['Newcastle upon Tyne', 'NE1', 'Tyne and Wear'],
  ['Durham', 'DH1', 'County Durham'],
  ['Manchester', 'M1', 'Greater Manchester'],
  ['Stockport', 'SK1', 'Greater Manchester'],
  ['Liverpool', 'L1', 'Merseyside'],
  ['Chester', 'CH1', 'Cheshire'],
  ['Birmingham', 'B1', 'West Midlands'],
  ['Coventry', 'CV1', 'West Midlands'],
  ['Leicester', 'LE1', 'Leicestershire'],
  ['Nottingham', 'NG1', 'Nottinghamshire'],
  ['Derby', 'DE1', 'Derbyshire'],
  ['Lincoln', 'LN1', 'Lincolnshire'],
  ['Norwich', 'NR1', 'Norfolk'],
  ['Ipswich', 'IP1', 'Suffolk'],
  ['Cambridge', 'CB1', 'Cambridgeshire'],
  ['Oxford', 'OX1', 'Oxfordshire'],
  ['Reading', 'RG1', 'Berkshire'],
  ['Luton', 'LU1', 'Bedfordshire'],
  ['London', 'EC2A', 'Greater London'],
  ['London', 'SE1', 'Greater London'],
  ['Croydon', 'CR0', 'Greater London'],
  ['Brighton', 'BN1', 'East Sussex'],
  ['Southampton', 'SO14', 'Hampshire'],
  ['Bristol', 'BS1', 'Bristol'],
  ['Thornbury', 'BS35', 'Gloucestershire'],
  ['Exeter', 'EX1', 'Devon'],
  ['Plymouth', 'PL1', 'Devon'],
  ['Truro', 'TR1', 'Cornwall'],
  ['Cardiff', 'CF10', 'South Glamorgan'],
  ['Swansea', 'SA1', 'West Glamorgan'],
  ['Wrexham', 'LL11', 'Clwyd'],
  ['Hull', 'HU1', 'East Riding of Yorkshire'],
  ['Milton Keynes', 'MK9', 'Buckinghamshire'],
];
const SCOTLAND: readonly Place[] = [
  ['Glasgow', 'G2', 'Lanarkshire'],
  ['Edinburgh', 'EH1', 'Midlothian'],
  ['Aberdeen', 'AB11', 'Aberdeenshire'],
  ['Dundee', 'DD1', 'Angus'],
  ['Inverness', 'IV1', 'Highland'],
  ['Stirling', 'FK8', 'Stirlingshire'],
];
const NORTHERN_IRELAND: readonly Place[] = [
  ['Belfast', 'BT1', 'County Antrim'],
  ['Derry', 'BT48', 'County Londonderry'],
  ['Newry', 'BT34', 'County Down'],
  ['Lisburn', 'BT28', 'County Antrim'],
];
const SOUTH_AFRICA: readonly Place[] = [
  ['Johannesburg', '2001', 'Gauteng'],
  ['Cape Town', '8001', 'Western Cape'],
  ['Durban', '4001', 'KwaZulu-Natal'],
  ['Pretoria', '0002', 'Gauteng'],
  ['Gqeberha', '6001', 'Eastern Cape'],
];
const STREETS = [
  'High Street',
  'Station Road',
  'Mill Lane',
  'Church Street',
  'Victoria Road',
  'Market Place',
  'Park Road',
  'King Street',
  'Queen Street',
  'London Road',
  'Bridge Street',
  'North Street',
  'Castle Street',
  'Albert Road',
  'New Road',
  'Commercial Road',
] as const;
const ZA_STREETS = ['Main Road', 'Church Street', 'Long Street', 'Jan Smuts Avenue', 'Voortrekker Road', 'Oxford Road'] as const;
const UNITS = ['Unit 2', 'Unit 5', 'Unit 12', 'Suite 3', 'First Floor', 'The Old Forge', 'Enterprise House'] as const;
/** Letters allowed in the inward part of a UK postcode (no C, I, K, M, O, V). */
const INWARD_LETTERS = 'ABDEFGHJLNPQRSTUWXYZ';

// ------------------------------------------------------------------------------------------ generation

/** Grade bands of spec 2.1 with a life-like spread (most companies C/D). Weights sum to 98; 2% are dissolved (G). */
const BANDS: ReadonlyArray<readonly [min: number, max: number, weight: number]> = [
  [91, 100, 10],
  [81, 90, 15],
  [51, 80, 33],
  [26, 50, 22],
  [16, 25, 10],
  [2, 15, 8],
];
const DISSOLVED_PERCENT = 2;
const STREAM_SEED = 20_261_121;

function pickScore(rnd: Random): number {
  let roll = rnd.int(1, 98);
  for (const [min, max, weight] of BANDS) {
    if (roll <= weight) return rnd.int(min, max);
    roll -= weight;
  }
  return rnd.int(51, 80);
}

function pickType(rnd: Random): CompanyType {
  const roll = rnd.int(1, 100);
  if (roll <= 62) return 'LIMITED_COMPANY';
  if (roll <= 72) return 'LIMITED_LIABILITY_PARTNERSHIP';
  if (roll <= 88) return 'SOLE_TRADER';
  return 'STARTUP';
}

const six = (n: number): string => String(n).padStart(6, '0');
/** Injective maps of the item index into a number range (multipliers are coprime with the range). */
const sixDigits = (i: number): string => six(100_000 + ((i * 387_631 + 4_242) % 900_000));
const ewNumber = (i: number): string => String(1_000_000 + ((i * 7_654_321 + 77) % 14_000_000)).padStart(8, '0');
const recentNumber = (i: number): string => String(15_000_000 + ((i * 1_234_567 + 313) % 2_000_000));

function postcode(rnd: Random, outward: string): string {
  const letter = (): string => INWARD_LETTERS.charAt(rnd.int(0, INWARD_LETTERS.length - 1));
  return `${outward} ${rnd.int(1, 9)}${letter()}${letter()}`;
}

function daysBefore(date: Date, days: number): Date {
  return new Date(date.getTime() - days * 86_400_000);
}

function titleSlug(s: string): string {
  return s
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** Generated company number `i` (0-based, after the fixed ones). Random access: depends on i only. */
export function generatedCompany(i: number): DemoCompany {
  const rnd = createRandom(seedFor(STREAM_SEED, i));
  const za = i % 40 === 39;
  // Each component depends on i modulo its list length only (so names stay unique), scrambled by a
  // multiplier coprime with that length so neighbouring companies do not read alphabetically.
  const [sector, trade] = TRADE_LIST[(i * 23 + 5) % NT] as readonly [Sector, string];
  const first = FIRST_WORDS[(i * 29 + 7) % NA] as string;
  const second = SECOND_WORDS[(i * 13 + 3) % NB] as string;
  const generation = Math.floor(i / UNIQUE_NAME_CAPACITY);
  const base = `${first} ${second} ${trade}${generation > 0 ? ` ${generation + 1}` : ''}`;

  const type: CompanyType = za ? 'LIMITED_COMPANY' : pickType(rnd);
  const region = rnd.int(1, 100); // jurisdiction for incorporated GB companies
  let registrationNumber: string;
  let places: readonly Place[] = ENGLAND_WALES;
  let name: string;
  if (za) {
    registrationNumber = `${rnd.int(1996, 2024)}/${sixDigits(i)}/07`;
    places = SOUTH_AFRICA;
    name = `${base} (PTY) LTD`;
  } else if (type === 'SOLE_TRADER') {
    registrationNumber = `ST${sixDigits(i)}`;
    name = base;
  } else if (type === 'STARTUP') {
    registrationNumber = recentNumber(i);
    name = `${base} LTD`;
  } else if (type === 'LIMITED_LIABILITY_PARTNERSHIP') {
    const prefix = region <= 8 ? 'SO' : region <= 11 ? 'NC' : 'OC';
    places = prefix === 'SO' ? SCOTLAND : prefix === 'NC' ? NORTHERN_IRELAND : ENGLAND_WALES;
    registrationNumber = `${prefix}${sixDigits(i)}`;
    name = `${base} LLP`;
  } else {
    if (region <= 8) {
      registrationNumber = `SC${sixDigits(i)}`;
      places = SCOTLAND;
    } else if (region <= 11) {
      registrationNumber = `NI${sixDigits(i)}`;
      places = NORTHERN_IRELAND;
    } else {
      registrationNumber = ewNumber(i);
    }
    name = `${base} ${rnd.chance(0.55) ? 'LIMITED' : 'LTD'}`;
  }

  const dissolved = rnd.int(1, 100) <= DISSOLVED_PERCENT;
  const liveScore = pickScore(rnd);
  const scoreValue = dissolved ? 0 : liveScore;
  const previousScoreValue = dissolved ? rnd.int(2, 25) : rnd.chance(0.35) ? Math.max(2, Math.min(100, liveScore + rnd.int(-18, 18))) : null;

  const incorporatedAt =
    type === 'STARTUP' ? daysBefore(SCORE_ASSESSED_AT, rnd.int(30, 540)) : new Date(Date.UTC(rnd.int(1978, 2024), rnd.int(0, 11), rnd.int(1, 28)));
  const employeesNumber = dissolved
    ? 0
    : type === 'SOLE_TRADER'
      ? rnd.int(1, 4)
      : type === 'STARTUP'
        ? rnd.int(1, 12)
        : Math.round(2 * Math.pow(125, rnd.next())) + rnd.int(0, 3); // 2 .. ~250, most small
  const vatStatus: VatStatus = dissolved
    ? 'NOT_REGISTERED'
    : employeesNumber >= 5
      ? rnd.chance(0.9)
        ? 'REGISTERED'
        : 'UNKNOWN'
      : rnd.pick(['REGISTERED', 'NOT_REGISTERED', 'NOT_REGISTERED', 'UNKNOWN'] as const);
  const currency = za ? 'ZAR' : 'GBP';
  const fx = za ? 20 : 1;
  const creditLimitValue =
    dissolved || scoreValue < 16
      ? dissolved
        ? 0
        : 250 * rnd.int(1, 4)
      : Math.round(((employeesNumber * 900 + scoreValue * 350) * (0.5 + rnd.next()) * fx) / 100) * 100;
  const companyNoticesCount = scoreValue < 26 ? rnd.int(1, 4) : rnd.chance(0.06) ? 1 : 0;
  const directorsNoticesCount = scoreValue < 16 ? rnd.int(0, 2) : rnd.chance(0.02) ? 1 : 0;

  const [city, outward, province] = rnd.pick(places);
  const street = `${rnd.int(1, 240)} ${rnd.pick(za ? ZA_STREETS : STREETS)}`;
  const houseNumber = rnd.chance(0.3) ? rnd.pick(UNITS) : undefined;
  const postalCode = za ? outward : postcode(rnd, outward);
  const website = rnd.chance(type === 'SOLE_TRADER' ? 0.35 : 0.75) ? `https://${titleSlug(base)}.example` : null;

  return {
    countryCode: za ? 'ZA' : 'GB',
    registrationNumber,
    name,
    type,
    sector,
    status: dissolved ? 'DISSOLVED' : 'ACTIVE',
    vatStatus,
    incorporatedAt,
    scoreValue,
    previousScoreValue,
    scoreChangedAt: previousScoreValue === null ? null : daysBefore(SCORE_ASSESSED_AT, rnd.int(1, 330)),
    scoreLastAssessedAt: SCORE_ASSESSED_AT,
    creditLimitValue,
    creditLimitCurrency: currency,
    employeesNumber,
    website,
    address: addr(street, city, province, postalCode, houseNumber),
    companyNoticesCount,
    companyNoticesValue: companyNoticesCount * rnd.int(3, 120) * 100 * fx,
    directorsNoticesCount,
    directorsNoticesValue: directorsNoticesCount * rnd.int(2, 80) * 100 * fx,
    noticesCurrency: currency,
  };
}

const FIXED_KEYS = new Set(FIXED_COMPANIES.map((c) => `${c.countryCode}:${c.registrationNumber}`));

/**
 * The demo registry as a lazy stream: the fixed companies, then generated ones, `count` in all.
 * Cheap (no I/O, random-access PRNG): 100,000 companies take well under a second.
 */
export function* demoCompanyStream(count: number): Generator<DemoCompany> {
  let emitted = 0;
  for (const c of FIXED_COMPANIES) {
    if (emitted >= count) return;
    yield c;
    emitted++;
  }
  for (let i = 0; emitted < count; i++) {
    const c = generatedCompany(i);
    if (FIXED_KEYS.has(`${c.countryCode}:${c.registrationNumber}`)) continue;
    yield c;
    emitted++;
  }
}

/** The seeded demo registry (400 companies by default). */
export function demoCompanies(count = 400): DemoCompany[] {
  return [...demoCompanyStream(count)];
}
