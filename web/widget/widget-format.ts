/**
 * Dates, money, numbers and plural categories in the widget's locale, all by Intl (no formatting
 * rule of our own but one: whole amounts show no minor units). Dates are calendar dates in the
 * UK, where the credit reports come from, whatever the reader's time zone.
 */
export interface Formatter {
  date: (value: string) => string;
  money: (amount: { code: string; value: number }) => string;
  number: (value: number) => string;
  plural: (count: number) => Intl.LDMLPluralRule;
}

export function formatterFor(locale: string): Formatter {
  const day = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'Europe/London' });
  const numbers = new Intl.NumberFormat(locale);
  const plurals = new Intl.PluralRules(locale);
  const currencies = new Map<string, Intl.NumberFormat>();
  const currency = (code: string, whole: boolean): Intl.NumberFormat => {
    const key = `${code}:${whole}`;
    let format = currencies.get(key);
    if (!format) {
      format = new Intl.NumberFormat(locale, { style: 'currency', currency: code, ...(whole ? { minimumFractionDigits: 0, maximumFractionDigits: 0 } : {}) });
      currencies.set(key, format);
    }
    return format;
  };
  return {
    date: (value) => {
      const date = new Date(value);
      return Number.isNaN(date.getTime()) ? value : day.format(date);
    },
    money: ({ code, value }) => {
      try {
        return currency(code, Number.isInteger(value)).format(value);
      } catch {
        // Not an ISO 4217 code Intl knows: the amount and the code as the API gave them.
        return `${numbers.format(value)} ${code}`;
      }
    },
    number: (value) => numbers.format(value),
    plural: (count) => plurals.select(count),
  };
}
