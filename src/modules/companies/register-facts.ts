/**
 * What a company register states about a company (no credit data): the one shape every register
 * source produces (the Basic Company Data import, the Companies House API) and the register store
 * writes. Its digest tells whether a company changed since it was last written.
 */
import { createHash } from 'node:crypto';
import type { COMPANY_TYPES, SECTORS } from './company-information-schemas.js';

export type RegisterSource = 'companies-house-bulk' | 'companies-house-api' | 'companies-house-stream';

export interface RegisterAddress {
  simpleValue: string;
  street?: string;
  houseNumber?: string;
  city?: string;
  province?: string;
  postalCode?: string;
}

export interface RegisterFacts {
  countryCode: 'GB';
  /** As the register writes it: prefix and zero padding kept ("SC012345", "00000086"). */
  registrationNumber: string;
  name: string;
  type: (typeof COMPANY_TYPES)[number];
  registerType: string | null;
  status: 'ACTIVE' | 'DISSOLVED';
  registerStatus: string | null;
  sector: (typeof SECTORS)[number];
  sicCodes: string[];
  incorporatedAt: Date | null;
  /** The registered office. */
  address: RegisterAddress | null;
  /** Most recent first. */
  previousNames: string[];
}

/** A digest of every fact: equal digests, nothing to write. */
export function registerDigest(facts: RegisterFacts): string {
  const { countryCode, registrationNumber, name, type, registerType, status, registerStatus, sector, sicCodes, incorporatedAt, address, previousNames } = facts;
  const canonical = JSON.stringify([
    countryCode,
    registrationNumber,
    name,
    type,
    registerType,
    status,
    registerStatus,
    sector,
    sicCodes,
    incorporatedAt?.toISOString() ?? null,
    address,
    previousNames,
  ]);
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 32);
}
