/**
 * Companies House "Basic Company Data" (the free bulk product, one CSV of 55 columns): its header
 * and how one record becomes RegisterFacts, or the problem that keeps it out. Header names are
 * matched trimmed (the published header has leading spaces on some); dates are DD/MM/YYYY.
 */
import type { RegisterAddress, RegisterFacts } from '../register-facts.js';
import { companyStatusCode, companyStatusOf, companyTypeCode, companyTypeOf, sectorOf, sicCodeOf } from './code-lists.js';

const PREVIOUS_NAME_COLUMNS = Array.from({ length: 10 }, (_, i) => [`PreviousName_${i + 1}.CONDATE`, `PreviousName_${i + 1}.CompanyName`]).flat();

/** The published header, in order (trimmed). */
const BASIC_COMPANY_DATA_COLUMNS = [
  'CompanyName',
  'CompanyNumber',
  'RegAddress.CareOf',
  'RegAddress.POBox',
  'RegAddress.AddressLine1',
  'RegAddress.AddressLine2',
  'RegAddress.PostTown',
  'RegAddress.County',
  'RegAddress.Country',
  'RegAddress.PostCode',
  'CompanyCategory',
  'CompanyStatus',
  'CountryOfOrigin',
  'DissolutionDate',
  'IncorporationDate',
  'Accounts.AccountRefDay',
  'Accounts.AccountRefMonth',
  'Accounts.NextDueDate',
  'Accounts.LastMadeUpDate',
  'Accounts.AccountCategory',
  'Returns.NextDueDate',
  'Returns.LastMadeUpDate',
  'Mortgages.NumMortCharges',
  'Mortgages.NumMortOutstanding',
  'Mortgages.NumMortPartSatisfied',
  'Mortgages.NumMortSatisfied',
  'SICCode.SicText_1',
  'SICCode.SicText_2',
  'SICCode.SicText_3',
  'SICCode.SicText_4',
  'LimitedPartnerships.NumGenPartners',
  'LimitedPartnerships.NumLimPartners',
  'URI',
  ...PREVIOUS_NAME_COLUMNS,
  'ConfStmtNextDueDate',
  'ConfStmtLastMadeUpDate',
] as const;

type Column = (typeof BASIC_COMPANY_DATA_COLUMNS)[number];

/** Why a header is not the Basic Company Data header, or null when it is. */
export function headerProblem(header: readonly string[]): string | null {
  const trimmed = header.map((name) => name.trim());
  if (trimmed.length !== BASIC_COMPANY_DATA_COLUMNS.length) {
    return `the header has ${trimmed.length} columns; Basic Company Data has ${BASIC_COMPANY_DATA_COLUMNS.length}`;
  }
  const wrong = BASIC_COMPANY_DATA_COLUMNS.findIndex((name, i) => trimmed[i] !== name);
  return wrong === -1 ? null : `column ${wrong + 1} is "${trimmed[wrong]}", expected "${BASIC_COMPANY_DATA_COLUMNS[wrong]}"`;
}

/** A company number as the register writes it: 8 characters, digits or a two-letter prefix and digits. */
const COMPANY_NUMBER = /^([0-9]{8}|[A-Z]{2}[0-9]{6}|[A-Z][0-9]{7})$/;

export type RecordResult = { facts: RegisterFacts } | { problem: string };

/** One data record (its fields in header order) as register facts. */
export function factsOfRecord(fields: readonly string[]): RecordResult {
  if (fields.length !== BASIC_COMPANY_DATA_COLUMNS.length) {
    return { problem: `${fields.length} fields; a record has ${BASIC_COMPANY_DATA_COLUMNS.length}` };
  }
  const at = (column: Column) => (fields[BASIC_COMPANY_DATA_COLUMNS.indexOf(column)] ?? '').trim();
  const number = at('CompanyNumber').toUpperCase();
  if (!COMPANY_NUMBER.test(number)) return { problem: `CompanyNumber "${number}" is not a company number (8 characters, zero padding and prefix kept)` };
  const name = at('CompanyName');
  if (!name) return { problem: 'CompanyName is empty' };
  if (name.length > 160) return { problem: 'CompanyName is longer than 160 characters' };
  const incorporated = dayMonthYear(at('IncorporationDate'));
  if (incorporated === undefined) return { problem: `IncorporationDate "${at('IncorporationDate')}" is not a DD/MM/YYYY date` };

  const registerType = companyTypeCode(at('CompanyCategory'));
  const registerStatus = companyStatusCode(at('CompanyStatus'));
  const sicCodes = (['SICCode.SicText_1', 'SICCode.SicText_2', 'SICCode.SicText_3', 'SICCode.SicText_4'] as const).flatMap(
    (column) => sicCodeOf(at(column)) ?? [],
  );
  const previousNames: string[] = [];
  for (let i = 1; i <= 10; i++) {
    const previous = at(`PreviousName_${i}.CompanyName` as Column);
    if (previous) previousNames.push(previous);
  }
  return {
    facts: {
      countryCode: 'GB',
      registrationNumber: number,
      name,
      type: companyTypeOf(registerType),
      registerType,
      status: companyStatusOf(registerStatus),
      registerStatus,
      sector: sectorOf(sicCodes),
      sicCodes,
      incorporatedAt: incorporated,
      address: registeredOffice(at),
      previousNames,
    },
  };
}

function registeredOffice(at: (column: Column) => string): RegisterAddress | null {
  const careOf = at('RegAddress.CareOf');
  const poBox = at('RegAddress.POBox');
  const line1 = at('RegAddress.AddressLine1');
  const line2 = at('RegAddress.AddressLine2');
  const town = at('RegAddress.PostTown');
  const county = at('RegAddress.County');
  const postCode = at('RegAddress.PostCode');
  const street = [careOf && `C/O ${careOf}`, poBox && `PO BOX ${poBox}`, line1, line2].filter(Boolean).join(', ');
  const simpleValue = [street, town, county, postCode].filter(Boolean).join(', ');
  if (!simpleValue) return null;
  return {
    simpleValue,
    ...(street ? { street } : {}),
    ...(town ? { city: town } : {}),
    ...(county ? { province: county } : {}),
    ...(postCode ? { postalCode: postCode } : {}),
  };
}

/** DD/MM/YYYY as a UTC date; null when empty, undefined when malformed. */
function dayMonthYear(text: string): Date | null | undefined {
  if (!text) return null;
  const match = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text);
  if (!match) return undefined;
  const date = new Date(Date.UTC(Number(match[3]), Number(match[2]) - 1, Number(match[1])));
  return date.getUTCDate() === Number(match[1]) && date.getUTCMonth() === Number(match[2]) - 1 ? date : undefined;
}
