/** The kinds of funding product a lender offers (spec 2.6 `productType`): the lenders module owns them, matching reads them. */
export const PRODUCT_TYPES = [
  'ASSET_BACKED_FINANCE',
  'COMMERCIAL_PROPERTY',
  'E_COMMERCE_FUNDING',
  'FIXED_LOAN_TERMS',
  'INVOICE_FINANCE',
  'MERCHANT_CASH_ADVANCE',
  'TERM_LOAN',
  'TRADE_FINANCE',
] as const;

export type ProductType = (typeof PRODUCT_TYPES)[number];

const isProductType = (value: string): value is ProductType => (PRODUCT_TYPES as readonly string[]).includes(value);

/** A product type read as text (the matching engine's columns), as the enum it is: the catalogue's column holds these values only. */
export function productTypeOf(value: string): ProductType {
  if (!isProductType(value)) throw new Error(`Not a product type: ${value}`);
  return value;
}

/** A lender's price band (spec 2.6 `lender.average`): where its cost sits against the market. */
export const PRICE_BANDS = ['LOW', 'AVERAGE', 'EXPENSIVE', 'MOST_EXPENSIVE'] as const;
