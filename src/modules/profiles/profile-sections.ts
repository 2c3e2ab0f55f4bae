/**
 * The list sections of a profile (properties, assets, assets for security, merchant cash advance,
 * trade references) between their API shape (spec 2.1) and their rows: amounts are stored as a
 * decimal value and a currency column, order as `position`.
 */
import type { Prisma } from '../../generated/prisma/client.js';
import type { z } from 'zod';
import type { Asset, AssetSecurity, MerchantCashAdvance, Person, Property, TradeReference } from './profile-schemas.js';

type Money = { code: 'GBP' | 'EUR' | 'ZAR'; value: number } | undefined;
type Decimalish = { toString(): string } | number | null;

const money = (value: Decimalish, currency: string | null): Money =>
  value === null || currency === null ? undefined : { code: currency as 'GBP', value: Number(value) };
const moneyColumns = (prefix: string, amount: Money) => ({ [`${prefix}Value`]: amount?.value ?? null, [`${prefix}Currency`]: amount?.code ?? null });

/** Drops undefined and null values, so responses carry only what was given. */
function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== null)) as T;
}

export interface ProfileSections {
  properties?: z.infer<typeof Property>[];
  assets?: z.infer<typeof Asset>[];
  assetsForSecurity?: z.infer<typeof AssetSecurity>[];
  merchantCashAdvance?: z.infer<typeof MerchantCashAdvance>[];
  tradeReferences?: z.infer<typeof TradeReference>[];
}

const SECTION_NAMES = ['properties', 'assets', 'assetsForSecurity', 'merchantCashAdvance', 'tradeReferences'] as const;

/** Replaces the given sections' rows (sections left out are untouched). */
export async function writeSections(tx: Prisma.TransactionClient, profileId: string, sections: ProfileSections): Promise<void> {
  const rows = <T>(items: T[] | undefined, map: (item: T) => object) => items?.map((item, position) => ({ profileId, position, ...map(item) }));
  if (sections.properties) {
    await tx.property.deleteMany({ where: { profileId } });
    await tx.property.createMany({
      data: rows(sections.properties, (p) => ({
        type: p.type ?? null,
        location: p.location ?? null,
        setting: p.setting ?? null,
        classification: p.classification ?? null,
        address: p.address ?? undefined,
        additionalDetails: p.additionalDetails ?? null,
        ...moneyColumns('value', p.value),
        ...moneyColumns('outstandingDebt', p.outstandingDebt),
        ...moneyColumns('depositAvailable', p.depositAvailable),
      })) as Prisma.PropertyCreateManyInput[],
    });
  }
  if (sections.assets) {
    await tx.asset.deleteMany({ where: { profileId } });
    await tx.asset.createMany({
      data: rows(sections.assets, (a) => ({
        name: a.name ?? null,
        type: a.type ?? null,
        offeredAsGuarantee: a.offeredAsGuarantee ?? null,
        existingAgreement: a.existingAgreement ?? null,
        ...moneyColumns('netCost', a.netCost),
        ...moneyColumns('depositAvailable', a.depositAvailable),
      })) as Prisma.AssetCreateManyInput[],
    });
  }
  if (sections.assetsForSecurity) {
    await tx.assetSecurity.deleteMany({ where: { profileId } });
    await tx.assetSecurity.createMany({
      data: rows(sections.assetsForSecurity, (s) => ({
        type: s.type ?? null,
        owner: s.owner ?? null,
        address: s.address ?? undefined,
        ...moneyColumns('value', s.value),
        ...moneyColumns('totalDebt', s.totalDebt),
      })) as Prisma.AssetSecurityCreateManyInput[],
    });
  }
  if (sections.merchantCashAdvance) {
    await tx.merchantCashAdvance.deleteMany({ where: { profileId } });
    await tx.merchantCashAdvance.createMany({ data: rows(sections.merchantCashAdvance, (m) => ({ ...m })) as Prisma.MerchantCashAdvanceCreateManyInput[] });
  }
  if (sections.tradeReferences) {
    await tx.tradeReference.deleteMany({ where: { profileId } });
    await tx.tradeReference.createMany({ data: rows(sections.tradeReferences, (t) => ({ ...t })) as Prisma.TradeReferenceCreateManyInput[] });
  }
}

export const SECTIONS_INCLUDE = {
  persons: { orderBy: { position: 'asc' } },
  properties: { orderBy: { position: 'asc' } },
  assets: { orderBy: { position: 'asc' } },
  assetsForSecurity: { orderBy: { position: 'asc' } },
  merchantCashAdvance: { orderBy: { position: 'asc' } },
  tradeReferences: { orderBy: { position: 'asc' } },
} as const satisfies Prisma.ProfileInclude;

type WithSections = Prisma.ProfileGetPayload<{ include: typeof SECTIONS_INCLUDE }>;
/** The section rows `readSections` maps; trade references are not part of every read. */
export type SectionRows = Pick<WithSections, 'properties' | 'assets' | 'assetsForSecurity' | 'merchantCashAdvance'> &
  Partial<Pick<WithSections, 'tradeReferences'>>;

export type PersonDto = z.infer<typeof Person>;

export function readPersons(row: Pick<WithSections, 'persons'>): PersonDto[] {
  return row.persons.map(
    (p) => compact({ type: p.type, title: p.title, name: p.name, address: p.address, dateOfBirth: p.dateOfBirth?.toISOString() }) as PersonDto,
  );
}

export function readSections(row: SectionRows): Required<ProfileSections> {
  return {
    properties: row.properties.map(
      (p) =>
        compact({
          type: p.type,
          location: p.location,
          setting: p.setting,
          classification: p.classification,
          address: p.address,
          value: money(p.valueValue, p.valueCurrency),
          outstandingDebt: money(p.outstandingDebtValue, p.outstandingDebtCurrency),
          depositAvailable: money(p.depositAvailableValue, p.depositAvailableCurrency),
          additionalDetails: p.additionalDetails,
        }) as z.infer<typeof Property>,
    ),
    assets: row.assets.map(
      (a) =>
        compact({
          name: a.name,
          type: a.type,
          offeredAsGuarantee: a.offeredAsGuarantee,
          existingAgreement: a.existingAgreement,
          netCost: money(a.netCostValue, a.netCostCurrency),
          depositAvailable: money(a.depositAvailableValue, a.depositAvailableCurrency),
        }) as z.infer<typeof Asset>,
    ),
    assetsForSecurity: row.assetsForSecurity.map(
      (s) =>
        compact({
          type: s.type,
          owner: s.owner,
          address: s.address,
          value: money(s.valueValue, s.valueCurrency),
          totalDebt: money(s.totalDebtValue, s.totalDebtCurrency),
        }) as z.infer<typeof AssetSecurity>,
    ),
    merchantCashAdvance: row.merchantCashAdvance.map(
      (m) =>
        compact({
          type: m.type,
          averageMonthlyTransactions: m.averageMonthlyTransactions,
          terminalId: m.terminalId,
          monthsOnBusinessLease: m.monthsOnBusinessLease,
        }) as z.infer<typeof MerchantCashAdvance>,
    ),
    tradeReferences: (row.tradeReferences ?? []).map(
      (t) =>
        compact({ companyName: t.companyName, contactName: t.contactName, contactNumber: t.contactNumber, contactEmail: t.contactEmail }) as z.infer<
          typeof TradeReference
        >,
    ),
  };
}
