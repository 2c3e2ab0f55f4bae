/**
 * The funding application document sent to a lender (spec 2.7), built from the profile, its funding
 * search and the lender's matches in it. Its conventions are the lender API's: dates as epoch seconds, money in the
 * funding search as string decimals, numeric flags (vatRegistered 1/0). Sections the profile cannot
 * fill are left out rather than invented. Built and stored without apiProvider.authorizationToken
 * (src/modules/webhooks/authorization-token.ts adds the application's own as it is sent or read).
 */
import type { Prisma } from '../../generated/prisma/client.js';
import type { SECTIONS_INCLUDE } from '../profiles/profile-sections.js';
import { DirectorDetails, type StoredApplicationDocument } from './funding-application-schemas.js';

type Doc = Record<string, any>;
export type DocumentProfile = Prisma.ProfileGetPayload<{ include: typeof SECTIONS_INCLUDE }>;
interface DocumentMatch {
  id: number;
  productId: number;
  productType: string;
  status: number;
  instantOffer: boolean;
}

export interface DocumentSources {
  applicationId: number;
  status: string;
  profile: DocumentProfile;
  creditGrade: string | null;
  fundingSearch: {
    id: number;
    status: number;
    statusLabel: string;
    amount: { toString(): string };
    periodMonths: number | null;
    useOfFunds: string | null;
    urgency: string | null;
  };
  /** The lender's matches sent in this application (the first one is the application's match). */
  matches: [DocumentMatch, ...DocumentMatch[]];
  lender: { id: number; name: string; logo: string | null; icon: string | null };
  apiBaseUrl: string;
  now: Date;
  /** The profile's documents (without content): listed as attachments the lender can download. */
  documents?: Array<{ id: string; fileName: string; contentType: string; sizeBytes: number; sha256: string }>;
}

const epoch = (value: unknown): number | null => {
  if (typeof value !== 'string' && !(value instanceof Date)) return null;
  const time = new Date(value).getTime();
  return Number.isNaN(time) ? null : Math.floor(time / 1000);
};
const money = (value: unknown): number | null =>
  typeof value === 'object' && value !== null && typeof (value as Doc).value === 'number' ? (value as Doc).value : null;
const drop = <T extends Doc>(obj: T): T => Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as T;

/** The spec's further director details stored with a person, each only when it has the declared type. */
function directorDetails(details: unknown): Doc {
  const stored = (typeof details === 'object' && details !== null ? details : {}) as Doc;
  return Object.fromEntries(
    Object.entries(DirectorDetails.shape).flatMap(([key, schema]) => (key in stored && schema.safeParse(stored[key]).success ? [[key, stored[key]]] : [])),
  );
}

function tradingPeriod(startedAt: number | null, now: Date): string | null {
  if (startedAt === null) return null;
  const months = (now.getTime() / 1000 - startedAt) / (30.44 * 86400);
  return months < 6 ? '0-6 months' : months < 12 ? '6-12 months' : months < 24 ? '1-2 years' : months < 60 ? '2-5 years' : '5+ years';
}

