/**
 * Example requests of the profile routes (the API reference), sent as they are by
 * test/openapi-examples.test.ts: ACME WIDGETS LIMITED (company number 09876543 in the demo registry),
 * a Sheffield manufacturer with a factory it owns and a few long-standing customers.
 */
const SHEFFIELD_ADDRESS = {
  simpleValue: 'Unit 4, Parkway Trading Estate, Sheffield S9 3BL',
  street: 'Unit 4, Parkway Trading Estate',
  city: 'Sheffield',
  province: 'South Yorkshire',
  postalCode: 'S9 3BL',
};

/** Onboarding step 5: the company number; the registry supplies the rest. */
export const TENANT_PROFILE_SET_UP = {
  companyInformation: { registrationNumber: '09876543', website: 'https://acme-widgets.example', employeesNumber: 42, tradingAddress: SHEFFIELD_ADDRESS },
  financials: { revenue: { code: 'GBP', value: 900000 }, netProfit: { code: 'GBP', value: 85000 } },
};

/** A change of the figures and the trade references (other sections stay as they are). */
export const TENANT_PROFILE_PATCH = {
  financials: { revenue: { code: 'GBP', value: 960000 }, numberOfCustomers: 38, paymentTerms: 30 },
  tradeReferences: [
    {
      companyName: 'NORTHERN STEEL SUPPLIES LTD',
      contactName: 'Priya Shah',
      contactNumber: '+44 114 496 0123',
      contactEmail: 'accounts@northern-steel.example',
    },
  ],
};

/** The whole profile: what is left out is cleared (the registry's facts stay). */
export const TENANT_PROFILE_REPLACE = {
  companyInformation: { website: 'https://acme-widgets.example', employeesNumber: 44, percentageSalesOnline: 10, tradingAddress: SHEFFIELD_ADDRESS },
  financials: { revenue: { code: 'GBP', value: 960000 }, netProfit: { code: 'GBP', value: 91000 }, primaryBank: 1 },
  properties: [
    {
      type: 'OTHER',
      location: 'UK_MAINLAND',
      setting: 'INDUSTRIAL',
      classification: 'COMMERCIAL',
      address: SHEFFIELD_ADDRESS,
      value: { code: 'GBP', value: 650000 },
      outstandingDebt: { code: 'GBP', value: 210000 },
    },
  ],
  assets: [{ name: 'CNC milling machine', type: 'MANUFACTURING', netCost: { code: 'GBP', value: 85000 }, offeredAsGuarantee: true, existingAgreement: false }],
};

export const COMPANY_PATCH = {
  website: 'https://acme-widgets.example',
  employeesNumber: 42,
  vatStatus: 'REGISTERED',
  primaryContactInformation: { name: 'Ada Owner', email: 'ada@acme-widgets.example', number: '+44 20 7946 0000' },
};

export const FINANCIALS_PATCH = {
  revenue: { code: 'GBP', value: 900000 },
  netProfit: { code: 'GBP', value: 85000 },
  tradingHistory: [{ year: 2025, yearEnd: 3, revenue: 900000, profitNet: 85000, netAssets: 410000 }],
};