export function buildFundingApplication(s: DocumentSources): StoredApplicationDocument {
  const [match] = s.matches;
  const info = (s.profile.companyInformation ?? {}) as Doc;
  const financials = (s.profile.financials ?? {}) as Doc;
  const contact = (info.primaryContactInformation ?? {}) as Doc;
  const address = (info.contactAddress ?? {}) as Doc;
  const tradingFrom = epoch(info.tradingFromDate ?? info.incorporatedAt);
  const debtors = Array.isArray(financials.debtors) ? (financials.debtors as Doc[]) : [];
  const mca = s.profile.merchantCashAdvance[0];
  const confirmedOrders = money(financials.currentValueConfirmedOrders);
  const url = `${s.apiBaseUrl}/applications/${s.applicationId}`;
  const profile = drop({
    basicCompanyDetails: {
      contactName: contact.name ?? null,
      contactEmail: contact.email ?? null,
      contactPhone: contact.number ?? null,
      companyName: info.name ?? null,
      companyTradingName: info.name ?? null,
      companyNumber: info.registrationNumber ?? s.profile.registrationNumber ?? null,
      companyType: info.type ?? null,
      vatRegistered: info.vatStatus === 'REGISTERED' ? 1 : 0,
      address: address.simpleValue ?? address.street ?? null,
      city: address.city ?? null,
      postalCode: address.postalCode ?? null,
      tradingFrom,
      tradingPeriod: tradingPeriod(tradingFrom, s.now),
      creditScore: s.creditGrade,
      numberOfEmployees: info.employeesNumber ?? null,
      percentageOfSalesOnline: info.percentageSalesOnline ?? null,
      companyWebsite: info.website ?? null,
      sectorName: info.sector ?? null,
    },
    directorOrSecretaryDetails: s.profile.persons.map((p) => ({
      title: p.title,
      fullName: p.name,
      dateOfBirth: epoch(p.dateOfBirth),
      position: p.type,
      addressResidential: (p.address as Doc | null)?.simpleValue ?? null,
      personalGuarantee: info.unencumberedAssets?.personalGuarantee ?? null,
      ...directorDetails(p.details),
    })),
    tradeHistory: (Array.isArray(financials.tradingHistory) ? (financials.tradingHistory as Doc[]) : []).map((t) => ({
      year: String(t.year ?? t.yearEnd),
      yearEndTimestamp: epoch(`${t.yearEnd}-12-31T00:00:00Z`),
      revenue: String(t.revenue),
      profitNet: String(t.profitNet),
      debtorsOutstanding: t.debtorsOutstanding ?? null,
      debtorsInvoicesDue: t.debtorsInvoicesDue ?? null,
      fixedAssets: t.fixedAssets ?? null,
    })),
    guarantorAssetsForSecurity: {
      hasUkHomeownerDirector: info.unencumberedAssets?.isHomeOwnership === true,
      estimatedSecurity: s.profile.assetsForSecurity.reduce((sum, a) => sum + Number(a.valueValue ?? 0), 0),
      guarantorAssets: s.profile.assetsForSecurity.map((a) => ({
        owner: a.owner,
        estimatedValue: a.valueValue === null ? null : Number(a.valueValue),
        totalDebt: a.totalDebtValue === null ? null : Number(a.totalDebtValue),
        address: (a.address as Doc | null)?.simpleValue ?? null,
      })),
    },
    invoiceFinancing: debtors.length
      ? {
          debtorsValue: debtors.reduce((sum, d) => sum + (d.outstandingAmount ?? 0), 0),
          debtorDays: Math.round(debtors.reduce((sum, d) => sum + (d.debtorDays ?? 0), 0) / debtors.length),
          invoicesNumber: debtors.reduce((sum, d) => sum + (d.outstandingInvoicesCount ?? 0), 0),
          customersNumber: debtors.length,
        }
      : undefined,
    tradeFinanceProfile: confirmedOrders !== null ? { currentValueOfConfirmedOrders: confirmedOrders } : undefined,
    eposTerminalInfo: mca
      ? {
          transactionsPerMonthAvg: mca.averageMonthlyTransactions,
          terminalId: mca.terminalId,
          monthsRemainingOnBusinessLease: mca.monthsOnBusinessLease,
          terminalProvider: mca.type,
        }
      : undefined,
    assetsToFinance: s.profile.assets.map((a) => ({
      assetCost: a.netCostValue === null ? null : Number(a.netCostValue),
      assetSerialNumber: null,
      depositAvailable: a.depositAvailableValue === null ? null : Number(a.depositAvailableValue),
      assetType: a.type,
      assetTypeName: a.name,
    })),
    attachments: (s.documents ?? []).map((d) => ({
      id: d.id,
      fileName: d.fileName,
      contentType: d.contentType,
      sizeBytes: d.sizeBytes,
      sha256: d.sha256,
      url: `${s.apiBaseUrl}/v1/funding/search/${s.applicationId}/document/${d.id}`,
    })),
  });
  return {
    // No authorizationToken: it is the application's own, added as the document is sent or read.
    apiProvider: { url, updateUrl: url },
    application: {
      id: s.applicationId,
      reference: null,
      status: s.status,
      responseReason: null,
      comment: null,
      fundingSearch: {
        id: s.fundingSearch.id,
        status: s.fundingSearch.status,
        amount: Number(s.fundingSearch.amount.toString()).toFixed(2),
        period: s.fundingSearch.periodMonths,
        statusLabel: s.fundingSearch.statusLabel,
        author: null,
        manager: null,
        useOfFunds: s.fundingSearch.useOfFunds,
        urgency: s.fundingSearch.urgency,
      },
      fundingMatch: {
        id: match.id,
        offerId: null,
        products: s.matches.map((m) => m.productId),
        productNames: s.matches.map((m) => m.productType),
        statusReason: null,
        statusComment: null,
        canUseInstantOffer: match.instantOffer,
        canUseInstantApplication: false,
        lender: { id: s.lender.id, entityId: s.lender.id, companyName: s.lender.name, logo: s.lender.logo, icon: s.lender.icon },
        status: match.status,
      },
      profile,
      acceptedAt: null,
      invalidatedAt: null,
    },
  };
}
